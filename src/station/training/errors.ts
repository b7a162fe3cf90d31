/** Module C's domain errors; the error handler adds the STATION_ prefix and renders the envelope. */
import { DomainError, Errors } from '../../errors.js';

export const TrainingErrors = {
  /** Spec: a new job while one of the same model type is queued, running or paused. */
  inProgress: (modelType: string, jobId: string | null) =>
    new DomainError(
      'conflict',
      'TRAINING_IN_PROGRESS',
      `A ${modelType} training job is already queued, running or paused`,
      jobId ? `job ${jobId} holds the ${modelType} model type; wait for it, or DELETE it` : '',
    ),
  jobNotFound: (jobId: string) => Errors.notFound('Training job', jobId),
  modelNotFound: (modelId: string) => Errors.notFound('Model version', modelId),
  /** A transition the job's current status forbids (pausing a completed job, deleting a completed one...). */
  wrongState: (action: string, status: string, allowed: string) =>
    Errors.conflict(`Cannot ${action} a ${status} training job`, `${action} applies to ${allowed} jobs only`),
};
