/** Typed errors of the feature extractor, so callers (ingest, training) can tell bad input from bugs. */

export class AudioDecodeError extends Error {
  readonly code = 'AUDIO_DECODE_FAILED';
  constructor(
    readonly format: string,
    detail: string,
  ) {
    super(`cannot decode ${format}: ${detail}`);
    this.name = 'AudioDecodeError';
  }
}

export class AudioTooShortError extends Error {
  readonly code = 'AUDIO_TOO_SHORT';
  constructor(
    readonly samples: number,
    readonly minimumSamples: number,
  ) {
    super(`audio has ${samples} samples; feature extraction needs at least ${minimumSamples}`);
    this.name = 'AudioTooShortError';
  }
}
