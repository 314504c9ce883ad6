CREATE TABLE "shipping_zones" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"countries" jsonb NOT NULL,
	"first_item" integer NOT NULL,
	"additional_item" integer NOT NULL,
	"free_over" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipping_zones_prices_ck" CHECK ("shipping_zones"."first_item" >= 0 and "shipping_zones"."additional_item" >= 0 and ("shipping_zones"."free_over" is null or "shipping_zones"."free_over" > 0))
);
--> statement-breakpoint
CREATE TABLE "tax_rates" (
	"id" serial PRIMARY KEY NOT NULL,
	"country" text NOT NULL,
	"format" text NOT NULL,
	"rate" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_rates_rate_ck" CHECK ("tax_rates"."rate" between 0 and 10000),
	CONSTRAINT "tax_rates_format_ck" CHECK ("tax_rates"."format" in ('hardcover', 'paperback', 'ebook', 'audiobook')),
	CONSTRAINT "tax_rates_country_ck" CHECK ("tax_rates"."country" ~ '^[A-Z]{2}$')
);
--> statement-breakpoint
ALTER TABLE "order_lines" DROP CONSTRAINT "order_lines_kind_ck";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_amounts_ck";--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "tax_rate" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "prices_include_tax" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_country" text;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_rates_country_format_uq" ON "tax_rates" USING btree ("country","format");--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_shipping_ck" CHECK ("order_lines"."kind" <> 'shipping' or ("order_lines"."book_id" is null and "order_lines"."format" is null));--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_tax_rate_ck" CHECK ("order_lines"."tax_rate" is null or "order_lines"."tax_rate" between 0 and 10000);--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_kind_ck" CHECK ("order_lines"."kind" in ('item', 'shipping'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_extras_ck" CHECK ("orders"."shipping" >= 0 and "orders"."tax" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_amounts_ck" CHECK ("orders"."total" > 0 and "orders"."subtotal" + "orders"."shipping" + "orders"."tax" >= "orders"."total");