/**
 * The engine's one error type, as seen by the station. Each engine folder throws its own typed errors
 * (lyrics UnsupportedLanguageError, music TrainingDivergedError, ...); `toEngineError` maps them onto an
 * EngineError code once, inside the worker, and the plain `EngineErrorJson` form crosses postMessage (or
 * the ML service's HTTP response) and is rebuilt with `EngineError.fromJSON`, so `instanceof EngineError`
 * and `code` survive the thread boundary.
 */
import { AudioDecodeError, AudioTooShortError } from './features/errors.js';
import {
  InvalidCorpusError,
  InvalidStructureError,
  ModelFormatError as LyricsModelFormatError,
  TrainingDivergedError as LyricsTrainingDivergedError,
  UnknownArtistError,
  UnsupportedLanguageError,
} from './lyrics/errors.js';
import { LyricsGenerationError } from './lyrics/generate.js';
import {
  GenerationFailedError,
  InvalidHyperparamsError,
  ModelFormatError as AudioModelFormatError,
  TrainingDivergedError as AudioTrainingDivergedError,
} from './model-errors.js';
import { CheckpointMismatchError, InvalidTrainingInputError, TrainingDivergedError as StyleTrainingDivergedError } from './style/errors.js';

export type EngineErrorCode =
  | 'UNSUPPORTED_LANGUAGE'
  | 'UNKNOWN_ARTIST'
  | 'INVALID_INPUT'
  | 'INVALID_HYPERPARAMS'
  | 'TRAINING_DIVERGED'
  | 'GENERATION_FAILED'
  /** An artifact whose bytes do not match its sha256, or that is not the model/reference it claims to be. */
  | 'ARTIFACT_INVALID'
  | 'TIMEOUT'
  | 'CRASHED'
  | 'SHUTDOWN'
  /** An unexpected error inside the engine (a bug): the message is for logs, not for API clients. */
  | 'INTERNAL';

export interface EngineErrorJson {
  code: EngineErrorCode;
  message: string;
  /** The task or step that failed: 'generateTrack', 'train', 'artifact', ... */
  stage?: string;
  /** Name of the original error class, for logs ('UnsupportedLanguageError'). */
  cause?: string;
  /** Small JSON details a client may show (the supported languages, the unknown artist ids ...). */
  details?: Record<string, unknown>;
}

export class EngineError extends Error {
  override readonly name = 'EngineError';
  readonly code: EngineErrorCode;
  readonly stage?: string;
  readonly causeName?: string;
  readonly details?: Record<string, unknown>;

  constructor(code: EngineErrorCode, message: string, opts: { stage?: string; cause?: string; details?: Record<string, unknown> } = {}) {
    super(message);
    this.code = code;
    this.stage = opts.stage;
    this.causeName = opts.cause;
    this.details = opts.details;
  }

  toJSON(): EngineErrorJson {
    return { code: this.code, message: this.message, stage: this.stage, cause: this.causeName, details: this.details };
  }

  static fromJSON(json: EngineErrorJson): EngineError {
    return new EngineError(json.code, json.message, { stage: json.stage, cause: json.cause, details: json.details });
  }

  static timeout(stage: string, ms: number): EngineError {
    return new EngineError('TIMEOUT', `${stage} timed out after ${ms} ms`, { stage });
  }

  static crashed(stage: string, detail: string): EngineError {
    return new EngineError('CRASHED', `engine worker crashed during ${stage}: ${detail}`, { stage });
  }

  static shutdown(stage: string): EngineError {
    return new EngineError('SHUTDOWN', `engine is shut down; ${stage} was not run`, { stage });
  }
}

/** Maps any error thrown by an engine folder onto an EngineError (identity kept for EngineErrors). */
export function toEngineError(error: unknown, stage?: string): EngineError {
  if (error instanceof EngineError) return error.stage || !stage ? error : new EngineError(error.code, error.message, { ...error.toJSON(), stage });
  const cause = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  const make = (code: EngineErrorCode, details?: Record<string, unknown>) => new EngineError(code, message, { stage, cause, details });

  if (error instanceof UnsupportedLanguageError) return make('UNSUPPORTED_LANGUAGE', { language: error.language, supported: error.supported });
  if (error instanceof UnknownArtistError) return make('UNKNOWN_ARTIST', { artistIds: error.artistIds, language: error.language });
  if (error instanceof InvalidStructureError) return make('INVALID_INPUT', { reason: error.code });
  if (error instanceof InvalidCorpusError || error instanceof InvalidTrainingInputError) return make('INVALID_INPUT');
  if (error instanceof CheckpointMismatchError) return make('INVALID_INPUT', { reason: 'CHECKPOINT_MISMATCH' });
  if (error instanceof LyricsModelFormatError || error instanceof AudioModelFormatError) return make('ARTIFACT_INVALID');
  if (error instanceof InvalidHyperparamsError) return make('INVALID_HYPERPARAMS');
  if (error instanceof AudioTrainingDivergedError || error instanceof LyricsTrainingDivergedError || error instanceof StyleTrainingDivergedError) {
    return make('TRAINING_DIVERGED', { epoch: error.epoch, step: error.step });
  }
  if (error instanceof LyricsGenerationError) return make('GENERATION_FAILED');
  if (error instanceof AudioDecodeError || error instanceof AudioTooShortError) return make('INVALID_INPUT', { reason: error.code });
  if (error instanceof GenerationFailedError) {
    const byReason = { crash: 'CRASHED', timeout: 'TIMEOUT', shutdown: 'SHUTDOWN', error: 'GENERATION_FAILED' } as const;
    return make(byReason[error.reason]);
  }
  // The pipeline validates its request with RangeError (e.g. a non-positive duration).
  if (error instanceof RangeError) return make('INVALID_INPUT');
  return make('INTERNAL');
}
