CREATE TABLE "kindle_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kindle_sends" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"purchase_id" integer NOT NULL,
	"address" text NOT NULL,
	"mail_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "personal_copies" (
	"id" serial PRIMARY KEY NOT NULL,
	"purchase_id" integer NOT NULL,
	"format" text NOT NULL,
	"fingerprint" text NOT NULL,
	"master_key" text,
	"file_key" text,
	"size" integer,
	"sha256" text,
	"built_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
ALTER TABLE "kindle_devices" ADD CONSTRAINT "kindle_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kindle_sends" ADD CONSTRAINT "kindle_sends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kindle_sends" ADD CONSTRAINT "kindle_sends_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kindle_sends" ADD CONSTRAINT "kindle_sends_mail_id_mail_outbox_id_fk" FOREIGN KEY ("mail_id") REFERENCES "public"."mail_outbox"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_copies" ADD CONSTRAINT "personal_copies_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "kindle_devices_user_address_uq" ON "kindle_devices" USING btree ("user_id","address");--> statement-breakpoint
CREATE INDEX "kindle_sends_user_idx" ON "kindle_sends" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "kindle_sends_purchase_idx" ON "kindle_sends" USING btree ("purchase_id");--> statement-breakpoint
CREATE UNIQUE INDEX "personal_copies_purchase_format_uq" ON "personal_copies" USING btree ("purchase_id","format");--> statement-breakpoint
CREATE UNIQUE INDEX "personal_copies_fingerprint_uq" ON "personal_copies" USING btree ("fingerprint");