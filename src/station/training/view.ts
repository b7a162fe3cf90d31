/** The API shapes of training jobs and model versions, from their rows. */
import type { TrainingHyperparams } from '../../engine/engine.js';
import type { ModelVersionRow } from '../models/models.repository.js';
import type { TrainingJobRow } from './repository.js';
import type { DatasetSnapshotRow } from './snapshots.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function hyperparamsView(h: TrainingHyperparams) {
  return {
    epochs: h.epochs,
    learning_rate: h.learningRate,
    batch_size: h.batchSize,
    warmup_steps: h.warmupSteps,
    ...(h.dropout === undefined ? {} : { dropout: h.dropout }),
  };
}

/** The statuses the API shows: a cancelled job is deleted, so no visible row has that status. */
export type VisibleJobStatus = Exclude<TrainingJobRow['status'], 'cancelled'>;

export function jobView(row: TrainingJobRow) {
  const running = row.status === 'running';
  return {
    job_id: row.id,
    model_type: row.modelType,
    status: row.status as VisibleJobStatus,
    current_epoch: row.currentEpoch,
    total_epochs: row.totalEpochs,
    progress_pct: row.progressPct,
    current_loss: row.currentLoss,
    held_out_loss: row.heldOutLoss,
    perplexity: row.modelType === 'lyrics' ? row.perplexity : null,
    eta_minutes: running && row.etaSeconds !== null ? Math.ceil(row.etaSeconds / 60) : row.status === 'completed' ? 0 : null,
    eta_seconds: running ? row.etaSeconds : row.status === 'completed' ? 0 : null,
    // No GPU serves a job in this engine: 0. The CPU the job trains on is measured on its own (runner.ts).
    gpu_utilization_pct: 0,
    cpu_utilization_pct: running ? row.cpuUtilizationPct : 0,
    compute_device: 'cpu' as const,
    dataset_hash: row.datasetHash,
    dataset_snapshot_id: row.snapshotId,
    base_model_id: row.baseModelId,
    hyperparams: hyperparamsView(row.hyperparams),
    seed: row.seed,
    notify_webhook: row.notifyWebhook,
    pause_requested: row.pauseRequested,
    checkpoint_epoch: row.checkpointEpoch,
    model_version_draft: row.modelVersionDraft,
    model_id: row.modelVersionId,
    error_stage: row.errorStage,
    error_message: row.errorMessage,
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    paused_at: iso(row.pausedAt),
    completed_at: iso(row.completedAt),
  };
}

export function jobDetails(row: TrainingJobRow, snapshot: DatasetSnapshotRow | null) {
  return {
    ...jobView(row),
    loss_curve: row.lossCurve,
    snapshot: snapshot && {
      id: snapshot.id,
      name: snapshot.name,
      dataset_hash: snapshot.datasetHash,
      audio_items: snapshot.audioTrackIds.length,
      lyrics_items: snapshot.lyricIds.length,
      created_at: snapshot.createdAt.toISOString(),
    },
  };
}

export function modelVersionView(row: ModelVersionRow) {
  return {
    model_id: row.id,
    version: row.version,
    model_type: row.modelType,
    status: row.status,
    metrics: row.metrics,
    lineage: row.lineage,
    dataset_hash: row.datasetHash,
    artifact_sha256: row.artifactSha256,
    created_at: row.createdAt.toISOString(),
    deployed_at: iso(row.deployedAt),
  };
}
