-- Mails already delivered give up their bodies: they carry live secrets (gift claim links, reset links,
-- signed unsubscribe links) that must not stay in the table and in every backup (decision 0060).
UPDATE "mail_outbox" SET "text_body" = '', "html_body" = NULL, "headers" = NULL WHERE "status" = 'sent';
