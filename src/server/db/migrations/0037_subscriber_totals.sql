-- Decision 0104. The subscribers list counted the whole of newsletter_subscribers three ways on every page
-- (every subscriber, the active ones, the unconfirmed ones): 66-112 ms a page at 300,000 subscribers, growing
-- with the list. The statement triggers of migration 0036 already read each statement's rows for the active
-- subscribers; they now keep all three totals, still in one update of row_counts per statement.
--
-- Replacing a function does not lock the table it serves, so this lock holds writers of subscriptions off
-- (after waiting for those under way) until the migration commits: none falls between the old functions
-- and the totals taken below.
LOCK TABLE "newsletter_subscribers" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
-- One update of row_counts for all the totals a statement changes, however many rows it wrote (0036).
CREATE FUNCTION "subscriber_totals_add"(everyone_change bigint, active_change bigint, unconfirmed_change bigint) RETURNS void LANGUAGE sql AS $$
  UPDATE row_counts c SET n = c.n + d.change
    FROM (VALUES ('active_subscribers', active_change), ('subscribers', everyone_change), ('unconfirmed_subscribers', unconfirmed_change)) AS d(name, change)
    WHERE c.name = d.name AND d.change <> 0;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "newsletter_subscribers_counted_in"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  everyone bigint;
  active bigint;
  unconfirmed bigint;
BEGIN
  SELECT count(*), count(*) FILTER (WHERE unsubscribed_at IS NULL), count(*) FILTER (WHERE state = 'unconfirmed')
    INTO everyone, active, unconfirmed FROM added;
  IF everyone <> 0 THEN PERFORM subscriber_totals_add(everyone, active, unconfirmed); END IF;
  PERFORM subscribed_readers_refresh(subscription_readers(ARRAY(SELECT user_id FROM added), ARRAY(SELECT lower(email) FROM added)));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "newsletter_subscribers_counted_out"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  everyone bigint;
  active bigint;
  unconfirmed bigint;
BEGIN
  SELECT count(*), count(*) FILTER (WHERE unsubscribed_at IS NULL), count(*) FILTER (WHERE state = 'unconfirmed')
    INTO everyone, active, unconfirmed FROM removed;
  IF everyone <> 0 THEN PERFORM subscriber_totals_add(-everyone, -active, -unconfirmed); END IF;
  PERFORM subscribed_readers_refresh(subscription_readers(ARRAY(SELECT user_id FROM removed), ARRAY(SELECT lower(email) FROM removed)));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A change of state (a confirmation, an unsubscription) moves the unconfirmed total; only a change of what
-- decides who is subscribed (address, link, unsubscription) puts readers in or out of subscribed_readers,
-- as before.
CREATE OR REPLACE FUNCTION "newsletter_subscribers_counted_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  active bigint;
  unconfirmed bigint;
  user_ids integer[];
  emails text[];
BEGIN
  SELECT coalesce(sum((a.unsubscribed_at IS NULL)::int - (b.unsubscribed_at IS NULL)::int), 0),
         coalesce(sum((a.state = 'unconfirmed')::int - (b.state = 'unconfirmed')::int), 0),
         coalesce(array_agg(a.user_id) FILTER (WHERE reader_side) || array_agg(b.user_id) FILTER (WHERE reader_side), '{}'),
         coalesce(array_agg(lower(a.email)) FILTER (WHERE reader_side) || array_agg(lower(b.email)) FILTER (WHERE reader_side), '{}')
    INTO active, unconfirmed, user_ids, emails
    FROM after_rows a JOIN before_rows b ON b.id = a.id,
      LATERAL (SELECT (a.email, a.user_id, a.unsubscribed_at) IS DISTINCT FROM (b.email, b.user_id, b.unsubscribed_at) AS reader_side) r
    WHERE (a.email, a.user_id, a.unsubscribed_at, a.state) IS DISTINCT FROM (b.email, b.user_id, b.unsubscribed_at, b.state);
  IF active <> 0 OR unconfirmed <> 0 THEN PERFORM subscriber_totals_add(0, active, unconfirmed); END IF;
  IF cardinality(emails) > 0 THEN PERFORM subscribed_readers_refresh(subscription_readers(user_ids, emails)); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO "row_counts" (name, n) VALUES
  ('subscribers', (SELECT count(*) FROM newsletter_subscribers)),
  ('unconfirmed_subscribers', (SELECT count(*) FROM newsletter_subscribers WHERE state = 'unconfirmed'));
