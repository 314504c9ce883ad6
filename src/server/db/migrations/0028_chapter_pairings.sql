CREATE TABLE "chapter_pairings" (
	"book_id" integer PRIMARY KEY NOT NULL,
	"pairs" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chapter_pairings" ADD CONSTRAINT "chapter_pairings_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;