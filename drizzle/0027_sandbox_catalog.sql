ALTER TABLE "artists" DROP CONSTRAINT "artists_slug_unique";--> statement-breakpoint
ALTER TABLE "tracks" DROP CONSTRAINT "tracks_slug_unique";--> statement-breakpoint
ALTER TABLE "tracks" DROP CONSTRAINT "tracks_isrc_unique";--> statement-breakpoint
DROP INDEX "tracks_popularity_idx";--> statement-breakpoint
ALTER TABLE "artists" ADD COLUMN "environment" "api_key_environment" DEFAULT 'live' NOT NULL;--> statement-breakpoint
ALTER TABLE "tracks" ADD COLUMN "environment" "api_key_environment" DEFAULT 'live' NOT NULL;--> statement-breakpoint
CREATE INDEX "tracks_popularity_idx" ON "tracks" USING btree ("environment","streams" DESC NULLS FIRST,"title","id") WHERE "tracks"."status" = 'published';--> statement-breakpoint
ALTER TABLE "artists" ADD CONSTRAINT "artists_environment_slug_uq" UNIQUE("environment","slug");--> statement-breakpoint
ALTER TABLE "artists" ADD CONSTRAINT "artists_id_environment_uq" UNIQUE("id","environment");--> statement-breakpoint
ALTER TABLE "tracks" ADD CONSTRAINT "tracks_environment_slug_uq" UNIQUE("environment","slug");--> statement-breakpoint
ALTER TABLE "tracks" ADD CONSTRAINT "tracks_environment_isrc_uq" UNIQUE("environment","isrc");--> statement-breakpoint
ALTER TABLE "artists" ADD CONSTRAINT "artists_platform_owned_live" CHECK ("artists"."environment" = 'live' OR NOT "artists"."platform_owned");--> statement-breakpoint
-- After the UNIQUE (id, environment) it references (drizzle-kit orders it before).
ALTER TABLE "tracks" ADD CONSTRAINT "tracks_artist_same_environment_fk" FOREIGN KEY ("artist_id","environment") REFERENCES "public"."artists"("id","environment") ON DELETE no action ON UPDATE no action;
