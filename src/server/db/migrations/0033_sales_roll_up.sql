CREATE TABLE "row_counts" (
	"name" text PRIMARY KEY NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_daily" (
	"day" date NOT NULL,
	"book_id" integer NOT NULL,
	"format" text NOT NULL,
	"sales" integer DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "sales_daily_day_book_id_format_pk" PRIMARY KEY("day","book_id","format")
);
--> statement-breakpoint
CREATE TABLE "subscribed_readers" (
	"user_id" integer PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "newsletter_user_idx" ON "newsletter_subscribers" USING btree ("user_id");
--> statement-breakpoint
-- Decision 0104. A purchase counts as a sale while it is paid for (completed or shipped) and is the row that
-- paid (paid or gift), exactly the predicate of purchases_sales_idx; what it brought in is its price less
-- what was refunded of it. Every change to a purchase takes its old contribution off and puts its new one on.
CREATE FUNCTION "sales_daily_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status IN ('completed', 'shipped') AND OLD.kind IN ('paid', 'gift') THEN
    INSERT INTO sales_daily AS d (day, book_id, format, sales, revenue)
      VALUES ((OLD.purchase_date AT TIME ZONE 'UTC')::date, OLD.book_id, OLD.format, -1, -(OLD.price - OLD.refunded_amount))
      ON CONFLICT (day, book_id, format) DO UPDATE SET sales = d.sales + excluded.sales, revenue = d.revenue + excluded.revenue;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.status IN ('completed', 'shipped') AND NEW.kind IN ('paid', 'gift') THEN
    INSERT INTO sales_daily AS d (day, book_id, format, sales, revenue)
      VALUES ((NEW.purchase_date AT TIME ZONE 'UTC')::date, NEW.book_id, NEW.format, 1, NEW.price - NEW.refunded_amount)
      ON CONFLICT (day, book_id, format) DO UPDATE SET sales = d.sales + excluded.sales, revenue = d.revenue + excluded.revenue;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Only the columns a sale is made of: a download counted or a parcel tracked does not touch the roll-up.
CREATE TRIGGER "purchases_sales_daily" AFTER INSERT OR DELETE OR UPDATE OF status, kind, price, refunded_amount, purchase_date, book_id, format
  ON "purchases" FOR EACH ROW EXECUTE FUNCTION "sales_daily_apply"();
--> statement-breakpoint
-- Statement triggers with the statement's rows as a table: one update of the counter per statement, however
-- many rows it wrote.
CREATE FUNCTION "row_counts_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE row_counts SET n = n + (SELECT count(*) FROM added) WHERE name = TG_TABLE_NAME;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "row_counts_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE row_counts SET n = n - (SELECT count(*) FROM removed) WHERE name = TG_TABLE_NAME;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "row_counts_emptied"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE row_counts SET n = 0 WHERE name = TG_TABLE_NAME;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "user_activities_counted_in" AFTER INSERT ON "user_activities" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_added"();
--> statement-breakpoint
CREATE TRIGGER "user_activities_counted_out" AFTER DELETE ON "user_activities" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_removed"();
--> statement-breakpoint
CREATE TRIGGER "user_activities_emptied" AFTER TRUNCATE ON "user_activities"
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_emptied"();
--> statement-breakpoint
CREATE TRIGGER "download_transfers_counted_in" AFTER INSERT ON "download_transfers" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_added"();
--> statement-breakpoint
CREATE TRIGGER "download_transfers_counted_out" AFTER DELETE ON "download_transfers" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_removed"();
--> statement-breakpoint
CREATE TRIGGER "download_transfers_emptied" AFTER TRUNCATE ON "download_transfers"
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_emptied"();
--> statement-breakpoint
CREATE TRIGGER "subscribed_readers_counted_in" AFTER INSERT ON "subscribed_readers" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_added"();
--> statement-breakpoint
CREATE TRIGGER "subscribed_readers_counted_out" AFTER DELETE ON "subscribed_readers" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_removed"();
--> statement-breakpoint
CREATE TRIGGER "subscribed_readers_emptied" AFTER TRUNCATE ON "subscribed_readers"
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_emptied"();
--> statement-breakpoint
-- A reader is a user who is neither an admin nor the shared demo reader (decision 0022; the demo reader's
-- name is the one of src/server/platform/demo-reader.ts).
CREATE FUNCTION "is_counted_reader"(role text, username text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT role = 'user' AND lower(username) <> 'demo-reader'
$$;
--> statement-breakpoint
-- Puts the given users in or out of subscribed_readers as they are now: a reader with an active subscription
-- linked to the account or at its address (what the Subscribers page and the dashboard call subscribed).
CREATE FUNCTION "subscribed_readers_refresh"(ids integer[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM subscribed_readers r WHERE r.user_id = ANY (ids) AND NOT EXISTS (
    SELECT 1 FROM users u WHERE u.id = r.user_id AND is_counted_reader(u.role, u.username) AND (
      EXISTS (SELECT 1 FROM newsletter_subscribers s WHERE s.user_id = u.id AND s.unsubscribed_at IS NULL)
      OR EXISTS (SELECT 1 FROM newsletter_subscribers s WHERE lower(s.email) = lower(u.email) AND s.unsubscribed_at IS NULL)));
  INSERT INTO subscribed_readers (user_id)
    SELECT u.id FROM users u WHERE u.id = ANY (ids) AND is_counted_reader(u.role, u.username) AND (
      EXISTS (SELECT 1 FROM newsletter_subscribers s WHERE s.user_id = u.id AND s.unsubscribed_at IS NULL)
      OR EXISTS (SELECT 1 FROM newsletter_subscribers s WHERE lower(s.email) = lower(u.email) AND s.unsubscribed_at IS NULL))
    ON CONFLICT DO NOTHING;
$$;
--> statement-breakpoint
CREATE FUNCTION "users_counted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change integer := 0;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND is_counted_reader(OLD.role, OLD.username) THEN change := change - 1; END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND is_counted_reader(NEW.role, NEW.username) THEN change := change + 1; END IF;
  IF change <> 0 THEN UPDATE row_counts SET n = n + change WHERE name = 'readers'; END IF;
  PERFORM subscribed_readers_refresh(ARRAY[CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END]);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_counted" AFTER INSERT OR DELETE OR UPDATE OF role, username, email ON "users"
  FOR EACH ROW EXECUTE FUNCTION "users_counted"();
--> statement-breakpoint
CREATE FUNCTION "newsletter_subscribers_counted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change integer := 0;
  emails text[] := '{}';
  ids integer[] := '{}';
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF OLD.unsubscribed_at IS NULL THEN change := change - 1; END IF;
    emails := emails || lower(OLD.email);
    ids := ids || OLD.user_id;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    IF NEW.unsubscribed_at IS NULL THEN change := change + 1; END IF;
    emails := emails || lower(NEW.email);
    ids := ids || NEW.user_id;
  END IF;
  IF change <> 0 THEN UPDATE row_counts SET n = n + change WHERE name = 'active_subscribers'; END IF;
  PERFORM subscribed_readers_refresh(ids || ARRAY(SELECT u.id FROM users u WHERE lower(u.email) = ANY (emails)));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Only what decides who is subscribed: a confirmation or a name changed touches nothing here.
CREATE TRIGGER "newsletter_subscribers_counted" AFTER INSERT OR DELETE OR UPDATE OF email, user_id, unsubscribed_at ON "newsletter_subscribers"
  FOR EACH ROW EXECUTE FUNCTION "newsletter_subscribers_counted"();
--> statement-breakpoint
-- The triggers exist (and hold their tables against writes until this migration commits) before the
-- totals are taken, so no write falls between the two.
INSERT INTO "sales_daily" (day, book_id, format, sales, revenue)
  SELECT (purchase_date AT TIME ZONE 'UTC')::date, book_id, format, count(*), sum(price - refunded_amount)
  FROM purchases WHERE status IN ('completed', 'shipped') AND kind IN ('paid', 'gift')
  GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "row_counts" (name, n) VALUES
  ('user_activities', (SELECT count(*) FROM user_activities)),
  ('download_transfers', (SELECT count(*) FROM download_transfers)),
  ('readers', (SELECT count(*) FROM users WHERE is_counted_reader(role, username))),
  ('active_subscribers', (SELECT count(*) FROM newsletter_subscribers WHERE unsubscribed_at IS NULL)),
  ('subscribed_readers', 0);
--> statement-breakpoint
-- Its statement trigger counts these in, from the 0 above.
INSERT INTO "subscribed_readers" (user_id)
  SELECT u.id FROM users u WHERE is_counted_reader(u.role, u.username) AND u.id IN (
    SELECT s.user_id FROM newsletter_subscribers s WHERE s.unsubscribed_at IS NULL AND s.user_id IS NOT NULL
    UNION SELECT u2.id FROM users u2 JOIN newsletter_subscribers s ON lower(s.email) = lower(u2.email) WHERE s.unsubscribed_at IS NULL);
