CREATE TABLE "bundle_items" (
	"bundle_id" integer NOT NULL,
	"book_id" integer NOT NULL,
	"format" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "bundle_items_bundle_id_book_id_format_pk" PRIMARY KEY("bundle_id","book_id","format"),
	CONSTRAINT "bundle_items_format_ck" CHECK ("bundle_items"."format" in ('hardcover', 'paperback', 'ebook', 'audiobook'))
);
--> statement-breakpoint
CREATE TABLE "bundles" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"price" integer NOT NULL,
	"currency" text DEFAULT 'GBP' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bundles_price_ck" CHECK ("bundles"."price" >= 30)
);
--> statement-breakpoint
ALTER TABLE "bundle_items" ADD CONSTRAINT "bundle_items_bundle_id_bundles_id_fk" FOREIGN KEY ("bundle_id") REFERENCES "public"."bundles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bundle_items" ADD CONSTRAINT "bundle_items_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bundle_items_book_idx" ON "bundle_items" USING btree ("book_id");