CREATE TABLE "demo_seed" (
	"id" integer PRIMARY KEY NOT NULL,
	"holder" text,
	"lease_expires_at" timestamp with time zone,
	"step" text DEFAULT 'starting' NOT NULL,
	"expected" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"completed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "generations" ALTER COLUMN "model_version" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "lyric_generations" ALTER COLUMN "structure" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "lyric_generations" ALTER COLUMN "model_version" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "lyric_generations" ALTER COLUMN "safety_score" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "lyric_generations" ALTER COLUMN "explicit_detected" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "lyric_generations" ALTER COLUMN "safety" SET DEFAULT '{}'::jsonb;--> statement-breakpoint
ALTER TABLE "lyric_generations" ADD COLUMN "status" "generation_status" DEFAULT 'complete' NOT NULL;--> statement-breakpoint
ALTER TABLE "lyric_generations" ADD COLUMN "eta_seconds" integer;--> statement-breakpoint
ALTER TABLE "lyric_generations" ADD COLUMN "error_code" text;--> statement-breakpoint
ALTER TABLE "lyric_generations" ADD COLUMN "error_message" text;--> statement-breakpoint
ALTER TABLE "lyric_generations" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "lyric_generations_waiting_idx" ON "lyric_generations" USING btree ("created_at") WHERE "lyric_generations"."status" = 'pending';