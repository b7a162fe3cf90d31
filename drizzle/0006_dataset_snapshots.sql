CREATE TABLE "dataset_snapshots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"config" jsonb NOT NULL,
	"audio_track_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"lyric_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"dataset_hash" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dataset_snapshots_hash_format" CHECK ("dataset_snapshots"."dataset_hash" ~ '^sha256:[0-9a-f]{64}$')
);
