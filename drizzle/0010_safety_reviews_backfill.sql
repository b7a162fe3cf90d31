-- Module G: tracks already in the review queue when listener reports started to be counted.
-- Listener flags become reports (one per distinct listener, review round 1); a track an admin flagged stays
-- withheld (admin_flag); a track whose distinct reporters reach report_threshold is withheld (listener_reports);
-- a track flagged by fewer listeners stays in the queue and goes back on air, as the new rule says.
INSERT INTO "safety_reports" ("station_track_id", "round", "reporter", "user_id", "feedback_id", "created_at")
SELECT DISTINCT ON (f."station_track_id", coalesce('user:' || f."user_id", 'api_key:' || f."api_key_id"))
  f."station_track_id", 1, coalesce('user:' || f."user_id", 'api_key:' || f."api_key_id"), f."user_id", f."id", f."created_at"
FROM "listener_feedback" f
JOIN "registry_tracks" r ON r."station_track_id" = f."station_track_id"
WHERE f."flag_inappropriate" AND r."flag_for_review" AND (f."user_id" IS NOT NULL OR f."api_key_id" IS NOT NULL)
ORDER BY f."station_track_id", coalesce('user:' || f."user_id", 'api_key:' || f."api_key_id"), f."created_at"
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "safety_reviews" ("station_track_id", "round", "withheld_reason", "withheld_at")
SELECT r."station_track_id", 1, v."reason", CASE WHEN v."reason" IS NULL THEN NULL ELSE now() END
FROM "registry_tracks" r
CROSS JOIN LATERAL (
  SELECT CASE
    WHEN EXISTS (SELECT 1 FROM "safety_flags" s WHERE s."station_track_id" = r."station_track_id" AND s."flag_type" = 'manual_review') THEN 'admin_flag'
    WHEN (SELECT count(*) FROM "safety_reports" p WHERE p."station_track_id" = r."station_track_id" AND p."round" = 1)
      >= coalesce((SELECT c."report_threshold" FROM "station_config" c WHERE c."id" = 1), 3) THEN 'listener_reports'
  END AS "reason"
) v
WHERE r."flag_for_review"
ON CONFLICT DO NOTHING;
