-- Decision 0104. The messages list counted every unread message on each page it served (the admin menu's
-- badge asks for a page of one): 4.5 ms of a 12 ms page at 16,666 unread messages, growing with them. Statement
-- triggers keep that figure in row_counts like the other running totals (0036), one update per statement.
--
-- Held from here until the migration commits, so no message written or marked meanwhile falls between the
-- triggers and the total taken below.
LOCK TABLE "contact_messages" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE FUNCTION "unread_messages_add"(change bigint) RETURNS void LANGUAGE sql AS $$
  UPDATE row_counts SET n = n + change WHERE name = 'unread_messages' AND change <> 0;
$$;
--> statement-breakpoint
CREATE FUNCTION "contact_messages_counted_in"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM unread_messages_add((SELECT count(*) FROM added WHERE read_at IS NULL));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "contact_messages_counted_out"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM unread_messages_add(-(SELECT count(*) FROM removed WHERE read_at IS NULL));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A trigger with transition tables cannot name columns, so every update of a message comes here; only the
-- rows whose read_at went from empty to set or back move the total (a second "mark read" keeps its time and
-- moves nothing). The unread after less the unread before is that change, without joining the two.
CREATE FUNCTION "contact_messages_counted_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM unread_messages_add((SELECT count(*) FROM after_rows WHERE read_at IS NULL) - (SELECT count(*) FROM before_rows WHERE read_at IS NULL));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "contact_messages_emptied"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE row_counts SET n = 0 WHERE name = 'unread_messages' AND n <> 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "contact_messages_counted_in" AFTER INSERT ON "contact_messages" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "contact_messages_counted_in"();
--> statement-breakpoint
CREATE TRIGGER "contact_messages_counted_out" AFTER DELETE ON "contact_messages" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "contact_messages_counted_out"();
--> statement-breakpoint
CREATE TRIGGER "contact_messages_counted_changed" AFTER UPDATE ON "contact_messages" REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "contact_messages_counted_changed"();
--> statement-breakpoint
CREATE TRIGGER "contact_messages_emptied" AFTER TRUNCATE ON "contact_messages"
  FOR EACH STATEMENT EXECUTE FUNCTION "contact_messages_emptied"();
--> statement-breakpoint
INSERT INTO "row_counts" (name, n) VALUES ('unread_messages', (SELECT count(*) FROM contact_messages WHERE read_at IS NULL));
