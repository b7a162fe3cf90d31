ALTER TABLE "albums" DROP CONSTRAINT "albums_slug_unique";--> statement-breakpoint
ALTER TABLE "albums" ADD COLUMN "environment" "api_key_environment" DEFAULT 'live' NOT NULL;--> statement-breakpoint
UPDATE "albums" SET "environment" = "artists"."environment" FROM "artists" WHERE "artists"."id" = "albums"."artist_id";--> statement-breakpoint
ALTER TABLE "albums" ADD CONSTRAINT "albums_artist_same_environment_fk" FOREIGN KEY ("artist_id","environment") REFERENCES "public"."artists"("id","environment") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "albums" ADD CONSTRAINT "albums_environment_slug_uq" UNIQUE("environment","slug");