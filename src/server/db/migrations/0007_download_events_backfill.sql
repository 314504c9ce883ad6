-- Downloads spent before download links were recorded: one closed record per counted download, so the
-- dashboard's total keeps them. Their link ids were never handed out, so no link can use these rows.
INSERT INTO "download_transfers" ("link_id", "purchase_id", "user_id", "format", "issued_at", "completed_at")
SELECT 'legacy-' || p."id" || '-' || n, p."id", p."user_id", p."format",
       coalesce(p."last_downloaded", p."purchase_date"), coalesce(p."last_downloaded", p."purchase_date")
  FROM "purchases" p
  CROSS JOIN LATERAL generate_series(1, p."download_count") AS n
 WHERE p."download_count" > 0
ON CONFLICT ("link_id") DO NOTHING;
