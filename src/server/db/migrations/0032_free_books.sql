CREATE TABLE "free_book_claims" (
	"id" serial PRIMARY KEY NOT NULL,
	"free_book_id" integer NOT NULL,
	"email" text NOT NULL,
	"source" text,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"user_id" integer,
	"purchase_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "free_books" (
	"id" serial PRIMARY KEY NOT NULL,
	"book_id" integer NOT NULL,
	"format" text NOT NULL,
	"slug" text NOT NULL,
	"pitch" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "free_books_slug_ck" CHECK ("free_books"."slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
	CONSTRAINT "free_books_format_ck" CHECK ("free_books"."format" in ('ebook', 'audiobook', 'pdf'))
);
--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" DROP CONSTRAINT "newsletter_source_ck";--> statement-breakpoint
ALTER TABLE "purchases" DROP CONSTRAINT "purchases_kind_ck";--> statement-breakpoint
ALTER TABLE "purchases" DROP CONSTRAINT "purchases_price_ck";--> statement-breakpoint
ALTER TABLE "free_book_claims" ADD CONSTRAINT "free_book_claims_free_book_id_free_books_id_fk" FOREIGN KEY ("free_book_id") REFERENCES "public"."free_books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "free_book_claims" ADD CONSTRAINT "free_book_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "free_book_claims" ADD CONSTRAINT "free_book_claims_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "free_books" ADD CONSTRAINT "free_books_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "free_book_claims_token_uq" ON "free_book_claims" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "free_book_claims_book_idx" ON "free_book_claims" USING btree ("free_book_id","source");--> statement-breakpoint
CREATE INDEX "free_book_claims_user_idx" ON "free_book_claims" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "free_books_slug_uq" ON "free_books" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_free_uq" ON "purchases" USING btree ("user_id","book_id","format") WHERE "purchases"."kind" = 'free';--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD CONSTRAINT "newsletter_source_ck" CHECK ("newsletter_subscribers"."source" in ('home', 'footer', 'checkout', 'import', 'unknown', 'free-book'));--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_kind_ck" CHECK ("purchases"."kind" in ('paid', 'included', 'gift', 'gift_claim', 'free'));--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_price_ck" CHECK (("purchases"."kind" in ('included', 'gift_claim') and "purchases"."price" = 0 and "purchases"."paid_by_purchase_id" is not null) or ("purchases"."kind" in ('paid', 'gift') and "purchases"."price" >= 0 and "purchases"."paid_by_purchase_id" is null) or ("purchases"."kind" = 'free' and "purchases"."price" = 0 and "purchases"."paid_by_purchase_id" is null));