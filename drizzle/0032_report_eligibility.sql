CREATE TABLE "listening_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"listener" text NOT NULL,
	"kind" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "safety_reports" ADD COLUMN "client_key" text;--> statement-breakpoint
CREATE INDEX "listening_sessions_listener_idx" ON "listening_sessions" USING btree ("listener","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "safety_reports_one_per_address" ON "safety_reports" USING btree ("station_track_id","round","client_key");