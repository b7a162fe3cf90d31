CREATE TYPE "public"."training_job_status" AS ENUM('queued', 'running', 'paused', 'completed', 'failed', 'cancelled');--> statement-breakpoint
CREATE TABLE "training_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"model_type" "model_type" NOT NULL,
	"status" "training_job_status" DEFAULT 'queued' NOT NULL,
	"snapshot_id" uuid NOT NULL,
	"dataset_hash" text NOT NULL,
	"base_model_id" uuid,
	"hyperparams" jsonb NOT NULL,
	"seed" integer NOT NULL,
	"notify_webhook" text,
	"total_epochs" integer NOT NULL,
	"current_epoch" integer DEFAULT 0 NOT NULL,
	"progress_pct" integer DEFAULT 0 NOT NULL,
	"current_loss" double precision,
	"held_out_loss" double precision,
	"perplexity" double precision,
	"eta_seconds" integer,
	"epoch_seconds" double precision,
	"cpu_utilization_pct" integer,
	"loss_curve" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"checkpoint_blob_key" text,
	"checkpoint_epoch" integer DEFAULT 0 NOT NULL,
	"pause_requested" boolean DEFAULT false NOT NULL,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"error_stage" text,
	"error_message" text,
	"model_version_draft" text,
	"model_version_id" uuid,
	"restarts" integer DEFAULT 0 NOT NULL,
	"worker_id" text,
	"heartbeat_at" timestamp with time zone,
	"requested_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"paused_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "training_jobs_dataset_hash_format" CHECK ("training_jobs"."dataset_hash" ~ '^sha256:[0-9a-f]{64}$'),
	CONSTRAINT "training_jobs_epochs" CHECK ("training_jobs"."total_epochs" >= 1 and "training_jobs"."current_epoch" >= 0 and "training_jobs"."checkpoint_epoch" >= 0)
);
--> statement-breakpoint
ALTER TABLE "training_jobs" ADD CONSTRAINT "training_jobs_snapshot_id_dataset_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."dataset_snapshots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_jobs" ADD CONSTRAINT "training_jobs_base_model_id_model_versions_id_fk" FOREIGN KEY ("base_model_id") REFERENCES "public"."model_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_jobs" ADD CONSTRAINT "training_jobs_model_version_id_model_versions_id_fk" FOREIGN KEY ("model_version_id") REFERENCES "public"."model_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "training_jobs_one_active_per_type" ON "training_jobs" USING btree ("model_type") WHERE "training_jobs"."status" in ('queued', 'running', 'paused');--> statement-breakpoint
CREATE INDEX "training_jobs_created_idx" ON "training_jobs" USING btree ("created_at");