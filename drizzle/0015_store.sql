CREATE TYPE "public"."store_checkout_status" AS ENUM('open', 'completed');--> statement-breakpoint
CREATE TYPE "public"."payment_processor" AS ENUM('sandbox', 'stripe');--> statement-breakpoint
CREATE TYPE "public"."store_product_status" AS ENUM('active', 'archived');--> statement-breakpoint
CREATE TYPE "public"."store_product_type" AS ENUM('album', 'ep', 'single');--> statement-breakpoint
CREATE TABLE "store_checkout_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"artist_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"platform_fee_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"processor" "payment_processor" NOT NULL,
	"livemode" boolean NOT NULL,
	"processor_session_id" text,
	"checkout_url" text,
	"idempotency_key" text,
	"request_hash" text,
	"status" "store_checkout_status" DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "store_checkout_sessions_processor_session_id_unique" UNIQUE("processor_session_id"),
	CONSTRAINT "store_checkout_sessions_fee" CHECK ("store_checkout_sessions"."platform_fee_cents" >= 0 AND "store_checkout_sessions"."platform_fee_cents" <= "store_checkout_sessions"."amount_cents")
);
--> statement-breakpoint
CREATE TABLE "store_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"checkout_session_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"artist_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"platform_fee_cents" integer NOT NULL,
	"artist_share_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"processor" "payment_processor" NOT NULL,
	"livemode" boolean NOT NULL,
	"processor_reference" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_orders_checkout_session_id_unique" UNIQUE("checkout_session_id"),
	CONSTRAINT "store_orders_split_whole" CHECK ("store_orders"."platform_fee_cents" + "store_orders"."artist_share_cents" = "store_orders"."amount_cents")
);
--> statement-breakpoint
CREATE TABLE "store_payout_accounts" (
	"artist_id" uuid NOT NULL,
	"processor" "payment_processor" NOT NULL,
	"account_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_payout_accounts_artist_id_processor_pk" PRIMARY KEY("artist_id","processor")
);
--> statement-breakpoint
CREATE TABLE "store_payout_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"track_id" uuid NOT NULL,
	"songwriter_id" uuid,
	"split_basis_points" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	CONSTRAINT "store_payout_lines_amount" CHECK ("store_payout_lines"."amount_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "store_product_tracks" (
	"product_id" uuid NOT NULL,
	"track_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "store_product_tracks_product_id_track_id_pk" PRIMARY KEY("product_id","track_id")
);
--> statement-breakpoint
CREATE TABLE "store_products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"artist_id" uuid NOT NULL,
	"type" "store_product_type" NOT NULL,
	"title" text NOT NULL,
	"price_cents" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"status" "store_product_status" DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_products_price_range" CHECK ("store_products"."price_cents" BETWEEN 50 AND 100000000),
	CONSTRAINT "store_products_currency_format" CHECK ("store_products"."currency" ~ '^[a-z]{3}$')
);
--> statement-breakpoint
ALTER TABLE "store_checkout_sessions" ADD CONSTRAINT "store_checkout_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_checkout_sessions" ADD CONSTRAINT "store_checkout_sessions_product_id_store_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."store_products"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_checkout_sessions" ADD CONSTRAINT "store_checkout_sessions_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_orders" ADD CONSTRAINT "store_orders_checkout_session_id_store_checkout_sessions_id_fk" FOREIGN KEY ("checkout_session_id") REFERENCES "public"."store_checkout_sessions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_orders" ADD CONSTRAINT "store_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_orders" ADD CONSTRAINT "store_orders_product_id_store_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."store_products"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_orders" ADD CONSTRAINT "store_orders_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_payout_accounts" ADD CONSTRAINT "store_payout_accounts_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_payout_lines" ADD CONSTRAINT "store_payout_lines_order_id_store_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."store_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_payout_lines" ADD CONSTRAINT "store_payout_lines_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_payout_lines" ADD CONSTRAINT "store_payout_lines_songwriter_id_songwriters_id_fk" FOREIGN KEY ("songwriter_id") REFERENCES "public"."songwriters"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_product_tracks" ADD CONSTRAINT "store_product_tracks_product_id_store_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."store_products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_product_tracks" ADD CONSTRAINT "store_product_tracks_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_products" ADD CONSTRAINT "store_products_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "store_checkout_sessions_idempotency_idx" ON "store_checkout_sessions" USING btree ("user_id","idempotency_key") WHERE "store_checkout_sessions"."idempotency_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "store_orders_user_idx" ON "store_orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "store_orders_artist_idx" ON "store_orders" USING btree ("artist_id","created_at");--> statement-breakpoint
CREATE INDEX "store_payout_lines_order_idx" ON "store_payout_lines" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "store_product_tracks_track_idx" ON "store_product_tracks" USING btree ("track_id");--> statement-breakpoint
CREATE INDEX "store_products_artist_idx" ON "store_products" USING btree ("artist_id");