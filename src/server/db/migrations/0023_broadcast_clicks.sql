CREATE TABLE "broadcast_clicks" (
	"broadcast_id" integer NOT NULL,
	"url_hash" text NOT NULL,
	"url" text NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"last_clicked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "broadcast_clicks_broadcast_id_url_hash_pk" PRIMARY KEY("broadcast_id","url_hash")
);
--> statement-breakpoint
ALTER TABLE "broadcast_clicks" ADD CONSTRAINT "broadcast_clicks_broadcast_id_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."broadcasts"("id") ON DELETE cascade ON UPDATE no action;