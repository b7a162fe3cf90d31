/** Typed errors of style-embedding training, each carrying a stable code the training service can map. */

export class TrainingDivergedError extends Error {
  readonly code = 'TRAINING_DIVERGED';
  constructor(
    readonly epoch: number,
    readonly step: number,
    detail: string,
  ) {
    super(`style embedding training diverged at epoch ${epoch}, step ${step}: ${detail}`);
    this.name = 'TrainingDivergedError';
  }
}

export class InvalidTrainingInputError extends Error {
  readonly code = 'INVALID_TRAINING_INPUT';
  constructor(detail: string) {
    super(`invalid style embedding training input: ${detail}`);
    this.name = 'InvalidTrainingInputError';
  }
}

export class CheckpointMismatchError extends Error {
  readonly code = 'CHECKPOINT_MISMATCH';
  constructor(detail: string) {
    super(`cannot resume from checkpoint: ${detail}`);
    this.name = 'CheckpointMismatchError';
  }
}
