CREATE TABLE "asset_chapters" (
	"asset_id" integer PRIMARY KEY NOT NULL,
	"file_tag" text NOT NULL,
	"chapters" jsonb NOT NULL,
	"duration" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reading_positions" (
	"user_id" integer NOT NULL,
	"book_id" integer NOT NULL,
	"format" text NOT NULL,
	"locator" text NOT NULL,
	"progress" double precision NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "reading_positions_user_id_book_id_format_pk" PRIMARY KEY("user_id","book_id","format"),
	CONSTRAINT "reading_positions_format_ck" CHECK ("reading_positions"."format" in ('ebook', 'audiobook', 'pdf')),
	CONSTRAINT "reading_positions_progress_ck" CHECK ("reading_positions"."progress" >= 0 and "reading_positions"."progress" <= 1)
);
--> statement-breakpoint
ALTER TABLE "asset_chapters" ADD CONSTRAINT "asset_chapters_asset_id_digital_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."digital_assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_positions" ADD CONSTRAINT "reading_positions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_positions" ADD CONSTRAINT "reading_positions_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;