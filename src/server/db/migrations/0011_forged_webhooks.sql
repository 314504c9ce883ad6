CREATE TABLE "forged_webhooks" (
	"hour" timestamp with time zone PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Bad-signature webhooks recorded one row each before are folded into the hourly counts, so the failures
-- list keeps only real ones.
INSERT INTO "forged_webhooks" ("hour", "count", "last_at")
SELECT date_trunc('hour', "created_at"), count(*)::int, max("created_at")
  FROM "webhook_failures" WHERE "reason" = 'invalid-signature'
 GROUP BY 1;--> statement-breakpoint
DELETE FROM "webhook_failures" WHERE "reason" = 'invalid-signature';
