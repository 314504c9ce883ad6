CREATE TABLE "refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"purchase_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"source" text NOT NULL,
	"whole" boolean NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_amount_ck" CHECK ("refunds"."amount" >= 0),
	CONSTRAINT "refunds_source_ck" CHECK ("refunds"."source" in ('admin', 'provider'))
);
--> statement-breakpoint
DROP INDEX "purchases_sales_idx";--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "refunded_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Orders refunded before partial refunds existed were refunded whole.
UPDATE "purchases" SET "refunded_amount" = "price" WHERE "status" = 'refunded';--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_purchase_idx" ON "refunds" USING btree ("purchase_id","id");--> statement-breakpoint
CREATE INDEX "purchases_sales_idx" ON "purchases" USING btree ("purchase_date","book_id","format","price","refunded_amount") WHERE "purchases"."status" in ('completed', 'shipped') and "purchases"."kind" in ('paid', 'gift');--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_refunded_amount_ck" CHECK ("purchases"."refunded_amount" >= 0 and "purchases"."refunded_amount" <= "purchases"."price");