/** Module C's request and response shapes: one TypeBox schema validates, types and documents each. */
import { Type, type Static } from '@sinclair/typebox';
import { PageQuery, StringEnum } from '../../http/schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const MODEL_TYPES = ['audio', 'lyrics', 'style_embedding'] as const;
/** What the API shows. DELETE leaves a job cancelled and deleted: from then on it answers 404 and is listed nowhere. */
export const JOB_STATUSES = ['queued', 'running', 'paused', 'completed', 'failed'] as const;

export const Hyperparams = Type.Object(
  {
    epochs: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
    learning_rate: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1 })),
    batch_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 4096 })),
    warmup_steps: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
    dropout: Type.Optional(Type.Number({ minimum: 0, maximum: 0.9, description: 'lyrics model only' })),
  },
  { additionalProperties: false, description: "Omitted fields take the model type's defaults (GET /training/models shows what each version used)" },
);

export const TrainingJobRequest = Type.Object(
  {
    model_type: StringEnum(MODEL_TYPES),
    dataset_snapshot_id: Type.String({ minLength: 1, maxLength: 200, description: 'a snapshot from POST /dataset/snapshot' }),
    base_model_id: Type.Optional(
      Nullable(Type.String({ minLength: 1, maxLength: 200, description: 'model_id of a version of the same type to fine-tune; null: from scratch' })),
    ),
    hyperparams: Type.Optional(Hyperparams),
    notify_webhook: Type.Optional(
      Nullable(
        Type.String({
          format: 'uri',
          pattern: '^https?://',
          maxLength: 2048,
          description:
            'receives a signed POST (X-Station-Signature) when the job completes or fails; its host must be one STATION_WEBHOOK_ALLOWED_HOSTS admits (public addresses by default), or the request answers 400',
        }),
      ),
    ),
    seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483646, description: 'default: random' })),
  },
  { additionalProperties: false, title: 'TrainingJobRequest' },
);
export type TrainingJobRequest = Static<typeof TrainingJobRequest>;

export const JobListQuery = Type.Composite(
  [
    PageQuery,
    Type.Object({
      model: Type.Optional(StringEnum(['audio', 'lyrics', 'style', 'style_embedding'], { description: 'style and style_embedding are the same' })),
      status: Type.Optional(StringEnum(JOB_STATUSES)),
    }),
  ],
  { additionalProperties: false },
);
export type JobListQuery = Static<typeof JobListQuery>;

const LossPoint = Type.Object({
  epoch: Type.Integer(),
  loss: Type.Number(),
  held_out_loss: Nullable(Type.Number()),
  perplexity: Nullable(Type.Number()),
  seconds: Type.Number(),
  at: Type.String({ format: 'date-time' }),
});

const jobFields = {
  job_id: Type.String(),
  model_type: StringEnum(MODEL_TYPES),
  status: StringEnum(JOB_STATUSES, { description: 'a job cancelled with DELETE is gone: GET answers 404 STATION_NOT_FOUND and the list leaves it out' }),
  current_epoch: Type.Integer(),
  total_epochs: Type.Integer(),
  progress_pct: Type.Integer(),
  current_loss: Nullable(Type.Number({ description: 'training loss of the last epoch' })),
  held_out_loss: Nullable(Type.Number()),
  perplexity: Nullable(Type.Number({ description: 'lyrics model only: held-out perplexity of the last epoch' })),
  eta_minutes: Nullable(Type.Integer({ description: 'mean measured epoch time x epochs left, rounded up' })),
  eta_seconds: Nullable(Type.Integer()),
  gpu_utilization_pct: Type.Integer({
    minimum: 0,
    maximum: 100,
    description: 'GPU utilisation of the job, %; 0 where no GPU serves the job (this engine trains on the CPU: compute_device cpu)',
  }),
  cpu_utilization_pct: Nullable(
    Type.Integer({
      minimum: 0,
      maximum: 100,
      description:
        "CPU use of the process that trains the job over the last epoch's wall time, as % of all the machine's cores (CPU time / (wall time x cores)); 0 when the job is not running; null while running before its first measured epoch, or when it cannot be measured here (the engine trains in another process, the ML service)",
    }),
  ),
  compute_device: StringEnum(['cpu', 'gpu'], { description: 'the device the job trains on' }),
  dataset_hash: Type.String({ description: "the snapshot's sha256:<hex> fingerprint" }),
  dataset_snapshot_id: Type.String(),
  base_model_id: Nullable(Type.String()),
  hyperparams: Type.Object({
    epochs: Type.Integer(),
    learning_rate: Type.Number(),
    batch_size: Type.Integer(),
    warmup_steps: Type.Integer(),
    dropout: Type.Optional(Type.Number()),
  }),
  seed: Type.Integer(),
  notify_webhook: Nullable(Type.String()),
  pause_requested: Type.Boolean({ description: 'true while a running job is on its way to the next checkpoint to pause' }),
  checkpoint_epoch: Type.Integer({ description: 'epochs saved in the last checkpoint; resume continues after it' }),
  model_version_draft: Nullable(Type.String()),
  model_id: Nullable(Type.String({ description: 'the model version the job produced, once completed' })),
  error_stage: Nullable(Type.String()),
  error_message: Nullable(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  started_at: Nullable(Type.String({ format: 'date-time' })),
  paused_at: Nullable(Type.String({ format: 'date-time' })),
  completed_at: Nullable(Type.String({ format: 'date-time' })),
};

export const TrainingJobView = Type.Object(jobFields, { title: 'TrainingJob' });

export const TrainingJobDetails = Type.Object(
  {
    ...jobFields,
    loss_curve: Type.Array(LossPoint),
    snapshot: Nullable(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        dataset_hash: Type.String(),
        audio_items: Type.Integer(),
        lyrics_items: Type.Integer(),
        created_at: Type.String({ format: 'date-time' }),
      }),
    ),
  },
  { title: 'TrainingJobDetails' },
);

export const CancelledJob = Type.Object(
  {
    job_id: Type.String(),
    status: Type.Literal('cancelled'),
    deleted: Type.Boolean({
      description: "always true: from this answer on GET answers 404 and the list leaves the job out; a running job's worker stops at its next check",
    }),
  },
  { title: 'CancelledTrainingJob' },
);

export const ModelListQuery = Type.Composite([PageQuery, Type.Object({ model: Type.Optional(StringEnum(['audio', 'lyrics', 'style', 'style_embedding'])) })], {
  additionalProperties: false,
});
export type ModelListQuery = Static<typeof ModelListQuery>;

export const ModelVersionView = Type.Object(
  {
    model_id: Type.String(),
    version: Type.String(),
    model_type: StringEnum(MODEL_TYPES),
    status: StringEnum(['production', 'ready', 'retired'], { description: 'deployment status' }),
    metrics: Type.Record(Type.String(), Type.Unknown(), { description: 'final_loss, held_out_loss, perplexity (lyrics), held-out scores per type' }),
    lineage: Type.Record(Type.String(), Type.Unknown(), { description: 'snapshot_id, snapshot_dataset_hash, dataset_hash, base_model_id, job_id' }),
    dataset_hash: Type.String({ description: 'sha256 of the exact items trained on; AI tracks record it as training_dataset_hash' }),
    artifact_sha256: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    deployed_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'ModelVersion' },
);

export const DeployResult = Type.Object(
  {
    model_id: Type.String(),
    version: Type.String(),
    model_type: StringEnum(MODEL_TYPES),
    status: Type.Literal('production'),
    previous_version: Nullable(Type.String()),
    deployed_at: Type.String({ format: 'date-time' }),
  },
  { title: 'ModelDeployment' },
);
