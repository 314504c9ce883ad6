CREATE TABLE "download_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"purchase_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"book_id" integer NOT NULL,
	"format" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"granted_at" timestamp with time zone,
	"granted_by" integer,
	CONSTRAINT "download_requests_status_ck" CHECK ("download_requests"."status" in ('pending', 'granted'))
);
--> statement-breakpoint
ALTER TABLE "download_transfers" ADD COLUMN "asset_id" integer;--> statement-breakpoint
ALTER TABLE "release_mails" ADD COLUMN "file_ready" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "download_requests" ADD CONSTRAINT "download_requests_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_requests" ADD CONSTRAINT "download_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_requests" ADD CONSTRAINT "download_requests_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "download_requests_pending_uq" ON "download_requests" USING btree ("user_id","book_id","format") WHERE "download_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "download_requests_status_idx" ON "download_requests" USING btree ("status","requested_at");