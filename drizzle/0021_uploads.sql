ALTER TYPE "public"."track_status" ADD VALUE 'processing';--> statement-breakpoint
ALTER TYPE "public"."track_status" ADD VALUE 'failed';--> statement-breakpoint
CREATE TABLE "track_takedowns" (
	"track_id" uuid PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"removed_by" uuid,
	"removed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "track_uploads" (
	"track_id" uuid PRIMARY KEY NOT NULL,
	"uploaded_by" uuid,
	"master_blob_key" text NOT NULL,
	"master_format" text NOT NULL,
	"container" text NOT NULL,
	"codec" text,
	"size_bytes" bigint NOT NULL,
	"sample_rate" integer NOT NULL,
	"channels" integer NOT NULL,
	"bitrate_kbps" integer,
	"original_filename" text,
	"album" text,
	"tags" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "tracks" ADD COLUMN "loudness_lufs" real;--> statement-breakpoint
ALTER TABLE "track_takedowns" ADD CONSTRAINT "track_takedowns_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_takedowns" ADD CONSTRAINT "track_takedowns_removed_by_users_id_fk" FOREIGN KEY ("removed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_uploads" ADD CONSTRAINT "track_uploads_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_uploads" ADD CONSTRAINT "track_uploads_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "track_uploads_uploaded_by_idx" ON "track_uploads" USING btree ("uploaded_by");