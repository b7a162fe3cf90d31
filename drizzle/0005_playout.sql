CREATE TYPE "public"."feedback_rating" AS ENUM('thumbs_up', 'thumbs_down');--> statement-breakpoint
CREATE TYPE "public"."slot_origin" AS ENUM('catalog', 'ai_generated');--> statement-breakpoint
CREATE TYPE "public"."slot_status" AS ENUM('planned', 'playing', 'played', 'replaced');--> statement-breakpoint
CREATE TABLE "listener_feedback" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"api_key_id" uuid,
	"station_track_id" text NOT NULL,
	"rating" "feedback_rating" NOT NULL,
	"flag_inappropriate" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "radio_slots" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"origin" "slot_origin" NOT NULL,
	"status" "slot_status" DEFAULT 'planned' NOT NULL,
	"track_id" uuid,
	"generation_id" uuid,
	"station_track_id" text,
	"session_id" text NOT NULL,
	"replaced_reason" text,
	"duration_sec" real,
	"listeners_at_start" integer,
	"planned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "radio_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"ai_credit" real DEFAULT 0 NOT NULL,
	"session_id" text NOT NULL,
	"session_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"fallback_active" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "listener_feedback" ADD CONSTRAINT "listener_feedback_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "listener_feedback_track_idx" ON "listener_feedback" USING btree ("station_track_id");--> statement-breakpoint
CREATE INDEX "radio_slots_status_idx" ON "radio_slots" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "radio_slots_started_idx" ON "radio_slots" USING btree ("started_at");