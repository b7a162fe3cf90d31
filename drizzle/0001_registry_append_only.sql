-- Module G: the registry is append-only, enforced by the database itself (on PGlite and PostgreSQL alike).
-- Only reuse_eligible, flag_for_review, first_played_at and playback_count may change after insert.
CREATE OR REPLACE FUNCTION registry_tracks_guard() RETURNS trigger AS $$
DECLARE
  mutable text[] := ARRAY['reuse_eligible', 'flag_for_review', 'first_played_at', 'playback_count'];
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'registry_tracks is append-only: DELETE refused' USING ERRCODE = 'P0001', HINT = 'registry_append_only';
  END IF;
  IF (to_jsonb(NEW) - mutable) IS DISTINCT FROM (to_jsonb(OLD) - mutable) THEN
    RAISE EXCEPTION 'registry_tracks is append-only: only reuse_eligible, flag_for_review, first_played_at and playback_count may change'
      USING ERRCODE = 'P0001', HINT = 'registry_append_only';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER registry_tracks_append_only
  BEFORE UPDATE OR DELETE ON registry_tracks
  FOR EACH ROW EXECUTE FUNCTION registry_tracks_guard();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION registry_tracks_refuse_truncate() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'registry_tracks is append-only: TRUNCATE refused' USING ERRCODE = 'P0001', HINT = 'registry_append_only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER registry_tracks_no_truncate
  BEFORE TRUNCATE ON registry_tracks
  FOR EACH STATEMENT EXECUTE FUNCTION registry_tracks_refuse_truncate();
