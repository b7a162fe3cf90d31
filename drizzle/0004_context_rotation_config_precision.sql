-- real -> double precision: round to the 6 decimals a real holds, so a stored 0.7 stays 0.7 (not 0.699999988...).
ALTER TABLE "station_config" ALTER COLUMN "catalog_ratio" SET DATA TYPE double precision USING round("catalog_ratio"::numeric, 6)::double precision;--> statement-breakpoint
ALTER TABLE "station_config" ALTER COLUMN "catalog_ratio" SET DEFAULT 0.7;--> statement-breakpoint
-- real -> double precision: round to the 6 decimals a real holds, so a stored 0.7 stays 0.7 (not 0.699999988...).
ALTER TABLE "station_config" ALTER COLUMN "ai_generation_ratio" SET DATA TYPE double precision USING round("ai_generation_ratio"::numeric, 6)::double precision;--> statement-breakpoint
ALTER TABLE "station_config" ALTER COLUMN "ai_generation_ratio" SET DEFAULT 0.3;--> statement-breakpoint
ALTER TABLE "station_config" ADD COLUMN "radio_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "station_config" ADD COLUMN "radio_changed_by" text;--> statement-breakpoint
ALTER TABLE "station_contexts" ADD COLUMN "seq" bigserial NOT NULL;--> statement-breakpoint
-- Existing contexts are numbered in the order they became active, so the newest stays the current one.
UPDATE "station_contexts" AS s SET "seq" = o.rn FROM (SELECT "context_id", row_number() OVER (ORDER BY "active_since", "context_id") AS rn FROM "station_contexts") AS o WHERE s."context_id" = o."context_id";--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('"station_contexts"', 'seq'), (SELECT coalesce(max("seq"), 0) + 1 FROM "station_contexts"), false);--> statement-breakpoint
ALTER TABLE "station_contexts" ADD COLUMN "time_of_day_override" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "station_contexts" ADD COLUMN "rotated_from" text;--> statement-breakpoint
ALTER TABLE "station_contexts" ADD CONSTRAINT "station_contexts_seq_unique" UNIQUE("seq");--> statement-breakpoint
ALTER TABLE "station_contexts" ADD CONSTRAINT "station_contexts_rotated_from_unique" UNIQUE("rotated_from");