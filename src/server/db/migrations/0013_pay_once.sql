ALTER TABLE "checkout_sessions" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "payment_url" text;--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_sessions_intent_uq" ON "checkout_sessions" USING btree ("user_id","idempotency_key");--> statement-breakpoint
-- The e-book includes the PDF edition (decision 0066): readers who owned the e-book before get their PDF
-- row too, with its own one download, paid for by the row that paid for their e-book.
INSERT INTO "purchases" ("user_id", "book_id", "format", "price", "currency", "purchase_date", "status", "order_reference", "max_downloads", "kind", "paid_by_purchase_id")
SELECT DISTINCT ON (e."user_id", e."book_id")
       e."user_id", e."book_id", 'pdf', 0, e."currency", e."purchase_date", 'completed', e."order_reference" || '-PDF', 1, 'included',
       coalesce(e."paid_by_purchase_id", e."id")
  FROM "purchases" e
 WHERE e."format" = 'ebook' AND e."status" = 'completed' AND e."kind" IN ('paid', 'included', 'gift_claim')
   AND NOT EXISTS (
         SELECT 1 FROM "purchases" p
          WHERE p."user_id" = e."user_id" AND p."book_id" = e."book_id" AND p."format" = 'pdf'
            AND p."status" = 'completed' AND p."kind" IN ('paid', 'included', 'gift_claim'))
 ORDER BY e."user_id", e."book_id", e."id"
ON CONFLICT ("order_reference") DO NOTHING;
