/**
 * Step 2 of the feature pipeline: mono PCM -> per-frame descriptors (meyda) plus an onset strength envelope.
 *
 * Frame RMS is computed on the raw samples: meyda's rms is taken after the Hann window, which reads about
 * 4 dB low, and loudness is reported in dBFS.
 *
 * Two time grids share one analysis window (2048 samples, Hann):
 *  - feature frames every HOP_SIZE samples: rms, chroma, mfcc, spectral centroid;
 *  - onset frames every ONSET_HOP samples (twice as dense): spectral flux only. Tempo needs the finer grid;
 *    at 1024 samples a 128 BPM beat period is 10.1 frames and the lag grid alone is off by several BPM.
 * Every other onset frame is a feature frame, so the FFT of those is shared.
 *
 * meyda's own spectralFlux extractor indexes the signal with negative offsets (meyda issue #852), so the
 * flux here is computed from meyda's amplitude spectrum instead.
 */

import meydaExports from 'meyda';
import { AudioTooShortError } from './errors.js';

/**
 * meyda ships CommonJS whose module.exports is the Meyda object itself, while its typings declare an ES
 * default export; under NodeNext the default import is therefore typed as the namespace. Re-type it once.
 */
type MeydaApi = (typeof meydaExports)['default'];
const Meyda = meydaExports as unknown as MeydaApi;

export const FRAME_SIZE = 2048;
export const HOP_SIZE = 1024;
export const ONSET_HOP = 512;
export const MFCC_COUNT = 13;
export const CHROMA_BINS = 12;

export interface FrameFeatures {
  sampleRate: number;
  frameCount: number;
  /** Seconds between feature frames. */
  hopSec: number;
  rms: Float32Array;
  /** frameCount x 12, row-major; each frame scaled so its largest bin is 1 (meyda's convention). C first. */
  chroma: Float32Array;
  /** frameCount x 13, row-major. */
  mfcc: Float32Array;
  spectralCentroidHz: Float32Array;
  /** Seconds between onset envelope values. */
  onsetHopSec: number;
  /** Half-wave rectified log-spectral flux, one value per onset frame. */
  onsetEnvelope: Float32Array;
}

type MeydaCache = { chromaFilterBank?: unknown; melFilterBank?: unknown; barkScale?: unknown };
let configuredFor: string | undefined;

/**
 * meyda keeps its settings and filter banks on a module-global object and only rebuilds the banks when the
 * buffer length changes, not the sample rate. Reset them whenever our configuration differs.
 */
function configureMeyda(sampleRate: number): void {
  const key = `${sampleRate}/${FRAME_SIZE}`;
  if (configuredFor === key) return;
  // meyda's types do not declare the filter banks it caches on itself (see above), so they are reached untyped.
  const cache = Meyda as unknown as MeydaCache;
  delete cache.chromaFilterBank;
  delete cache.melFilterBank;
  delete cache.barkScale;
  Meyda.bufferSize = FRAME_SIZE;
  Meyda.sampleRate = sampleRate;
  Meyda.numberOfMFCCCoefficients = MFCC_COUNT;
  Meyda.melBands = 26;
  Meyda.chromaBands = CHROMA_BINS;
  Meyda.windowingFunction = 'hanning';
  configuredFor = key;
}

export function analyseFrames(pcm: Float32Array, sampleRate: number): FrameFeatures {
  if (pcm.length < FRAME_SIZE) throw new AudioTooShortError(pcm.length, FRAME_SIZE);
  configureMeyda(sampleRate);

  const onsetFrames = Math.floor((pcm.length - FRAME_SIZE) / ONSET_HOP) + 1;
  const framesPerOnset = HOP_SIZE / ONSET_HOP;
  const frameCount = Math.floor((onsetFrames - 1) / framesPerOnset) + 1;

  const rms = new Float32Array(frameCount);
  const chroma = new Float32Array(frameCount * CHROMA_BINS);
  const mfcc = new Float32Array(frameCount * MFCC_COUNT);
  const centroid = new Float32Array(frameCount);
  const onsetEnvelope = new Float32Array(onsetFrames);
  const binHz = sampleRate / FRAME_SIZE;

  let previousLogSpectrum: Float32Array | undefined;
  for (let k = 0; k < onsetFrames; k++) {
    const window = pcm.subarray(k * ONSET_HOP, k * ONSET_HOP + FRAME_SIZE);
    const isFeatureFrame = k % framesPerOnset === 0;
    const extracted = isFeatureFrame
      ? Meyda.extract(['amplitudeSpectrum', 'chroma', 'mfcc', 'spectralCentroid'], window)
      : Meyda.extract(['amplitudeSpectrum'], window);
    if (!extracted?.amplitudeSpectrum) throw new Error('meyda returned no spectrum');

    const logSpectrum = compressSpectrum(extracted.amplitudeSpectrum);
    onsetEnvelope[k] = previousLogSpectrum ? positiveFlux(logSpectrum, previousLogSpectrum) : 0;
    previousLogSpectrum = logSpectrum;

    if (isFeatureFrame) {
      const f = k / framesPerOnset;
      rms[f] = rootMeanSquare(window);
      // Silent frames give NaN chroma (0/0 in meyda's max-normalisation) and -Infinity log-mel bands.
      chroma.set(finiteOrZero(extracted.chroma ?? []), f * CHROMA_BINS);
      mfcc.set(finiteOrZero(extracted.mfcc ?? []), f * MFCC_COUNT);
      // meyda's centroid is a bin index, not Hz.
      centroid[f] = Number.isFinite(extracted.spectralCentroid) ? (extracted.spectralCentroid as number) * binHz : 0;
    }
  }

  return {
    sampleRate,
    frameCount,
    hopSec: HOP_SIZE / sampleRate,
    rms,
    chroma,
    mfcc,
    spectralCentroidHz: centroid,
    onsetHopSec: ONSET_HOP / sampleRate,
    onsetEnvelope,
  };
}

/** Log compression makes the flux respond to relative change, so quiet hi-hats register next to loud kicks. */
function compressSpectrum(amplitude: Float32Array): Float32Array {
  const out = new Float32Array(amplitude.length);
  for (let i = 0; i < amplitude.length; i++) out[i] = Math.log1p(100 * amplitude[i]);
  return out;
}

function positiveFlux(current: Float32Array, previous: Float32Array): number {
  let sum = 0;
  for (let i = 1; i < current.length; i++) {
    const rise = current[i] - previous[i];
    if (rise > 0) sum += rise;
  }
  return sum / current.length;
}

function rootMeanSquare(samples: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i] * samples[i];
  return Math.sqrt(sum / samples.length);
}

function finiteOrZero(values: ArrayLike<number>): number[] {
  return Array.from(values, (v) => (Number.isFinite(v) ? v : 0));
}

/** Row `frame` of a row-major matrix with `width` columns. */
export function row(matrix: Float32Array, width: number, frame: number): Float32Array {
  return matrix.subarray(frame * width, (frame + 1) * width);
}
