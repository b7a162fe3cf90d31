CREATE TABLE "track_master_backfill" (
	"track_id" uuid PRIMARY KEY NOT NULL,
	"audio_blob_key" text NOT NULL,
	"outcome" text NOT NULL,
	"master_blob_key" text,
	"detail" text NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "track_master_backfill" ADD CONSTRAINT "track_master_backfill_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;