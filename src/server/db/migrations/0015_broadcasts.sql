CREATE TABLE "broadcast_recipients" (
	"broadcast_id" integer NOT NULL,
	"subscriber_id" integer NOT NULL,
	"email" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"mail_id" integer,
	"bounced" boolean DEFAULT false NOT NULL,
	CONSTRAINT "broadcast_recipients_broadcast_id_subscriber_id_pk" PRIMARY KEY("broadcast_id","subscriber_id"),
	CONSTRAINT "broadcast_recipients_status_ck" CHECK ("broadcast_recipients"."status" in ('queued', 'handed', 'suppressed'))
);
--> statement-breakpoint
CREATE TABLE "broadcasts" (
	"id" serial PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"preview_text" text DEFAULT '' NOT NULL,
	"body" text NOT NULL,
	"audience" jsonb NOT NULL,
	"post_id" integer,
	"status" text DEFAULT 'draft' NOT NULL,
	"send_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"listed_through" integer DEFAULT 0 NOT NULL,
	"listed" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "broadcasts_status_ck" CHECK ("broadcasts"."status" in ('draft', 'scheduled', 'sending', 'sent')),
	CONSTRAINT "broadcasts_send_at_ck" CHECK ("broadcasts"."status" = 'draft' or "broadcasts"."send_at" is not null)
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_status_ck";--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_broadcast_id_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."broadcasts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_subscriber_id_newsletter_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."newsletter_subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "broadcast_recipients_status_idx" ON "broadcast_recipients" USING btree ("broadcast_id","status");--> statement-breakpoint
CREATE INDEX "broadcast_recipients_mail_idx" ON "broadcast_recipients" USING btree ("mail_id");--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_status_ck" CHECK ("mail_outbox"."status" in ('pending', 'sent', 'failed', 'kept', 'suppressed'));