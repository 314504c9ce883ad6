CREATE TABLE "edition_notices" (
	"book_id" integer NOT NULL,
	"format" text NOT NULL,
	"version" text NOT NULL,
	"user_id" integer NOT NULL,
	"notified_at" timestamp with time zone DEFAULT now() NOT NULL,
	"downloaded_at" timestamp with time zone,
	CONSTRAINT "edition_notices_book_id_format_version_user_id_pk" PRIMARY KEY("book_id","format","version","user_id")
);
--> statement-breakpoint
ALTER TABLE "edition_notices" ADD CONSTRAINT "edition_notices_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edition_notices" ADD CONSTRAINT "edition_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "edition_notices_owner_idx" ON "edition_notices" USING btree ("user_id","book_id","format");