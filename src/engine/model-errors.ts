/**
 * Typed errors of the music engine. Callers (the training service, the generation queue) map them to the
 * spec's codes once, at their edge; here they only carry what went wrong.
 */

/** Training produced a non-finite loss: the learning rate is too high or the data is degenerate. */
export class TrainingDivergedError extends Error {
  override readonly name = 'TrainingDivergedError';
  constructor(
    readonly epoch: number,
    readonly step: number,
    readonly loss: number,
  ) {
    super(`audio model training diverged at epoch ${epoch}, step ${step} (loss ${loss})`);
  }
}

/** Hyperparameters that cannot train anything (zero epochs, negative learning rate, ...). */
export class InvalidHyperparamsError extends Error {
  override readonly name = 'InvalidHyperparamsError';
}

/** A checkpoint or serialised model that this code version cannot read. */
export class ModelFormatError extends Error {
  override readonly name = 'ModelFormatError';
}

/** Training was asked to stop (pause/cancel) through shouldStop(); carries the last checkpoint. */
export class TrainingStoppedError extends Error {
  override readonly name = 'TrainingStoppedError';
  constructor(readonly checkpoint: unknown) {
    super('audio model training stopped at a checkpoint');
  }
}

/** A generation job failed inside a render worker (crash, timeout or error thrown by the pipeline). */
export class GenerationFailedError extends Error {
  override readonly name = 'GenerationFailedError';
  constructor(
    message: string,
    readonly reason: 'crash' | 'timeout' | 'error' | 'shutdown',
  ) {
    super(message);
  }
}
