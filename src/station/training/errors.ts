/** Module C's domain errors; the error handler adds the STATION_ prefix and renders the envelope. */
import { EngineError } from '../../engine/errors.js';
import { DomainError, Errors, type PublicFailure } from '../../errors.js';

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
  /** The job's base model was deleted between the request and the run. */
  baseModelGone: (baseModelId: string) => Errors.notFound('Base model', baseModelId),
  /** A training failure a client can act on, in the station's words. */
  failed: (message: string) => new DomainError('failed', 'TRAINING_FAILED', message),
};

/** What a job failure that is not the client's to act on says: fixed per stage, no internal text in it. */
export function internalTrainingFailure(stage: string): PublicFailure {
  return { code: 'TRAINING_FAILED', message: `Training failed in stage ${stage} (an internal error; it was logged on the server with the job id)` };
}

/**
 * An engine failure as a DomainError when its cause is the job's input (hyperparameters, dataset, checkpoint,
 * base model) or the training itself diverging: what the client can act on. Anything else (a crashed or
 * timed-out worker, an engine bug, an unreachable ML service) is answered as it is, so `publicFailure` turns
 * it into the coarse message: its text may hold paths, addresses or library messages.
 */
export function trainingFailureOf(error: unknown): unknown {
  if (!(error instanceof EngineError)) return error;
  switch (error.code) {
    case 'TRAINING_DIVERGED': {
      const epoch = error.details?.epoch;
      const at = typeof epoch === 'number' && Number.isInteger(epoch) ? ` at epoch ${epoch}` : '';
      return TrainingErrors.failed(`Training diverged${at}: the loss is no longer finite; try a lower learning_rate`);
    }
    case 'INVALID_HYPERPARAMS':
      // The engine's hyperparameter checks name the field and the rule ("learning_rate must be positive").
      return TrainingErrors.failed(`Invalid hyperparameters: ${error.message.slice(0, 200)}`);
    case 'INVALID_INPUT':
      if (error.details?.reason === 'CHECKPOINT_MISMATCH') {
        return TrainingErrors.failed("The last checkpoint does not fit this job's dataset or hyperparameters; delete the job and start a new one");
      }
      return TrainingErrors.failed('The dataset snapshot holds no usable training input for this model type');
    case 'ARTIFACT_INVALID':
      if (error.details?.reason === 'FETCH_FAILED') return error; // our network, not the client's input
      return TrainingErrors.failed('The base model or the checkpoint is not a valid model of this type');
    case 'CRASHED':
      return TrainingErrors.failed('The training worker stopped unexpectedly several times; the job was given up');
    default:
      return error;
  }
}
