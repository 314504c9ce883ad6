CREATE TABLE "download_transfers" (
	"link_id" text PRIMARY KEY NOT NULL,
	"purchase_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"format" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"etag" text,
	"size" bigint,
	"started_at" timestamp with time zone,
	"last_request_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"requests" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "download_transfers" ADD CONSTRAINT "download_transfers_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_transfers" ADD CONSTRAINT "download_transfers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "download_transfers_purchase_idx" ON "download_transfers" USING btree ("purchase_id");--> statement-breakpoint
CREATE INDEX "download_transfers_issued_idx" ON "download_transfers" USING btree ("issued_at");