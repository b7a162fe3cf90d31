/**
 * What the radio's playout needs to know about a track before it goes on air, from one decoding pass:
 *
 * - integrated loudness (BS.1770, the project's LoudnessMeter) and true peak: the on-air gain that brings
 *   it to the station's level without pushing its peaks past the ceiling;
 * - where its sound starts and ends (first and last sample above -60 dBFS): leading and trailing digital
 *   silence is never aired, so no join has a gap;
 * - its quiet intro and outro: how long, from the first sound, it stays more than QUIET_DB under its own
 *   loud level (its body) before it gets there (a fade-in, a soft intro), and how long it stays that quiet
 *   before its last sound (a fade-out, a reverb tail). The outro's start is the segue point: the next
 *   track comes in where the outgoing one falls a few LU under its body, as a presenter would bring it in,
 *   not at the end of its fade (crossfade.ts); a quiet intro is lifted on air (voice.ts).
 *
 * Levels for intro and outro are momentary (400 ms windows, every 100 ms), unweighted RMS over channels:
 * a single transient does not end an intro, and the K-weighting would only shift every level alike.
 */
import { LoudnessMeter } from './loudness.js';
import { decodePcm, type PcmFormat } from './pcm.js';
import { TruePeakMeter } from './true-peak.js';

export interface TrackAnalysis {
  durationSec: number;
  /** Integrated loudness in LUFS; null for silence. */
  loudnessLufs: number | null;
  /** dBTP; null for silence. */
  truePeakDbtp: number | null;
  soundStartSec: number;
  soundEndSec: number;
  introSec: number;
  outroSec: number;
}

/** A sample under this (-60 dBFS) is silence as far as joins are concerned. */
export const SILENCE_LEVEL = 0.001;
/**
 * Quieter than the track's loud level by this much counts as a quiet intro or outro. 6 dB: where a fade-out
 * has gone this far the track's body is over, and an intro this far under the body would leave a sag at
 * the join (measured: intros about 10 dB under the body, fades heard for 4-14 s under -20 LUFS).
 */
export const QUIET_DB = 6;
const STEP_SEC = 0.1;
const STEPS_PER_WINDOW = 4;

/** 16 KB of MP3 (about 1 s at 128 kbps) per bite: ~10 ms of work between two yields to the event loop. */
const MP3_BITE_BYTES = 16 * 1024;
const WAV_BITE_FRAMES = 32 * 1024;

/** Decodes `bytes` (in small bites, yielding between them) and measures it. */
export async function analyseTrack(bytes: Uint8Array, format: PcmFormat, signal?: AbortSignal): Promise<TrackAnalysis> {
  const analyser = new TrackAnalyser();
  for await (const chunk of decodePcm(bytes, format, undefined, { mp3ChunkBytes: MP3_BITE_BYTES, wavChunkFrames: WAV_BITE_FRAMES })) {
    signal?.throwIfAborted();
    analyser.push(chunk.channels, chunk.frames, chunk.sampleRate);
  }
  return analyser.result();
}

/** The streaming half of analyseTrack, for callers that already hold PCM. */
export class TrackAnalyser {
  private loudness: LoudnessMeter | null = null;
  private peak: TruePeakMeter | null = null;
  private sampleRate = 0;
  private frames = 0;
  private firstSound = -1;
  private lastSound = -1;
  private stepLength = 0;
  private stepEnergy = 0;
  private stepFill = 0;
  /** Mean square (over channels) of each 100 ms step. */
  private readonly steps: number[] = [];

  push(channels: readonly Float32Array[], frames: number, sampleRate: number): void {
    if (!this.loudness) {
      this.loudness = new LoudnessMeter(sampleRate, channels.length);
      this.peak = new TruePeakMeter(channels.length);
      this.sampleRate = sampleRate;
      this.stepLength = Math.round(sampleRate * STEP_SEC);
    }
    this.loudness.push(channels, frames);
    this.peak!.push(channels, frames);
    const count = channels.length;
    for (let i = 0; i < frames; i++) {
      let energy = 0;
      let loudest = 0;
      for (let c = 0; c < count; c++) {
        const x = channels[c][i];
        energy += x * x;
        const magnitude = x < 0 ? -x : x;
        if (magnitude > loudest) loudest = magnitude;
      }
      if (loudest > SILENCE_LEVEL) {
        if (this.firstSound < 0) this.firstSound = this.frames + i;
        this.lastSound = this.frames + i;
      }
      this.stepEnergy += energy / count;
      if (++this.stepFill === this.stepLength) this.closeStep();
    }
    this.frames += frames;
  }

  result(): TrackAnalysis {
    if (this.stepFill > 0) this.closeStep();
    const rate = this.sampleRate || 44100;
    const durationSec = this.frames / rate;
    if (this.firstSound < 0) {
      return { durationSec, loudnessLufs: null, truePeakDbtp: null, soundStartSec: 0, soundEndSec: 0, introSec: 0, outroSec: 0 };
    }
    const soundStartSec = this.firstSound / rate;
    const soundEndSec = (this.lastSound + 1) / rate;
    const { introSec, outroSec } = this.quietEdges(soundStartSec, soundEndSec);
    return {
      durationSec,
      loudnessLufs: this.loudness!.integrated(),
      truePeakDbtp: this.peak!.dbtp,
      soundStartSec,
      soundEndSec,
      introSec,
      outroSec,
    };
  }

  private closeStep(): void {
    this.steps.push(this.stepEnergy / Math.max(1, this.stepFill));
    this.stepEnergy = 0;
    this.stepFill = 0;
  }

  /** Momentary level of the window ending with step `i` (dB); windows at the edges hold fewer steps. */
  private windowDb(i: number): number {
    let sum = 0;
    let count = 0;
    for (let j = Math.max(0, i - STEPS_PER_WINDOW + 1); j <= i; j++, count++) sum += this.steps[j];
    return 10 * Math.log10(sum / count + 1e-20);
  }

  private quietEdges(soundStartSec: number, soundEndSec: number): { introSec: number; outroSec: number } {
    const first = Math.floor(soundStartSec / STEP_SEC);
    const last = Math.min(this.steps.length - 1, Math.ceil(soundEndSec / STEP_SEC) - 1);
    // The track's body: the power mean of the louder half of its audible steps. (The mean of all of them
    // counted a long fade-out or intro as body: a 10 s fade put the threshold 3 dB lower, the segue late.)
    const audible: number[] = [];
    for (let i = first; i <= last; i++) if (this.steps[i] > SILENCE_LEVEL * SILENCE_LEVEL) audible.push(this.steps[i]);
    if (audible.length === 0) return { introSec: 0, outroSec: 0 };
    audible.sort((x, y) => y - x);
    const louder = audible.slice(0, Math.ceil(audible.length / 2));
    const sum = louder.reduce((total, step) => total + step, 0);
    const count = louder.length;
    const threshold = 10 * Math.log10(sum / count) - QUIET_DB;
    let loudFrom = first;
    // A window is centred STEPS_PER_WINDOW / 2 steps before the step it ends with.
    while (loudFrom <= last && this.windowDb(Math.min(last, loudFrom + STEPS_PER_WINDOW / 2)) < threshold) loudFrom++;
    let loudTo = last;
    while (loudTo >= loudFrom && this.windowDb(Math.min(last, loudTo + STEPS_PER_WINDOW / 2)) < threshold) loudTo--;
    const introSec = Math.max(0, Math.min(soundEndSec, loudFrom * STEP_SEC) - soundStartSec);
    const outroSec = Math.max(0, soundEndSec - Math.max(soundStartSec, (loudTo + 1) * STEP_SEC));
    return { introSec: round3(introSec), outroSec: round3(outroSec) };
  }
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** A render with a hole longer than this (below HOLE_DBFS, after its first sound) is rejected by the pipeline. */
export const MAX_RENDER_HOLE_SEC = 1;
/** A hole is a run of samples under this level (-50 dBFS) in every channel. */
export const HOLE_LEVEL = 10 ** (-50 / 20);

/**
 * The longest hole in a track: a run of samples under -50 dBFS between its first and its last sound (its
 * leading and trailing silence never air, so they are not holes). A render with one over a second is
 * rejected before it reaches the radio ("Velvet Hour": a chord, then 3.58 s under -60 dBFS).
 */
export async function longestHoleSec(bytes: Uint8Array, format: PcmFormat, signal?: AbortSignal): Promise<number> {
  const scanner = new HoleScanner();
  for await (const chunk of decodePcm(bytes, format, undefined, { mp3ChunkBytes: MP3_BITE_BYTES, wavChunkFrames: WAV_BITE_FRAMES })) {
    signal?.throwIfAborted();
    scanner.push(chunk.channels, chunk.frames, chunk.sampleRate);
  }
  return scanner.longestSec;
}

/** The streaming half of longestHoleSec. */
export class HoleScanner {
  private sampleRate = 44100;
  private heard = false;
  private run = 0;
  private longest = 0;

  push(channels: readonly Float32Array[], frames: number, sampleRate: number): void {
    this.sampleRate = sampleRate;
    for (let i = 0; i < frames; i++) {
      let loud = false;
      for (const channel of channels) {
        const x = channel[i];
        if (x > HOLE_LEVEL || x < -HOLE_LEVEL) {
          loud = true;
          break;
        }
      }
      if (loud) {
        // Sound again: the run behind it was a hole (if the track had sounded before it).
        if (this.heard && this.run > this.longest) this.longest = this.run;
        this.heard = true;
        this.run = 0;
      } else if (this.heard) this.run++;
    }
  }

  get longestSec(): number {
    return this.longest / this.sampleRate;
  }
}
