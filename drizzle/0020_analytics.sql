CREATE TYPE "public"."device_class" AS ENUM('mobile', 'tablet', 'desktop', 'tv', 'bot', 'other', 'unknown');--> statement-breakpoint
CREATE TYPE "public"."analytics_live_event_kind" AS ENUM('play', 'order');--> statement-breakpoint
CREATE TABLE "analytics_live_events" (
	"id" bigint PRIMARY KEY NOT NULL,
	"environment" "api_key_environment" NOT NULL,
	"kind" "analytics_live_event_kind" NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_live_head" (
	"singleton" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	"retain" bigint DEFAULT 10000 NOT NULL,
	CONSTRAINT "analytics_live_head_singleton" CHECK ("analytics_live_head"."singleton"),
	CONSTRAINT "analytics_live_head_retain" CHECK ("analytics_live_head"."retain" >= 1)
);
--> statement-breakpoint
CREATE TABLE "analytics_live_totals" (
	"environment" "api_key_environment" NOT NULL,
	"day" date NOT NULL,
	"plays" bigint DEFAULT 0 NOT NULL,
	"radio_plays" bigint DEFAULT 0 NOT NULL,
	"orders" bigint DEFAULT 0 NOT NULL,
	"revenue_cents" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "analytics_live_totals_environment_day_pk" PRIMARY KEY("environment","day")
);
--> statement-breakpoint
ALTER TABLE "play_events" ADD COLUMN "device_class" "device_class";--> statement-breakpoint
ALTER TABLE "play_events" ADD COLUMN "country" text;--> statement-breakpoint
CREATE INDEX "play_events_user_idx" ON "play_events" USING btree ("user_id","played_at");--> statement-breakpoint
CREATE INDEX "store_orders_created_idx" ON "store_orders" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "play_events" ADD CONSTRAINT "play_events_country_format" CHECK ("play_events"."country" IS NULL OR "play_events"."country" ~ '^[A-Z]{2}$');--> statement-breakpoint
-- Custom SQL (not expressible in Drizzle): the triggers that keep tracks.streams and the live analytics feed
-- in step with play_events and store_orders, in the inserting transaction itself (src/platform/analytics/README.md).
INSERT INTO "analytics_live_head" ("singleton", "seq") VALUES (true, 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- The running counters start from what is already recorded.
INSERT INTO "analytics_live_totals" ("environment", "day", "plays", "radio_plays")
  SELECT 'live', ("played_at" AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE "source" = 'radio')
  FROM "play_events" GROUP BY 2;
--> statement-breakpoint
INSERT INTO "analytics_live_totals" AS t ("environment", "day", "orders", "revenue_cents")
  SELECT env, day, sum(n), jsonb_object_agg(currency, cents)
  FROM (
    SELECT (CASE WHEN "livemode" THEN 'live' ELSE 'test' END)::"api_key_environment" AS env,
           ("created_at" AT TIME ZONE 'UTC')::date AS day, "currency" AS currency, count(*) AS n, sum("amount_cents") AS cents
    FROM "store_orders" GROUP BY 1, 2, 3
  ) AS per_currency
  GROUP BY env, day
  ON CONFLICT ("environment", "day") DO UPDATE SET "orders" = EXCLUDED."orders", "revenue_cents" = EXCLUDED."revenue_cents";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_counters(t "analytics_live_totals") RETURNS jsonb AS $$
  SELECT jsonb_build_object(
    'day', to_char(t."day", 'YYYY-MM-DD'),
    'plays', t."plays",
    'radio_plays', t."radio_plays",
    'on_demand_plays', t."plays" - t."radio_plays",
    'orders', t."orders",
    'revenue_cents', t."revenue_cents")
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
-- The next feed number. The head row stays locked until the transaction ends, so numbers are handed out in
-- commit order without gaps (a rolled-back transaction gives its number back). Taken first by every writer,
-- before any other lock of the feed, so writers always queue in one order and never deadlock each other.
CREATE OR REPLACE FUNCTION analytics_next_seq() RETURNS bigint AS $$
DECLARE
  v_seq bigint;
  v_retain bigint;
BEGIN
  UPDATE "analytics_live_head" SET "seq" = "seq" + 1 WHERE "singleton" RETURNING "seq", "retain" INTO v_seq, v_retain;
  -- A bounded buffer: every 100 events, forget those beyond the last `retain`.
  IF v_seq % 100 = 0 THEN
    DELETE FROM "analytics_live_events" WHERE "id" <= v_seq - v_retain;
  END IF;
  RETURN v_seq;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_play_recorded() RETURNS trigger AS $$
DECLARE
  v_seq bigint := analytics_next_seq();
  v_artist uuid;
  v_totals "analytics_live_totals";
BEGIN
  -- tracks.streams is the count of the track's play events, kept here so that no path can record a play
  -- without counting it (on-demand streams and radio airings alike).
  UPDATE "tracks" SET "streams" = "streams" + 1 WHERE "id" = NEW."track_id" RETURNING "artist_id" INTO v_artist;
  -- Plays are always live: the sandbox records none.
  INSERT INTO "analytics_live_totals" AS t ("environment", "day", "plays", "radio_plays")
    VALUES ('live', (NEW."played_at" AT TIME ZONE 'UTC')::date, 1, CASE WHEN NEW."source" = 'radio' THEN 1 ELSE 0 END)
    ON CONFLICT ("environment", "day") DO UPDATE SET "plays" = t."plays" + 1, "radio_plays" = t."radio_plays" + EXCLUDED."radio_plays"
    RETURNING * INTO v_totals;
  INSERT INTO "analytics_live_events" ("id", "environment", "kind", "data") VALUES (v_seq, 'live', 'play', jsonb_build_object(
    'type', 'play',
    'track_id', NEW."track_id",
    'artist_id', v_artist,
    'source', NEW."source",
    'device', NEW."device_class",
    'country', NEW."country",
    'at', to_char(NEW."played_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'counters', analytics_counters(v_totals)));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER play_events_analytics AFTER INSERT ON "play_events" FOR EACH ROW EXECUTE FUNCTION analytics_play_recorded();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_order_recorded() RETURNS trigger AS $$
DECLARE
  v_seq bigint := analytics_next_seq();
  v_env "api_key_environment" := CASE WHEN NEW."livemode" THEN 'live' ELSE 'test' END;
  v_totals "analytics_live_totals";
BEGIN
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
CREATE TRIGGER store_orders_analytics AFTER INSERT ON "store_orders" FOR EACH ROW EXECUTE FUNCTION analytics_order_recorded();
