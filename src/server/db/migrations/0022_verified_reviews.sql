CREATE TABLE "reader_reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"book_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"rating" integer NOT NULL,
	"text" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"answer" text,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reader_reviews_rating_ck" CHECK ("reader_reviews"."rating" between 1 and 5),
	CONSTRAINT "reader_reviews_status_ck" CHECK ("reader_reviews"."status" in ('pending', 'approved', 'hidden'))
);
--> statement-breakpoint
CREATE TABLE "review_prompt_dismissals" (
	"user_id" integer NOT NULL,
	"book_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_prompt_dismissals_user_id_book_id_pk" PRIMARY KEY("user_id","book_id")
);
--> statement-breakpoint
ALTER TABLE "reader_reviews" ADD CONSTRAINT "reader_reviews_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reader_reviews" ADD CONSTRAINT "reader_reviews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_prompt_dismissals" ADD CONSTRAINT "review_prompt_dismissals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_prompt_dismissals" ADD CONSTRAINT "review_prompt_dismissals_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reader_reviews_book_user_uq" ON "reader_reviews" USING btree ("book_id","user_id");--> statement-breakpoint
CREATE INDEX "reader_reviews_book_status_idx" ON "reader_reviews" USING btree ("book_id","status");--> statement-breakpoint
CREATE INDEX "reader_reviews_status_idx" ON "reader_reviews" USING btree ("status","id");