/**
 * Typed errors of the lyrics engine. The HTTP layer maps the request errors (unsupported language, unknown
 * artist, unknown section) to 400 and the training errors to a failed job; nothing here knows about HTTP.
 */

export class LyricsEngineError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The model was not trained on any lyrics in the requested language. */
export class UnsupportedLanguageError extends LyricsEngineError {
  constructor(
    readonly language: string,
    readonly supported: string[],
  ) {
    super(`language "${language}" is not supported by this lyrics model (trained on: ${supported.join(', ') || 'none'})`, 'UNSUPPORTED_LANGUAGE');
  }
}

/** style_artist_ids names artists with no lyrics (in the requested language) in the training corpus. */
export class UnknownArtistError extends LyricsEngineError {
  constructor(
    readonly artistIds: string[],
    readonly language: string,
  ) {
    super(`no ${language} lyrics in the corpus for style artist(s): ${artistIds.join(', ')}`, 'UNKNOWN_ARTIST');
  }
}

/** A structure string that cannot be used: empty, or too many sections for a synchronous request. */
export class InvalidStructureError extends LyricsEngineError {
  constructor(message: string, code = 'INVALID_STRUCTURE') {
    super(message, code);
  }
}

/** A structure string names a section the engine does not know (e.g. "verse-choros"). */
export class UnknownSectionError extends InvalidStructureError {
  constructor(
    readonly section: string,
    readonly known: readonly string[],
  ) {
    super(`unknown section "${section}" (known: ${known.join(', ')})`, 'UNKNOWN_SECTION');
  }
}

/** Training produced a non-finite loss: learning rate too high, or corrupted weights in a base model. */
export class TrainingDivergedError extends LyricsEngineError {
  constructor(
    readonly epoch: number,
    readonly step: number,
    readonly language: string,
  ) {
    super(`neural lyrics model diverged (NaN/Infinity loss) at epoch ${epoch}, step ${step}, language ${language}`, 'TRAINING_DIVERGED');
  }
}

/** The corpus (or one language of it) is too small or malformed to train on. */
export class InvalidCorpusError extends LyricsEngineError {
  constructor(message: string) {
    super(message, 'INVALID_CORPUS');
  }
}

/** A serialised model or checkpoint does not match what this code can read. */
export class ModelFormatError extends LyricsEngineError {
  constructor(message: string) {
    super(message, 'MODEL_FORMAT');
  }
}
