-- A payment through the sandbox processor is never live money (security issue #16, item 5). Checkout sessions
-- and orders gain the data space of the product sold (its artist's), so that livemode can mean only "real
-- money": true for Stripe, false for every sandbox payment, including a demo store's live-catalog ones.
ALTER TABLE "store_checkout_sessions" ADD COLUMN "environment" "api_key_environment";--> statement-breakpoint
UPDATE "store_checkout_sessions" AS s SET "environment" = a."environment" FROM "artists" AS a WHERE a."id" = s."artist_id";--> statement-breakpoint
ALTER TABLE "store_checkout_sessions" ALTER COLUMN "environment" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "store_orders" ADD COLUMN "environment" "api_key_environment";--> statement-breakpoint
UPDATE "store_orders" AS o SET "environment" = a."environment" FROM "artists" AS a WHERE a."id" = o."artist_id";--> statement-breakpoint
ALTER TABLE "store_orders" ALTER COLUMN "environment" SET NOT NULL;--> statement-breakpoint
UPDATE "store_checkout_sessions" SET "livemode" = false WHERE "processor" = 'sandbox' AND "livemode";--> statement-breakpoint
UPDATE "store_orders" SET "livemode" = false WHERE "processor" = 'sandbox' AND "livemode";--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "livemode" boolean;--> statement-breakpoint
UPDATE "subscriptions" SET "livemode" = ("processor" = 'stripe');--> statement-breakpoint
ALTER TABLE "subscriptions" ALTER COLUMN "livemode" SET NOT NULL;--> statement-breakpoint
-- The live feed (0020_analytics) counts an order in its data space's counters only when it is money of that
-- space: live orders paid for real, and the sandbox's own orders. A demo store's sandbox payment for a live
-- product counts nowhere.
CREATE OR REPLACE FUNCTION analytics_order_recorded() RETURNS trigger AS $$
DECLARE
  v_seq bigint;
  v_env "api_key_environment" := NEW."environment";
  v_totals "analytics_live_totals";
BEGIN
  IF v_env = 'live' AND NOT NEW."livemode" THEN
    RETURN NULL;
  END IF;
  v_seq := analytics_next_seq();
  INSERT INTO "analytics_live_totals" AS t ("environment", "day", "orders", "revenue_cents")
    VALUES (v_env, (NEW."created_at" AT TIME ZONE 'UTC')::date, 1, jsonb_build_object(NEW."currency", NEW."amount_cents"))
    ON CONFLICT ("environment", "day") DO UPDATE SET "orders" = t."orders" + 1,
      "revenue_cents" = t."revenue_cents" || jsonb_build_object(NEW."currency", COALESCE((t."revenue_cents" ->> NEW."currency")::bigint, 0) + NEW."amount_cents")
    RETURNING * INTO v_totals;
  -- No buyer in the feed: it is aggregate data for analytics:read holders.
  INSERT INTO "analytics_live_events" ("id", "environment", "kind", "data") VALUES (v_seq, v_env, 'order', jsonb_build_object(
    'type', 'order',
    'artist_id', NEW."artist_id",
    'product_id', NEW."product_id",
    'amount_cents', NEW."amount_cents",
    'currency', NEW."currency",
    'at', to_char(NEW."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'counters', analytics_counters(v_totals)));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- The running order counters again from the orders, now that sandbox payments are not live money.
UPDATE "analytics_live_totals" SET "orders" = 0, "revenue_cents" = '{}'::jsonb WHERE "orders" <> 0 OR "revenue_cents" <> '{}'::jsonb;--> statement-breakpoint
INSERT INTO "analytics_live_totals" AS t ("environment", "day", "orders", "revenue_cents")
  SELECT env, day, sum(n), jsonb_object_agg(currency, cents)
  FROM (
    SELECT "environment" AS env, ("created_at" AT TIME ZONE 'UTC')::date AS day, "currency" AS currency, count(*) AS n, sum("amount_cents") AS cents
    FROM "store_orders" WHERE "livemode" OR "environment" = 'test' GROUP BY 1, 2, 3
  ) AS per_currency
  GROUP BY env, day
  ON CONFLICT ("environment", "day") DO UPDATE SET "orders" = EXCLUDED."orders", "revenue_cents" = EXCLUDED."revenue_cents";
