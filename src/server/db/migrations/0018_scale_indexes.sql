-- Trigram indexes for the admin searches (decision 0071); PGlite loads the same extension at start.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "purchases_date_idx";--> statement-breakpoint
DROP INDEX "contact_messages_created_idx";--> statement-breakpoint
CREATE INDEX "blog_posts_admin_order_idx" ON "blog_posts" USING btree ("published_at","id");--> statement-breakpoint
CREATE INDEX "contact_messages_unread_idx" ON "contact_messages" USING btree ("created_at","id") WHERE "contact_messages"."read_at" is null;--> statement-breakpoint
CREATE INDEX "discount_codes_code_idx" ON "discount_codes" USING btree ("code","id");--> statement-breakpoint
CREATE INDEX "newsletter_subscribed_idx" ON "newsletter_subscribers" USING btree ("subscribed_at","id");--> statement-breakpoint
CREATE INDEX "newsletter_email_trgm_idx" ON "newsletter_subscribers" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "newsletter_name_trgm_idx" ON "newsletter_subscribers" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "purchase_customer_info_name_trgm_idx" ON "purchase_customer_info" USING gin ("customer_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "purchases_date_id_idx" ON "purchases" USING btree ("purchase_date","id");--> statement-breakpoint
CREATE INDEX "purchases_order_reference_prefix_idx" ON "purchases" USING btree ("order_reference" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "purchases_sales_idx" ON "purchases" USING btree ("purchase_date","book_id","format","price") WHERE "purchases"."status" in ('completed', 'shipped') and "purchases"."kind" in ('paid', 'gift');--> statement-breakpoint
CREATE INDEX "users_username_trgm_idx" ON "users" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "contact_messages_created_idx" ON "contact_messages" USING btree ("created_at","id");