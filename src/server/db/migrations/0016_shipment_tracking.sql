ALTER TABLE "purchases" ADD COLUMN "shipping_carrier" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "tracking_number" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "tracking_url" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_tracking_ck" CHECK (("purchases"."shipping_carrier" is null) = ("purchases"."tracking_number" is null) and ("purchases"."tracking_url" is null or ("purchases"."tracking_number" is not null and "purchases"."tracking_url" ~ '^https?://')));