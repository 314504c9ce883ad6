-- Addresses collected before double opt-in count as confirmed (decision 0069); only new sign-ups default to unconfirmed.
ALTER TABLE "newsletter_subscribers" ADD COLUMN "state" text DEFAULT 'confirmed' NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ALTER COLUMN "state" SET DEFAULT 'unconfirmed';--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD COLUMN "source" text DEFAULT 'unknown' NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD COLUMN "confirm_token_hash" text;--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD COLUMN "confirm_token_expires_at" timestamp with time zone;--> statement-breakpoint
UPDATE "newsletter_subscribers" SET "state" = 'unsubscribed' WHERE "unsubscribed_at" IS NOT NULL;--> statement-breakpoint
UPDATE "newsletter_subscribers" SET "confirmed_at" = "subscribed_at" WHERE "unsubscribed_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_confirm_token_uq" ON "newsletter_subscribers" USING btree ("confirm_token_hash");--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD CONSTRAINT "newsletter_state_ck" CHECK ("newsletter_subscribers"."state" in ('unconfirmed', 'confirmed', 'unsubscribed', 'bounced', 'complained'));--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD CONSTRAINT "newsletter_source_ck" CHECK ("newsletter_subscribers"."source" in ('home', 'footer', 'checkout', 'import', 'unknown'));--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD CONSTRAINT "newsletter_unsubscribed_ck" CHECK (("newsletter_subscribers"."state" = 'unsubscribed') = ("newsletter_subscribers"."unsubscribed_at" is not null));