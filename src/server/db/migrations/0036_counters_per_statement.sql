-- The readers' and active subscribers' running totals (migration 0033) were kept by row triggers, each
-- row adding one to the same row_counts row. A statement writing many users or subscribers at once (a
-- restore, a move to PostgreSQL, an import) then updated that row once per written row inside one
-- transaction, and each update must step over every earlier version of the row the transaction made:
-- 200,000 users took over half an hour. Statement triggers over the transition tables do each total in
-- one update whatever the number of rows, like the other running totals of 0033.
DROP TRIGGER "users_counted" ON "users";
--> statement-breakpoint
DROP FUNCTION "users_counted"();
--> statement-breakpoint
DROP TRIGGER "newsletter_subscribers_counted" ON "newsletter_subscribers";
--> statement-breakpoint
DROP FUNCTION "newsletter_subscribers_counted"();
--> statement-breakpoint
CREATE FUNCTION "users_counted_in"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change integer := (SELECT count(*) FROM added WHERE is_counted_reader(role, username));
BEGIN
  IF change <> 0 THEN UPDATE row_counts SET n = n + change WHERE name = 'readers'; END IF;
  PERFORM subscribed_readers_refresh(ARRAY(SELECT id FROM added));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "users_counted_out"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change integer := (SELECT count(*) FROM removed WHERE is_counted_reader(role, username));
BEGIN
  IF change <> 0 THEN UPDATE row_counts SET n = n - change WHERE name = 'readers'; END IF;
  PERFORM subscribed_readers_refresh(ARRAY(SELECT id FROM removed));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A trigger with transition tables cannot name columns, so every update of users comes here; only rows
-- whose role, name or address changed count (a sign-in or a new password touches nothing).
CREATE FUNCTION "users_counted_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change integer;
  ids integer[];
BEGIN
  SELECT coalesce(sum(is_counted_reader(a.role, a.username)::int - is_counted_reader(b.role, b.username)::int), 0),
         coalesce(array_agg(a.id), '{}')
    INTO change, ids
    FROM after_rows a JOIN before_rows b ON b.id = a.id
    WHERE (a.role, a.username, a.email) IS DISTINCT FROM (b.role, b.username, b.email);
  IF change <> 0 THEN UPDATE row_counts SET n = n + change WHERE name = 'readers'; END IF;
  IF cardinality(ids) > 0 THEN PERFORM subscribed_readers_refresh(ids); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_counted_in" AFTER INSERT ON "users" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "users_counted_in"();
--> statement-breakpoint
CREATE TRIGGER "users_counted_out" AFTER DELETE ON "users" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "users_counted_out"();
--> statement-breakpoint
CREATE TRIGGER "users_counted_changed" AFTER UPDATE ON "users" REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "users_counted_changed"();
--> statement-breakpoint
-- The readers a change of subscriptions may put in or out of subscribed_readers: the linked accounts and
-- the accounts at the subscriptions' addresses.
CREATE FUNCTION "subscription_readers"(user_ids integer[], emails text[]) RETURNS integer[] LANGUAGE sql STABLE AS $$
  SELECT array_remove(user_ids, NULL) || ARRAY(SELECT u.id FROM users u WHERE lower(u.email) = ANY (emails))
$$;
--> statement-breakpoint
CREATE FUNCTION "newsletter_subscribers_counted_in"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change integer := (SELECT count(*) FROM added WHERE unsubscribed_at IS NULL);
BEGIN
  IF change <> 0 THEN UPDATE row_counts SET n = n + change WHERE name = 'active_subscribers'; END IF;
  PERFORM subscribed_readers_refresh(subscription_readers(ARRAY(SELECT user_id FROM added), ARRAY(SELECT lower(email) FROM added)));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "newsletter_subscribers_counted_out"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change integer := (SELECT count(*) FROM removed WHERE unsubscribed_at IS NULL);
BEGIN
  IF change <> 0 THEN UPDATE row_counts SET n = n - change WHERE name = 'active_subscribers'; END IF;
  PERFORM subscribed_readers_refresh(subscription_readers(ARRAY(SELECT user_id FROM removed), ARRAY(SELECT lower(email) FROM removed)));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Only what decides who is subscribed counts: a confirmation or a name changed touches nothing here.
CREATE FUNCTION "newsletter_subscribers_counted_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change integer;
  user_ids integer[];
  emails text[];
BEGIN
  SELECT coalesce(sum((a.unsubscribed_at IS NULL)::int - (b.unsubscribed_at IS NULL)::int), 0),
         coalesce(array_agg(a.user_id) || array_agg(b.user_id), '{}'),
         coalesce(array_agg(lower(a.email)) || array_agg(lower(b.email)), '{}')
    INTO change, user_ids, emails
    FROM after_rows a JOIN before_rows b ON b.id = a.id
    WHERE (a.email, a.user_id, a.unsubscribed_at) IS DISTINCT FROM (b.email, b.user_id, b.unsubscribed_at);
  IF change <> 0 THEN UPDATE row_counts SET n = n + change WHERE name = 'active_subscribers'; END IF;
  IF cardinality(emails) > 0 THEN PERFORM subscribed_readers_refresh(subscription_readers(user_ids, emails)); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "newsletter_subscribers_counted_in" AFTER INSERT ON "newsletter_subscribers" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "newsletter_subscribers_counted_in"();
--> statement-breakpoint
CREATE TRIGGER "newsletter_subscribers_counted_out" AFTER DELETE ON "newsletter_subscribers" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "newsletter_subscribers_counted_out"();
--> statement-breakpoint
CREATE TRIGGER "newsletter_subscribers_counted_changed" AFTER UPDATE ON "newsletter_subscribers" REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "newsletter_subscribers_counted_changed"();
