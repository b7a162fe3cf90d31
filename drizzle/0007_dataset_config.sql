CREATE TABLE "dataset_artist_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"artist_id" uuid NOT NULL,
	"old_status" text NOT NULL,
	"new_status" text NOT NULL,
	"reason" text NOT NULL,
	"changed_by" text,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dataset_artist_audit_status_values" CHECK ("dataset_artist_audit"."old_status" IN ('included', 'excluded') AND "dataset_artist_audit"."new_status" IN ('included', 'excluded'))
);
--> statement-breakpoint
CREATE TABLE "dataset_artist_status" (
	"artist_id" uuid PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"changed_by" text,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dataset_artist_status_value" CHECK ("dataset_artist_status"."status" IN ('included', 'excluded'))
);
--> statement-breakpoint
CREATE TABLE "dataset_config" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"sonic_capsules" boolean DEFAULT false NOT NULL,
	"artist_filter_mode" text DEFAULT 'all' NOT NULL,
	"artist_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"include_years" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"min_audio_bitrate_kbps" integer DEFAULT 128 NOT NULL,
	"require_isrc" boolean DEFAULT false NOT NULL,
	"require_credits" boolean DEFAULT false NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dataset_config_single_row" CHECK ("dataset_config"."id" = 1),
	CONSTRAINT "dataset_config_artist_filter_mode" CHECK ("dataset_config"."artist_filter_mode" IN ('whitelist', 'blacklist', 'all')),
	CONSTRAINT "dataset_config_min_bitrate" CHECK ("dataset_config"."min_audio_bitrate_kbps" >= 0)
);
--> statement-breakpoint
ALTER TABLE "dataset_artist_status" ADD CONSTRAINT "dataset_artist_status_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dataset_artist_audit_artist_idx" ON "dataset_artist_audit" USING btree ("artist_id","id");--> statement-breakpoint
-- Module B: the artist audit trail is append-only, enforced by the database itself.
CREATE OR REPLACE FUNCTION dataset_artist_audit_guard() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'dataset_artist_audit is append-only: % refused', TG_OP USING ERRCODE = 'P0001', HINT = 'dataset_audit_append_only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER dataset_artist_audit_append_only
  BEFORE UPDATE OR DELETE ON dataset_artist_audit
  FOR EACH ROW EXECUTE FUNCTION dataset_artist_audit_guard();
