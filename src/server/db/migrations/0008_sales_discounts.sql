CREATE TABLE "discount_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"percent_off" integer,
	"amount_off" integer,
	"formats" jsonb,
	"expires_at" timestamp with time zone,
	"max_redemptions" integer,
	"redemptions" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discount_codes_value_ck" CHECK (("discount_codes"."percent_off" is not null and "discount_codes"."amount_off" is null and "discount_codes"."percent_off" between 1 and 100) or ("discount_codes"."amount_off" is not null and "discount_codes"."percent_off" is null and "discount_codes"."amount_off" > 0)),
	CONSTRAINT "discount_codes_redemptions_ck" CHECK ("discount_codes"."redemptions" >= 0 and ("discount_codes"."max_redemptions" is null or ("discount_codes"."max_redemptions" > 0 and "discount_codes"."redemptions" <= "discount_codes"."max_redemptions")))
);
--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "include_ebook_with_print" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "discount_code_id" integer;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "original_amount" integer;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "provider_payment_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "discount_codes_code_uq" ON "discount_codes" USING btree (lower("code"));--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_discount_code_id_discount_codes_id_fk" FOREIGN KEY ("discount_code_id") REFERENCES "public"."discount_codes"("id") ON DELETE restrict ON UPDATE no action;