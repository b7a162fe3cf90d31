/**
 * Playout test support: tone masters with known levels and shapes, a listener's capture decoded back to PCM,
 * and the measurements the playout tests make on it (tone levels by Goertzel, loudness, silence, jumps).
 */
import { createFlacStream, quantise } from '../../src/engine/audio/flac-encode.js';
import { MPEGDecoder } from 'mpg123-decoder';
import { createMp3Encoder } from 'wasm-media-encoders';
import { KWeightingFilter } from '../../src/engine/audio/k-weighting.js';
import { LoudnessMeter } from '../../src/engine/audio/loudness.js';

export const RATE = 44100;

export interface ToneSpec {
  frequencyHz: number;
  /** Peak amplitude (1 = full scale). */
  amplitude: number;
  seconds: number;
  /** Digital silence before and after the tone. */
  silenceBeforeSec?: number;
  silenceAfterSec?: number;
  /** Linear-in-dB fades from/to -60 dB. */
  fadeInSec?: number;
  fadeOutSec?: number;
  /** Starting phase (radians): pi/2 starts, and with whole cycles ends, on a peak, a click unless faded. */
  phase?: number;
}

/** The tone as PCM (the same in both channels). */
export function tonePcm(spec: ToneSpec, rate = RATE): Float32Array {
  const before = Math.round((spec.silenceBeforeSec ?? 0) * rate);
  const tone = Math.round(spec.seconds * rate);
  const after = Math.round((spec.silenceAfterSec ?? 0) * rate);
  const out = new Float32Array(before + tone + after);
  const fadeIn = Math.round((spec.fadeInSec ?? 0) * rate);
  const fadeOut = Math.round((spec.fadeOutSec ?? 0) * rate);
  for (let i = 0; i < tone; i++) {
    let db = 0;
    if (i < fadeIn) db = -60 * (1 - i / fadeIn);
    if (tone - i <= fadeOut) db = Math.min(db, -60 * (1 - (tone - i) / fadeOut));
    out[before + i] = spec.amplitude * 10 ** (db / 20) * Math.sin((2 * Math.PI * spec.frequencyHz * i) / rate + (spec.phase ?? 0));
  }
  return out;
}

export async function encodeMp3(left: Float32Array, right = left, kbps: 128 | 192 | 320 = 128): Promise<Buffer> {
  const encoder = await createMp3Encoder();
  encoder.configure({ sampleRate: RATE, channels: 2, bitrate: kbps });
  return Buffer.concat([encoder.encode([left, right]).slice(), encoder.finalize().slice()]);
}

/** A 16-bit FLAC of the samples, as the station's masters are stored. */
export function encodeFlac(left: Float32Array, right = left): Buffer {
  const stream = createFlacStream({ sampleRate: RATE, channels: 2, bitsPerSample: 16 });
  const head = stream.header();
  const frames = stream.write([quantise(left, 16), quantise(right, 16)]);
  const end = stream.finish();
  const bytes = Buffer.concat([head, frames, end.frames]);
  bytes.set(end.header, 0);
  return bytes;
}

export async function toneMaster(spec: ToneSpec): Promise<Buffer> {
  return encodeMp3(tonePcm(spec));
}

export async function decodeMp3(bytes: Uint8Array): Promise<{ left: Float32Array; right: Float32Array }> {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  const parts: Float32Array[][] = [];
  let total = 0;
  for (let at = 0; at < bytes.length; at += 16 * 1024) {
    const out = decoder.decode(bytes.subarray(at, at + 16 * 1024));
    if (out.samplesDecoded === 0) continue;
    parts.push(out.channelData.map((channel) => channel.slice(0, out.samplesDecoded)));
    total += out.samplesDecoded;
  }
  decoder.free();
  const left = new Float32Array(total);
  const right = new Float32Array(total);
  let at = 0;
  for (const [l, r] of parts) {
    left.set(l, at);
    right.set(r ?? l, at);
    at += l.length;
  }
  return { left, right };
}

/** Amplitude of the `frequencyHz` component over signal[from, from + length) (Goertzel, Hann window). */
export function toneAmplitude(signal: Float32Array, frequencyHz: number, from: number, length: number): number {
  const w = (2 * Math.PI * frequencyHz) / RATE;
  const coefficient = 2 * Math.cos(w);
  let s1 = 0;
  let s2 = 0;
  let windowSum = 0;
  for (let i = 0; i < length; i++) {
    const hann = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (length - 1));
    windowSum += hann;
    const s0 = (signal[from + i] ?? 0) * hann + coefficient * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  const power = s1 * s1 + s2 * s2 - coefficient * s1 * s2;
  return (2 * Math.sqrt(Math.max(0, power))) / windowSum;
}

/** Tone amplitudes every `hop` samples (window 2048), as [sample at window centre, amplitude]. */
export function toneTrack(signal: Float32Array, frequencyHz: number, hop = 256, window = 2048): Float64Array {
  const count = Math.max(0, Math.floor((signal.length - window) / hop));
  const out = new Float64Array(count);
  for (let k = 0; k < count; k++) out[k] = toneAmplitude(signal, frequencyHz, k * hop, window);
  return out;
}

export function loudnessOf(left: Float32Array, right: Float32Array, from: number, to: number): number | null {
  const meter = new LoudnessMeter(RATE, 2);
  meter.push([left.subarray(from, to), right.subarray(from, to)], to - from);
  return meter.integrated();
}

/** The longest run of samples under `level` in both channels, within [from, to). */
export function longestSilence(left: Float32Array, right: Float32Array, from: number, to: number, level: number): number {
  let longest = 0;
  let run = 0;
  for (let i = from; i < to; i++) {
    if (Math.abs(left[i]) < level && Math.abs(right[i]) < level) longest = Math.max(longest, ++run);
    else run = 0;
  }
  return longest;
}

/** The largest sample-to-sample step within [from, to). */
export function largestStep(signal: Float32Array, from: number, to: number): number {
  let largest = 0;
  for (let i = Math.max(1, from); i < to; i++) largest = Math.max(largest, Math.abs(signal[i] - signal[i - 1]));
  return largest;
}

/**
 * Short-term loudness (BS.1770 K-weighting, ungated, `windowSec` windows) every `hopSec`, as
 * [window start in samples, LUFS]: what a loudness meter shows while the stream plays.
 */
export function shortTermLoudness(left: Float32Array, right: Float32Array, windowSec = 3, hopSec = 0.1): [number, number][] {
  const step = Math.round(hopSec * RATE);
  const filters = [new KWeightingFilter(RATE), new KWeightingFilter(RATE)];
  const steps: number[] = [];
  for (let at = 0; at + step <= left.length; at += step)
    steps.push(filters[0].sumOfSquares(left, at, at + step) + filters[1].sumOfSquares(right, at, at + step));
  const perWindow = Math.round(windowSec / hopSec);
  const out: [number, number][] = [];
  for (let k = 0; k + perWindow <= steps.length; k++) {
    let sum = 0;
    for (let j = k; j < k + perWindow; j++) sum += steps[j];
    out.push([k * step, -0.691 + 10 * Math.log10(sum / (perWindow * step) + 1e-20)]);
  }
  return out;
}
