CREATE TABLE "playout_analyses" (
	"blob_key" text PRIMARY KEY NOT NULL,
	"size_bytes" bigint NOT NULL,
	"duration_sec" real NOT NULL,
	"loudness_lufs" real,
	"true_peak_dbtp" real,
	"sound_start_sec" real NOT NULL,
	"sound_end_sec" real NOT NULL,
	"intro_sec" real NOT NULL,
	"outro_sec" real NOT NULL,
	"analysed_at" timestamp with time zone DEFAULT now() NOT NULL
);
