CREATE TABLE "review_applications" (
	"id" serial PRIMARY KEY NOT NULL,
	"campaign_id" integer NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"reviews_where" text NOT NULL,
	"answer" text NOT NULL,
	"profile_links" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"user_id" integer,
	"purchase_id" integer,
	"decided_at" timestamp with time zone,
	"last_reminded_at" timestamp with time zone,
	"reminders_sent" integer DEFAULT 0 NOT NULL,
	"review_posted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_applications_status_ck" CHECK ("review_applications"."status" in ('pending', 'approved', 'declined', 'withdrawn'))
);
--> statement-breakpoint
CREATE TABLE "review_campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"book_id" integer NOT NULL,
	"format" text NOT NULL,
	"slug" text NOT NULL,
	"opens_at" timestamp with time zone NOT NULL,
	"closes_at" timestamp with time zone NOT NULL,
	"copies" integer NOT NULL,
	"question" text NOT NULL,
	"auto_approve" boolean DEFAULT false NOT NULL,
	"reminder_days" integer NOT NULL,
	"withdrawn_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_campaigns_format_ck" CHECK ("review_campaigns"."format" in ('ebook', 'pdf')),
	CONSTRAINT "review_campaigns_dates_ck" CHECK ("review_campaigns"."closes_at" > "review_campaigns"."opens_at"),
	CONSTRAINT "review_campaigns_numbers_ck" CHECK ("review_campaigns"."copies" >= 1 and "review_campaigns"."reminder_days" >= 1)
);
--> statement-breakpoint
CREATE TABLE "review_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_id" integer NOT NULL,
	"url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "purchases" DROP CONSTRAINT "purchases_kind_ck";--> statement-breakpoint
ALTER TABLE "purchases" DROP CONSTRAINT "purchases_price_ck";--> statement-breakpoint
ALTER TABLE "review_applications" ADD CONSTRAINT "review_applications_campaign_id_review_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."review_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_applications" ADD CONSTRAINT "review_applications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_applications" ADD CONSTRAINT "review_applications_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_campaigns" ADD CONSTRAINT "review_campaigns_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_links" ADD CONSTRAINT "review_links_application_id_review_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."review_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "review_applications_email_uq" ON "review_applications" USING btree ("campaign_id",lower("email"));--> statement-breakpoint
CREATE INDEX "review_applications_email_idx" ON "review_applications" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "review_applications_user_idx" ON "review_applications" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "review_applications_waiting_idx" ON "review_applications" USING btree ("status") WHERE "review_applications"."status" = 'approved' and "review_applications"."review_posted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "review_campaigns_slug_uq" ON "review_campaigns" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "review_links_url_uq" ON "review_links" USING btree ("application_id","url");--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_kind_ck" CHECK ("purchases"."kind" in ('paid', 'included', 'gift', 'gift_claim', 'free', 'review_copy'));--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_price_ck" CHECK (("purchases"."kind" in ('included', 'gift_claim') and "purchases"."price" = 0 and "purchases"."paid_by_purchase_id" is not null) or ("purchases"."kind" in ('paid', 'gift') and "purchases"."price" >= 0 and "purchases"."paid_by_purchase_id" is null) or ("purchases"."kind" in ('free', 'review_copy') and "purchases"."price" = 0 and "purchases"."paid_by_purchase_id" is null));