ALTER TABLE "purchases" DROP CONSTRAINT "purchases_price_ck";--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "kind" text DEFAULT 'paid' NOT NULL;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "paid_by_purchase_id" integer;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "refunded_by" integer;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_paid_by_purchase_id_purchases_id_fk" FOREIGN KEY ("paid_by_purchase_id") REFERENCES "public"."purchases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_refunded_by_users_id_fk" FOREIGN KEY ("refunded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "purchases_paid_by_idx" ON "purchases" USING btree ("paid_by_purchase_id");--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_kind_ck" CHECK ("purchases"."kind" in ('paid', 'included', 'gift', 'gift_claim'));--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_price_ck" CHECK (("purchases"."kind" in ('included', 'gift_claim') and "purchases"."price" = 0 and "purchases"."paid_by_purchase_id" is not null) or ("purchases"."kind" in ('paid', 'gift') and "purchases"."price" >= 0 and "purchases"."paid_by_purchase_id" is null));