/**
 * The station API's admin-side shapes the panel reads, taken from the client library's generated types
 * (clients/js/src/schema.d.ts, made from GET /openapi.json) so they cannot drift from the server. Only the
 * WebSocket messages, which the OpenAPI document does not describe, are written out here.
 */
import type { Answer, ItemOf } from '../shared/api-types';

export type Permissions = Answer<'/station/v1/auth/validate', 'get'>;

export type StationConfig = Answer<'/station/v1/admin/config', 'get'>;

export type StationStatus = Answer<'/station/v1/admin/status', 'get'>;

export type RegistryRecord = ItemOf<'/station/v1/registry/tracks'>;

export type TrainingJob = Answer<'/station/v1/training/jobs/{job_id}', 'get'>;

/** A point of the loss chart: from the stored curve, or from an epoch message (which carries no time). */
export type LossPoint = Pick<NonNullable<TrainingJob['loss_curve']>[number], 'epoch' | 'loss' | 'held_out_loss' | 'perplexity'>;

export type ModelVersion = ItemOf<'/station/v1/training/models'>;

export type Snapshot = ItemOf<'/station/v1/dataset/snapshots'>;

export type Generation = Answer<'/station/v1/generate/track/{generation_id}', 'get'>;

export type SessionStats = ItemOf<'/station/v1/registry/sessions'>;

/** A training job's epoch as the admin WebSocket pushes it (not part of the OpenAPI document). */
export interface TrainingEpochMessage {
  event: 'training_epoch';
  job_id: string;
  epoch: number;
  loss: number;
  perplexity: number | null;
}

/** A generation's progress as the admin WebSocket pushes it (not part of the OpenAPI document). */
export interface GenerationProgressMessage {
  event: 'generation_progress';
  generation_id: string;
  progress_pct: number;
  eta_seconds: number;
}
