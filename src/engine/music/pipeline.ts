/**
 * generateTrack: compose -> render (blocks) -> encode (same blocks) -> label, plus title, waveform and
 * cover. Rendering and encoding are interleaved: each 8192-sample block is encoded and dropped, so memory
 * stays flat whatever the track length. Same request => byte-identical MP3.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { AudioQuality, Mode, MusicContext, ProgressFn } from '../types.js';
import { type AudioModel, styleFor } from './audio-model.js';
import { composeScore } from './compose/index.js';
import type { Section } from './compose/score.js';
import { genreFamily, type GenreFamily } from './compose/style.js';
import { generateCoverPng } from './cover.js';
import { createMp3Stream } from './encode.js';
import { buildId3Tag } from './id3.js';
import { SAMPLE_RATE, renderScore } from './render.js';
import { generateTitle } from './title.js';
import { WaveformBuilder, type WaveformPeaks } from './waveform.js';

export interface GenerateTrackRequest {
  context: MusicContext;
  seed: number;
  maxDurationSec: number;
  quality: AudioQuality;
  model: AudioModel;
  modelVersion: string;
  /** Station identity for the ID3 AI label; stationTrackId is usually only known after registration. */
  label?: { stationName: string; stationTrackId?: string };
  /** Write the MP3 here instead of returning it in memory. */
  outputPath?: string;
  /** Words a lyrics model offers for the title. */
  titleWords?: string[];
}

export interface GeneratedTrack {
  mp3: Buffer | null; // null when written to outputPath
  mp3Path: string | null;
  mp3Bytes: number;
  durationSec: number;
  bpm: number;
  key: string;
  mode: Mode;
  title: string;
  sections: Section[];
  waveform: WaveformPeaks;
  coverPng: Buffer;
  timings: { composeMs: number; renderMs: number; encodeMs: number };
}

export const DEFAULT_STATION_NAME = 'Station';
const WAVEFORM_SAMPLES_PER_PIXEL = 1024;
const REVERB_BY_FAMILY: Record<GenreFamily, number> = { ambient: 0.65, jazz: 0.3, lofi: 0.25, folk: 0.3, electronic: 0.35, pop: 0.25, rock: 0.2 };
// Make-up gain after the dry synth (FluidR3 at GM volumes peaks around -12 dBFS); the limiter catches peaks.
const GAIN_BY_FAMILY: Record<GenreFamily, number> = { ambient: 6, jazz: 4, lofi: 3.5, folk: 3.8, electronic: 2.6, pop: 3, rock: 2.8 };
/** Mean RMS level (dBFS) that the family gains above were set for; learned loudness moves it from here. */
const REFERENCE_LOUDNESS_DB = -14;
const COMPOSE_SHARE = 2; // percent of progress given to composing

export async function generateTrack(req: GenerateTrackRequest, onProgress?: ProgressFn): Promise<GeneratedTrack> {
  if (!(req.maxDurationSec > 0)) throw new RangeError('maxDurationSec must be positive');
  const composeStarted = performance.now();
  const score = composeScore(req);
  const title = generateTitle(req.context, req.seed, req.titleWords);
  const composeMs = performance.now() - composeStarted;
  onProgress?.(COMPOSE_SHARE, 0);

  const tag = buildId3Tag({
    title,
    stationName: req.label?.stationName ?? DEFAULT_STATION_NAME,
    modelVersion: req.modelVersion,
    stationTrackId: req.label?.stationTrackId,
    genre: req.context.genre,
    bpm: score.bpm,
    key: `${score.key}${score.mode === 'minor' ? 'm' : ''}`,
  });
  const sink = createSink(req.outputPath);
  sink.write(tag);

  const mp3 = await createMp3Stream(req.quality);
  const waveform = new WaveformBuilder(SAMPLE_RATE, WAVEFORM_SAMPLES_PER_PIXEL);
  let encodeMs = 0;
  const renderStarted = performance.now();
  await renderScore(score, {
    durationSec: req.maxDurationSec,
    reverbMix: REVERB_BY_FAMILY[genreFamily(req.context)],
    masterGain: masterGain(req),
    onBlock(left, right) {
      const encodeStarted = performance.now();
      waveform.add(left, right);
      sink.write(mp3.write(left, right));
      encodeMs += performance.now() - encodeStarted;
    },
    onProgress: onProgress && ((pct, eta) => onProgress(COMPOSE_SHARE + (pct * (100 - COMPOSE_SHARE)) / 100, eta)),
  });
  const finishStarted = performance.now();
  sink.write(mp3.finish());
  encodeMs += performance.now() - finishStarted;
  const renderMs = performance.now() - renderStarted - encodeMs;
  const written = sink.close();

  return {
    ...written,
    durationSec: req.maxDurationSec,
    bpm: score.bpm,
    key: score.key,
    mode: score.mode,
    title,
    sections: score.sections,
    waveform: waveform.finish(),
    coverPng: generateCoverPng(req.context, req.seed),
    timings: { composeMs, renderMs, encodeMs },
  };
}

/** The family's make-up gain, nudged towards the loudness the catalog's tracks of this style have. */
function masterGain(req: GenerateTrackRequest): number {
  const counts = styleFor(req.model, req.context.genre, req.context.mood).counts;
  const gain = GAIN_BY_FAMILY[genreFamily(req.context)];
  if (counts.tracks === 0) return gain;
  const learnedDb = counts.loudnessDbSum / counts.tracks;
  return gain * Math.min(2, Math.max(0.5, 10 ** ((learnedDb - REFERENCE_LOUDNESS_DB) / 20)));
}

/** Where the MP3 bytes go: memory chunks, or a file written as they are produced. */
function createSink(path: string | undefined) {
  const chunks: Uint8Array[] = [];
  const fd = path ? openSync(path, 'w') : null;
  let bytes = 0;
  return {
    write(data: Uint8Array) {
      if (data.length === 0) return;
      bytes += data.length;
      if (fd !== null) writeSync(fd, data);
      else chunks.push(data);
    },
    close(): { mp3: Buffer | null; mp3Path: string | null; mp3Bytes: number } {
      if (fd !== null) closeSync(fd);
      return { mp3: fd === null ? Buffer.concat(chunks) : null, mp3Path: path ?? null, mp3Bytes: bytes };
    },
  };
}
