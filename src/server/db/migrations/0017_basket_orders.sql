CREATE TABLE "basket_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"book_id" integer NOT NULL,
	"format" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "basket_items_quantity_ck" CHECK ("basket_items"."quantity" between 1 and 10),
	CONSTRAINT "basket_items_format_ck" CHECK ("basket_items"."format" in ('hardcover', 'paperback', 'ebook', 'audiobook'))
);
--> statement-breakpoint
CREATE TABLE "order_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"position" integer NOT NULL,
	"kind" text DEFAULT 'item' NOT NULL,
	"book_id" integer,
	"format" text,
	"description" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price" integer NOT NULL,
	"amount" integer NOT NULL,
	"tax" integer DEFAULT 0 NOT NULL,
	"purchase_id" integer,
	CONSTRAINT "order_lines_kind_ck" CHECK ("order_lines"."kind" in ('item')),
	CONSTRAINT "order_lines_item_ck" CHECK ("order_lines"."kind" <> 'item' or ("order_lines"."book_id" is not null and "order_lines"."format" in ('hardcover', 'paperback', 'ebook', 'audiobook'))),
	CONSTRAINT "order_lines_amounts_ck" CHECK ("order_lines"."quantity" between 1 and 10 and "order_lines"."unit_price" > 0 and "order_lines"."amount" > 0 and "order_lines"."tax" >= 0)
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"checkout_session_id" text NOT NULL,
	"user_id" integer NOT NULL,
	"reference" text NOT NULL,
	"currency" text DEFAULT 'GBP' NOT NULL,
	"subtotal" integer NOT NULL,
	"total" integer NOT NULL,
	"shipping_country" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "orders_amounts_ck" CHECK ("orders"."total" > 0 and "orders"."subtotal" >= "orders"."total")
);
--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "quantity" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "basket_items" ADD CONSTRAINT "basket_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "basket_items" ADD CONSTRAINT "basket_items_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_checkout_session_id_checkout_sessions_id_fk" FOREIGN KEY ("checkout_session_id") REFERENCES "public"."checkout_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "basket_items_user_format_uq" ON "basket_items" USING btree ("user_id","book_id","format");--> statement-breakpoint
CREATE UNIQUE INDEX "order_lines_position_uq" ON "order_lines" USING btree ("order_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "order_lines_purchase_uq" ON "order_lines" USING btree ("purchase_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_checkout_session_uq" ON "orders" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_reference_uq" ON "orders" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "orders_user_idx" ON "orders" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_quantity_ck" CHECK ("purchases"."quantity" >= 1);