CREATE TABLE "audiobook_feed_addresses" (
	"feed_id" integer NOT NULL,
	"day" text NOT NULL,
	"address_hash" text NOT NULL,
	CONSTRAINT "audiobook_feed_addresses_feed_id_day_address_hash_pk" PRIMARY KEY("feed_id","day","address_hash")
);
--> statement-breakpoint
CREATE TABLE "audiobook_feeds" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"book_id" integer NOT NULL,
	"nonce" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone,
	"flagged_at" timestamp with time zone,
	"flagged_addresses" integer
);
--> statement-breakpoint
CREATE TABLE "opds_catalogues" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"nonce" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audiobook_feed_addresses" ADD CONSTRAINT "audiobook_feed_addresses_feed_id_audiobook_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."audiobook_feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audiobook_feeds" ADD CONSTRAINT "audiobook_feeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audiobook_feeds" ADD CONSTRAINT "audiobook_feeds_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opds_catalogues" ADD CONSTRAINT "opds_catalogues_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "audiobook_feeds_live_uq" ON "audiobook_feeds" USING btree ("user_id","book_id") WHERE "audiobook_feeds"."retired_at" is null;--> statement-breakpoint
CREATE INDEX "audiobook_feeds_flagged_idx" ON "audiobook_feeds" USING btree ("flagged_at");