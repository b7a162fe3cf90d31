/**
 * Step 6 of the feature pipeline: everything together -> AudioFeatures.
 *
 *   bytes --decode--> mono PCM --frames--> chroma/mfcc/rms/centroid + onset envelope
 *         --tempo--> BPM, beats --key--> key/mode --chords--> beatChords --fingerprint--> codes --> AudioFeatures
 */

import type { AudioFeatures } from '../types.js';
import { beatChords } from './chords.js';
import { fingerprint } from './fingerprint.js';
import { decodeAudio, type AudioFormat, type DecodeOptions } from './decode.js';
import { analyseFrames, CHROMA_BINS, FRAME_SIZE, MFCC_COUNT, ONSET_HOP, type FrameFeatures } from './frames.js';
import { AUDIO_KEY_PROFILES, estimateKey } from './key.js';
import { pickOnsets, type OnsetEnvelope } from './onsets.js';
import { estimateTempo, tempoFromBeats, trackBeats } from './tempo.js';

/** Frames below this RMS (-80 dBFS) are silence and do not count towards averages. */
const SILENCE_RMS = 1e-4;
/** RMS levels mapped linearly (in dB) onto energy 0..1: -48 dBFS is near-silent, -6 dBFS is a hot master. */
const ENERGY_FLOOR_DB = -48;
const ENERGY_CEILING_DB = -6;
/** Beat-derived tempo replaces the autocorrelation estimate only when they agree this closely. */
const BEAT_REFINEMENT_TOLERANCE = 0.04;
/** Harmony still matters to the audio model when no beat is found (rubato, drones): use a fixed grid. */
const FALLBACK_BEAT_SEC = 0.5;

export async function extractFeaturesFromFile(bytes: Uint8Array, format: AudioFormat, options: DecodeOptions = {}): Promise<AudioFeatures> {
  const { pcm, sampleRate } = await decodeAudio(bytes, format, options);
  return extractFeatures(pcm, sampleRate);
}

export function extractFeatures(pcm: Float32Array, sampleRate: number): AudioFeatures {
  const frames = analyseFrames(pcm, sampleRate);
  const envelope: OnsetEnvelope = {
    values: frames.onsetEnvelope,
    hopSec: frames.onsetHopSec,
    // Flux value k compares frames k-1 and k. With log compression an attack registers as soon as it enters
    // the newest hop of frame k, so that hop (not the frame centre) is where the onset happened.
    startSec: (FRAME_SIZE - ONSET_HOP) / sampleRate,
  };
  const durationSec = pcm.length / sampleRate;

  const tempo = estimateTempo(envelope);
  const beats = trackBeats(envelope, tempo.bpm);
  const refined = tempoFromBeats(beats);
  const tempoBpm = refined !== undefined && Math.abs(refined - tempo.bpm) <= BEAT_REFINEMENT_TOLERANCE * tempo.bpm ? refined : tempo.bpm;

  const active = activeFrames(frames);
  const chroma = meanChroma(frames, active);
  const key = estimateKey(chroma, AUDIO_KEY_PROFILES);
  const { mean: mfccMean, std: mfccStd } = mfccStatistics(frames, active);

  const loudnessDb = rmsToDb(powerMeanRms(frames.rms));
  const chordBeats = beats.length > 0 ? beats : fixedGrid(durationSec, FALLBACK_BEAT_SEC);

  return {
    durationSec,
    tempoBpm: round(tempoBpm, 2),
    tempoConfidence: round(tempo.confidence, 3),
    key: key.key,
    mode: key.mode,
    keyConfidence: round(key.confidence, 3),
    chroma,
    mfccMean,
    mfccStd,
    loudnessDb: round(loudnessDb, 2),
    energy: round(clamp01((loudnessDb - ENERGY_FLOOR_DB) / (ENERGY_CEILING_DB - ENERGY_FLOOR_DB)), 3),
    spectralCentroidHz: round(mean(active.map((f) => frames.spectralCentroidHz[f])), 1),
    onsetRate: round(pickOnsets(envelope).length / durationSec, 3),
    beatChords: beatChords({ chroma: frames.chroma, rms: frames.rms, hopSec: frames.hopSec, startSec: FRAME_SIZE / 2 / sampleRate }, chordBeats),
    fingerprint: fingerprint(frames),
  };
}

/** Indices of non-silent frames; all frames when the whole piece is silent. */
function activeFrames(frames: FrameFeatures): number[] {
  const active: number[] = [];
  for (let f = 0; f < frames.frameCount; f++) if (frames.rms[f] >= SILENCE_RMS) active.push(f);
  return active.length > 0 ? active : Array.from({ length: frames.frameCount }, (_, f) => f);
}

/** RMS-weighted mean chroma, normalised to sum 1 (uniform when there is no tonal content at all). */
function meanChroma(frames: FrameFeatures, active: number[]): number[] {
  const sum = new Array<number>(CHROMA_BINS).fill(0);
  for (const f of active) {
    const w = frames.rms[f];
    for (let c = 0; c < CHROMA_BINS; c++) sum[c] += w * frames.chroma[f * CHROMA_BINS + c];
  }
  const total = sum.reduce((a, b) => a + b, 0);
  return total > 0 ? sum.map((x) => round(x / total, 5)) : sum.map(() => round(1 / CHROMA_BINS, 5));
}

function mfccStatistics(frames: FrameFeatures, active: number[]): { mean: number[]; std: number[] } {
  const mean = new Array<number>(MFCC_COUNT).fill(0);
  const sq = new Array<number>(MFCC_COUNT).fill(0);
  for (const f of active) {
    for (let c = 0; c < MFCC_COUNT; c++) {
      const x = frames.mfcc[f * MFCC_COUNT + c];
      mean[c] += x;
      sq[c] += x * x;
    }
  }
  const n = Math.max(1, active.length);
  const m = mean.map((s) => s / n);
  const std = sq.map((s, c) => Math.sqrt(Math.max(0, s / n - m[c] * m[c])));
  return { mean: m.map((x) => round(x, 4)), std: std.map((x) => round(x, 4)) };
}

function powerMeanRms(rms: Float32Array): number {
  let sum = 0;
  for (const r of rms) sum += r * r;
  return Math.sqrt(sum / Math.max(1, rms.length));
}

function rmsToDb(rms: number): number {
  return 20 * Math.log10(Math.max(rms, 1e-6)); // floor at -120 dBFS so silence stays finite
}

function fixedGrid(durationSec: number, stepSec: number): number[] {
  return Array.from({ length: Math.max(1, Math.floor(durationSec / stepSec)) }, (_, i) => i * stepSec);
}

function mean(values: number[]): number {
  return values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

function clamp01(x: number): number {
  return Math.max(0, Math.min(1, x));
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
