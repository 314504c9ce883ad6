ALTER TABLE "basket_items" ALTER COLUMN "book_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "basket_items" ALTER COLUMN "format" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "basket_items" ADD COLUMN "bundle_id" integer;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "bundle_id" integer;--> statement-breakpoint
ALTER TABLE "basket_items" ADD CONSTRAINT "basket_items_bundle_id_bundles_id_fk" FOREIGN KEY ("bundle_id") REFERENCES "public"."bundles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_bundle_id_bundles_id_fk" FOREIGN KEY ("bundle_id") REFERENCES "public"."bundles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "basket_items_user_bundle_uq" ON "basket_items" USING btree ("user_id","bundle_id") WHERE "basket_items"."bundle_id" is not null;--> statement-breakpoint
ALTER TABLE "basket_items" ADD CONSTRAINT "basket_items_kind_ck" CHECK (("basket_items"."bundle_id" is null and "basket_items"."book_id" is not null and "basket_items"."format" is not null) or ("basket_items"."bundle_id" is not null and "basket_items"."book_id" is null and "basket_items"."format" is null and "basket_items"."quantity" = 1));