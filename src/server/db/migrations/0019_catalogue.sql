ALTER TABLE "books" ADD COLUMN "slug" text;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "series" text;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "series_number" integer;--> statement-breakpoint
WITH "base" AS (
  SELECT "id", coalesce(nullif(trim(both '-' from regexp_replace(lower("title"), '[^a-z0-9]+', '-', 'g')), ''), 'book') AS "s"
  FROM "books"
), "ranked" AS (
  SELECT "id", "s", row_number() OVER (PARTITION BY "s" ORDER BY "id") AS "n" FROM "base"
)
UPDATE "books" SET "slug" = CASE WHEN "ranked"."n" = 1 THEN "ranked"."s" ELSE "ranked"."s" || '-' || "books"."id" END
FROM "ranked" WHERE "ranked"."id" = "books"."id";--> statement-breakpoint
ALTER TABLE "books" ALTER COLUMN "slug" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "books_slug_uq" ON "books" USING btree ("slug");--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_slug_ck" CHECK ("books"."slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$');--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_series_number_ck" CHECK ("books"."series_number" is null or ("books"."series" is not null and "books"."series_number" between 1 and 999));
