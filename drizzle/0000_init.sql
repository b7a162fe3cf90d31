CREATE TYPE "public"."api_key_environment" AS ENUM('live', 'test');--> statement-breakpoint
CREATE TYPE "public"."session_kind" AS ENUM('staff', 'platform');--> statement-breakpoint
CREATE TYPE "public"."user_role" AS ENUM('listener', 'artist', 'developer', 'admin', 'super_admin');--> statement-breakpoint
CREATE TYPE "public"."user_status" AS ENUM('active', 'banned');--> statement-breakpoint
CREATE TYPE "public"."credit_role" AS ENUM('composer', 'lyricist', 'composer_lyricist', 'producer');--> statement-breakpoint
CREATE TYPE "public"."musical_mode" AS ENUM('major', 'minor');--> statement-breakpoint
CREATE TYPE "public"."play_source" AS ENUM('radio', 'on_demand');--> statement-breakpoint
CREATE TYPE "public"."track_status" AS ENUM('published', 'removed');--> statement-breakpoint
CREATE TYPE "public"."generation_status" AS ENUM('pending', 'in_progress', 'complete', 'failed', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."model_status" AS ENUM('ready', 'production', 'retired');--> statement-breakpoint
CREATE TYPE "public"."model_type" AS ENUM('audio', 'lyrics', 'style_embedding');--> statement-breakpoint
CREATE TYPE "public"."generation_mode" AS ENUM('catalog_only', 'ai_only', 'hybrid');--> statement-breakpoint
CREATE TYPE "public"."key_preference" AS ENUM('major', 'minor', 'any');--> statement-breakpoint
CREATE TYPE "public"."lifestyle" AS ENUM('focus', 'party', 'chill', 'workout', 'sleep');--> statement-breakpoint
CREATE TYPE "public"."stream_quality" AS ENUM('128kbps', '192kbps', '320kbps');--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"scopes" text[] DEFAULT '{}'::text[] NOT NULL,
	"environment" "api_key_environment" DEFAULT 'live' NOT NULL,
	"owner_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "auth_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" "session_kind" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"rotated_at" timestamp with time zone,
	CONSTRAINT "refresh_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" "user_role" DEFAULT 'listener' NOT NULL,
	"status" "user_status" DEFAULT 'active' NOT NULL,
	"display_name" text NOT NULL,
	"totp_secret" text,
	"totp_last_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "artists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"bio" text DEFAULT '' NOT NULL,
	"genre" text NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"platform_owned" boolean DEFAULT false NOT NULL,
	"formed_year" integer,
	"owner_user_id" uuid,
	"followers" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "artists_slug_unique" UNIQUE("slug"),
	CONSTRAINT "artists_slug_format" CHECK ("artists"."slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$')
);
--> statement-breakpoint
CREATE TABLE "lyrics" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"track_id" uuid,
	"artist_id" uuid NOT NULL,
	"songwriter_id" uuid NOT NULL,
	"title" text NOT NULL,
	"language" text NOT NULL,
	"mood" text[] DEFAULT '{}'::text[] NOT NULL,
	"theme" text DEFAULT '' NOT NULL,
	"sections" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lyrics_slug_unique" UNIQUE("slug"),
	CONSTRAINT "lyrics_language_format" CHECK ("lyrics"."language" ~ '^[a-z]{2}$')
);
--> statement-breakpoint
CREATE TABLE "play_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"track_id" uuid NOT NULL,
	"user_id" uuid,
	"source" "play_source" NOT NULL,
	"session_id" text,
	"played_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seconds_played" real
);
--> statement-breakpoint
CREATE TABLE "songwriters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"ipi" text,
	"platform_owned" boolean DEFAULT false NOT NULL,
	"artist_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "songwriters_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "track_credits" (
	"track_id" uuid NOT NULL,
	"songwriter_id" uuid NOT NULL,
	"role" "credit_role" NOT NULL,
	"split_pct" numeric(5, 2) NOT NULL,
	CONSTRAINT "track_credits_track_id_songwriter_id_role_pk" PRIMARY KEY("track_id","songwriter_id","role"),
	CONSTRAINT "track_credits_split_range" CHECK ("track_credits"."split_pct" > 0 AND "track_credits"."split_pct" <= 100)
);
--> statement-breakpoint
CREATE TABLE "track_features" (
	"track_id" uuid PRIMARY KEY NOT NULL,
	"extractor_version" text NOT NULL,
	"features" jsonb NOT NULL,
	"extracted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"artist_id" uuid NOT NULL,
	"genre" text NOT NULL,
	"subgenre" text DEFAULT '' NOT NULL,
	"mood" text[] DEFAULT '{}'::text[] NOT NULL,
	"lifestyle" text,
	"bpm" integer,
	"musical_key" text,
	"mode" "musical_mode",
	"energy" real,
	"duration_sec" real NOT NULL,
	"isrc" text,
	"explicit" boolean DEFAULT false NOT NULL,
	"release_year" integer,
	"audio_blob_key" text,
	"audio_format" text,
	"audio_bitrate_kbps" integer,
	"audio_size_bytes" bigint,
	"cover_blob_key" text,
	"waveform_blob_key" text,
	"streams" bigint DEFAULT 0 NOT NULL,
	"status" "track_status" DEFAULT 'published' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tracks_slug_unique" UNIQUE("slug"),
	CONSTRAINT "tracks_isrc_unique" UNIQUE("isrc"),
	CONSTRAINT "tracks_isrc_format" CHECK ("tracks"."isrc" IS NULL OR "tracks"."isrc" ~ '^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$'),
	CONSTRAINT "tracks_bpm_range" CHECK ("tracks"."bpm" IS NULL OR ("tracks"."bpm" BETWEEN 20 AND 300)),
	CONSTRAINT "tracks_duration_positive" CHECK ("tracks"."duration_sec" > 0)
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"transport" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "generations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" "generation_status" DEFAULT 'pending' NOT NULL,
	"request" jsonb NOT NULL,
	"context" jsonb NOT NULL,
	"context_id" text,
	"seed" bigint NOT NULL,
	"quality" text NOT NULL,
	"max_duration_sec" integer NOT NULL,
	"include_lyrics" boolean DEFAULT false NOT NULL,
	"session_id" text,
	"model_version" text NOT NULL,
	"lyrics_model_version" text,
	"regenerated_from" uuid,
	"progress_pct" integer DEFAULT 0 NOT NULL,
	"eta_seconds" integer,
	"title" text,
	"bpm" integer,
	"musical_key" text,
	"duration_sec" real,
	"audio_blob_key" text,
	"waveform_blob_key" text,
	"cover_blob_key" text,
	"lyric_id" uuid,
	"station_track_id" text,
	"timings" jsonb,
	"error_code" text,
	"error_message" text,
	"requested_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lyric_generations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request" jsonb NOT NULL,
	"theme" text NOT NULL,
	"language" text NOT NULL,
	"mood" text[] NOT NULL,
	"structure" jsonb NOT NULL,
	"model_version" text NOT NULL,
	"seed" bigint NOT NULL,
	"generation_id" uuid,
	"safety_score" real NOT NULL,
	"explicit_detected" boolean NOT NULL,
	"safety" jsonb NOT NULL,
	"safety_checked_at" timestamp with time zone,
	"requested_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "model_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" text NOT NULL,
	"model_type" "model_type" NOT NULL,
	"status" "model_status" DEFAULT 'ready' NOT NULL,
	"artifact_blob_key" text NOT NULL,
	"artifact_sha256" text NOT NULL,
	"dataset_hash" text NOT NULL,
	"metrics" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"lineage" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deployed_at" timestamp with time zone,
	CONSTRAINT "model_versions_version_unique" UNIQUE("version"),
	CONSTRAINT "model_versions_dataset_hash_format" CHECK ("model_versions"."dataset_hash" ~ '^sha256:[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "registry_tracks" (
	"seq" bigserial NOT NULL,
	"station_track_id" text PRIMARY KEY NOT NULL,
	"generation_id" uuid NOT NULL,
	"track_type" text DEFAULT 'ai_generated' NOT NULL,
	"session_id" text,
	"radio_only" boolean DEFAULT true NOT NULL,
	"model_version" text NOT NULL,
	"lyrics_model_version" text,
	"training_dataset_hash" text NOT NULL,
	"context_snapshot" jsonb NOT NULL,
	"title" text NOT NULL,
	"genre" text NOT NULL,
	"mood" text[] NOT NULL,
	"bpm" integer NOT NULL,
	"duration_sec" integer NOT NULL,
	"audio_blob_key" text NOT NULL,
	"waveform_blob_key" text,
	"cover_blob_key" text,
	"lyric_id" uuid,
	"influenced_by" jsonb NOT NULL,
	"safety_score" double precision NOT NULL,
	"audio_sha256" text NOT NULL,
	"generated_at" timestamp with time zone NOT NULL,
	"prev_hash" text NOT NULL,
	"record_hash" text NOT NULL,
	"first_played_at" timestamp with time zone,
	"playback_count" integer DEFAULT 0 NOT NULL,
	"reuse_eligible" boolean DEFAULT false NOT NULL,
	"flag_for_review" boolean DEFAULT false NOT NULL,
	CONSTRAINT "registry_tracks_seq_unique" UNIQUE("seq"),
	CONSTRAINT "registry_tracks_generation_id_unique" UNIQUE("generation_id"),
	CONSTRAINT "registry_tracks_record_hash_unique" UNIQUE("record_hash"),
	CONSTRAINT "registry_tracks_type" CHECK ("registry_tracks"."track_type" = 'ai_generated'),
	CONSTRAINT "registry_tracks_dataset_hash_format" CHECK ("registry_tracks"."training_dataset_hash" ~ '^sha256:[0-9a-f]{64}$'),
	CONSTRAINT "registry_tracks_safety_range" CHECK ("registry_tracks"."safety_score" >= 0 AND "registry_tracks"."safety_score" <= 1)
);
--> statement-breakpoint
CREATE TABLE "safety_flags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"station_track_id" text,
	"generation_id" uuid,
	"lyric_id" uuid,
	"flag_type" text NOT NULL,
	"safety_score" real NOT NULL,
	"detail" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid
);
--> statement-breakpoint
CREATE TABLE "context_presets" (
	"preset_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"context" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "context_presets_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "station_config" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"radio_enabled" boolean DEFAULT false NOT NULL,
	"generation_mode" "generation_mode" DEFAULT 'hybrid' NOT NULL,
	"catalog_ratio" real DEFAULT 0.7 NOT NULL,
	"ai_generation_ratio" real DEFAULT 0.3 NOT NULL,
	"lyrics_generation" boolean DEFAULT true NOT NULL,
	"explicit_allowed" boolean DEFAULT false NOT NULL,
	"max_track_length_sec" integer DEFAULT 240 NOT NULL,
	"generation_lead_time" integer DEFAULT 120 NOT NULL,
	"fallback_mode" "generation_mode" DEFAULT 'catalog_only' NOT NULL,
	"stream_quality" "stream_quality" DEFAULT '128kbps' NOT NULL,
	"disabled_reason" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "station_config_single_row" CHECK ("station_config"."id" = 1),
	CONSTRAINT "station_config_ratio_range" CHECK ("station_config"."catalog_ratio" BETWEEN 0 AND 1 AND "station_config"."ai_generation_ratio" BETWEEN 0 AND 1),
	CONSTRAINT "station_config_ratio_sum" CHECK (abs("station_config"."catalog_ratio" + "station_config"."ai_generation_ratio" - 1) < 1e-6),
	CONSTRAINT "station_config_track_length" CHECK ("station_config"."max_track_length_sec" BETWEEN 10 AND 900)
);
--> statement-breakpoint
CREATE TABLE "station_contexts" (
	"context_id" text PRIMARY KEY NOT NULL,
	"genre" text NOT NULL,
	"subgenre" text DEFAULT '' NOT NULL,
	"mood" text[] NOT NULL,
	"lifestyle" "lifestyle" NOT NULL,
	"tempo_min" integer NOT NULL,
	"tempo_max" integer NOT NULL,
	"key_preference" "key_preference" DEFAULT 'any' NOT NULL,
	"energy_level" real NOT NULL,
	"time_of_day" text NOT NULL,
	"auto_rotate" boolean DEFAULT true NOT NULL,
	"active_since" timestamp with time zone DEFAULT now() NOT NULL,
	"next_rotation" timestamp with time zone,
	"source" text NOT NULL,
	"preset_id" uuid,
	CONSTRAINT "station_contexts_tempo" CHECK ("station_contexts"."tempo_min" >= 20 AND "station_contexts"."tempo_max" <= 300 AND "station_contexts"."tempo_min" <= "station_contexts"."tempo_max"),
	CONSTRAINT "station_contexts_energy" CHECK ("station_contexts"."energy_level" BETWEEN 0 AND 1)
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_session_id_auth_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."auth_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artists" ADD CONSTRAINT "artists_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lyrics" ADD CONSTRAINT "lyrics_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lyrics" ADD CONSTRAINT "lyrics_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lyrics" ADD CONSTRAINT "lyrics_songwriter_id_songwriters_id_fk" FOREIGN KEY ("songwriter_id") REFERENCES "public"."songwriters"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "play_events" ADD CONSTRAINT "play_events_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "play_events" ADD CONSTRAINT "play_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "songwriters" ADD CONSTRAINT "songwriters_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_credits" ADD CONSTRAINT "track_credits_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_credits" ADD CONSTRAINT "track_credits_songwriter_id_songwriters_id_fk" FOREIGN KEY ("songwriter_id") REFERENCES "public"."songwriters"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_features" ADD CONSTRAINT "track_features_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracks" ADD CONSTRAINT "tracks_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "safety_flags" ADD CONSTRAINT "safety_flags_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_sessions_user_idx" ON "auth_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_session_idx" ON "refresh_tokens" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "play_events_track_idx" ON "play_events" USING btree ("track_id","played_at");--> statement-breakpoint
CREATE INDEX "play_events_played_idx" ON "play_events" USING btree ("played_at");--> statement-breakpoint
CREATE INDEX "tracks_artist_idx" ON "tracks" USING btree ("artist_id");--> statement-breakpoint
CREATE INDEX "tracks_genre_idx" ON "tracks" USING btree ("genre");--> statement-breakpoint
CREATE INDEX "mail_outbox_created_idx" ON "mail_outbox" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "generations_status_idx" ON "generations" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "model_versions_one_production" ON "model_versions" USING btree ("model_type") WHERE "model_versions"."status" = 'production';--> statement-breakpoint
CREATE INDEX "registry_tracks_session_idx" ON "registry_tracks" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "registry_tracks_generated_idx" ON "registry_tracks" USING btree ("generated_at");--> statement-breakpoint
CREATE INDEX "station_contexts_active_idx" ON "station_contexts" USING btree ("active_since");