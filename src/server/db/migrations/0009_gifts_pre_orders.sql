CREATE TABLE "gifts" (
	"id" serial PRIMARY KEY NOT NULL,
	"purchase_id" integer NOT NULL,
	"recipient_name" text NOT NULL,
	"recipient_email" text NOT NULL,
	"message" text,
	"send_at" timestamp with time zone,
	"token_hash" text,
	"send_count" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone,
	"last_sent_at" timestamp with time zone,
	"claimed_at" timestamp with time zone,
	"claimed_by" integer,
	"claim_purchase_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gifts_message_ck" CHECK ("gifts"."message" is null or char_length("gifts"."message") <= 500)
);
--> statement-breakpoint
CREATE TABLE "release_mails" (
	"purchase_id" integer PRIMARY KEY NOT NULL,
	"mailed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "release_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "gift" jsonb;--> statement-breakpoint
ALTER TABLE "gifts" ADD CONSTRAINT "gifts_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gifts" ADD CONSTRAINT "gifts_claimed_by_users_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gifts" ADD CONSTRAINT "gifts_claim_purchase_id_purchases_id_fk" FOREIGN KEY ("claim_purchase_id") REFERENCES "public"."purchases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_mails" ADD CONSTRAINT "release_mails_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gifts_purchase_uq" ON "gifts" USING btree ("purchase_id");--> statement-breakpoint
CREATE UNIQUE INDEX "gifts_token_uq" ON "gifts" USING btree ("token_hash");