CREATE TYPE "public"."play_origin" AS ENUM('catalog', 'ai_generated');--> statement-breakpoint
CREATE TABLE "station_plays" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"station_track_id" text,
	"track_id" uuid,
	"origin" "play_origin" NOT NULL,
	"session_id" text,
	"started_at" timestamp with time zone NOT NULL,
	"duration_sec" real NOT NULL,
	"listener_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "station_plays_origin_ref" CHECK (("station_plays"."origin" = 'ai_generated' AND "station_plays"."station_track_id" IS NOT NULL) OR ("station_plays"."origin" = 'catalog' AND "station_plays"."track_id" IS NOT NULL)),
	CONSTRAINT "station_plays_duration" CHECK ("station_plays"."duration_sec" >= 0),
	CONSTRAINT "station_plays_listeners" CHECK ("station_plays"."listener_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "station_plays" ADD CONSTRAINT "station_plays_station_track_id_registry_tracks_station_track_id_fk" FOREIGN KEY ("station_track_id") REFERENCES "public"."registry_tracks"("station_track_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "station_plays_session_idx" ON "station_plays" USING btree ("session_id","started_at");--> statement-breakpoint
CREATE INDEX "station_plays_started_idx" ON "station_plays" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "station_plays_station_track_idx" ON "station_plays" USING btree ("station_track_id");