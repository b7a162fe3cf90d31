CREATE TABLE "safety_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"station_track_id" text NOT NULL,
	"round" integer NOT NULL,
	"reporter" text NOT NULL,
	"user_id" uuid,
	"feedback_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "safety_reviews" (
	"station_track_id" text PRIMARY KEY NOT NULL,
	"round" integer DEFAULT 1 NOT NULL,
	"withheld_reason" text,
	"withheld_at" timestamp with time zone,
	"approved_at" timestamp with time zone,
	"approved_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "safety_reviews_reason" CHECK ("safety_reviews"."withheld_reason" IS NULL OR "safety_reviews"."withheld_reason" IN ('admin_flag', 'listener_reports')),
	CONSTRAINT "safety_reviews_withheld_at" CHECK (("safety_reviews"."withheld_reason" IS NULL) = ("safety_reviews"."withheld_at" IS NULL)),
	CONSTRAINT "safety_reviews_round" CHECK ("safety_reviews"."round" >= 1)
);
--> statement-breakpoint
ALTER TABLE "station_config" ADD COLUMN "crossfade_sec" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "station_config" ADD COLUMN "report_threshold" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "safety_reports" ADD CONSTRAINT "safety_reports_station_track_id_registry_tracks_station_track_id_fk" FOREIGN KEY ("station_track_id") REFERENCES "public"."registry_tracks"("station_track_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "safety_reports" ADD CONSTRAINT "safety_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "safety_reviews" ADD CONSTRAINT "safety_reviews_station_track_id_registry_tracks_station_track_id_fk" FOREIGN KEY ("station_track_id") REFERENCES "public"."registry_tracks"("station_track_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "safety_reports_one_per_reporter" ON "safety_reports" USING btree ("station_track_id","round","reporter");--> statement-breakpoint
CREATE INDEX "safety_flags_station_track_idx" ON "safety_flags" USING btree ("station_track_id");--> statement-breakpoint
ALTER TABLE "station_config" ADD CONSTRAINT "station_config_crossfade" CHECK ("station_config"."crossfade_sec" BETWEEN 0 AND 10);--> statement-breakpoint
ALTER TABLE "station_config" ADD CONSTRAINT "station_config_report_threshold" CHECK ("station_config"."report_threshold" BETWEEN 1 AND 1000);