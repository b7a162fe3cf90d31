/**
 * generateTrack: compose -> render + mix + master (render.ts, src/engine/mix) -> encode (blocks) -> label,
 * plus title, waveform and cover. The mix is held as one float buffer (63 MB for 180 s) so the master can
 * be measured and brought to -14 LUFS before encoding; the mastered blocks are encoded and dropped one by
 * one. Same request => byte-identical master and MP3.
 *
 * The master is kept lossless: each mastered block is rounded to 16-bit PCM once and written to a FLAC
 * master (44.1 kHz stereo, the AI label as Vorbis comments), and the MP3 at the requested quality is
 * encoded from those same 16-bit samples, so it is exactly one lossy encode away from the master; the
 * radio decodes the master and encodes its stream from it (issue 18: an MP3 master re-encoded for the
 * stream lost -21 to -39 dB to the second encode). No dither: at -14 LUFS the rounding error sits near
 * -101 dBFS, far under anything an MP3 encode keeps.
 *
 * With lyrics, the vocal (src/engine/voice) is composed and sung before rendering, held as one mono stem
 * (4 bytes a sample), mixed as the vocal bus (mix/mixer.ts) and also returned, as a mono MP3, beside the
 * master. Without lyrics none of that runs: the track is instrumental.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { AudioQuality, Mode, MusicContext, ProgressFn } from '../types.js';
import type { AudioModel } from '../compose/audio-model.js';
import { composeScore } from '../compose/index.js';
import type { Score, Section } from '../compose/score.js';
import { genreFamily, orchestrationFor } from '../compose/style.js';
import { songLengthSec } from '../compose/structure.js';
import { generateCoverPng } from './cover.js';
import { createMp3Stream, encodeMonoMp3 } from '../audio/encode.js';
import { createFlacStream, dequantise, quantise } from '../audio/flac-encode.js';
import { buildId3Tag, vorbisLabel, type AiLabel } from '../audio/id3.js';
import { SAMPLE_RATE, TARGET_LUFS, renderScore } from './render.js';
import { generateTitle } from './title.js';
import { WaveformBuilder, type WaveformPeaks } from './waveform.js';
import { prepareVocals, type TrackLyrics, type VocalStem } from '../voice/index.js';

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
  /** Words to sing: the track gets a vocal (src/engine/voice). Absent or null: instrumental. */
  lyrics?: TrackLyrics | null;
}

/** What was sung, beside the master: the stem (mono MP3 and samples) and the timed melody. */
export interface GeneratedVocals {
  voice: string;
  stemMp3: Buffer;
  stem: VocalStem;
}

export interface GeneratedTrack {
  /** The lossless master: FLAC, 44.1 kHz stereo, 16-bit, labelled. */
  master: Buffer;
  /** The MP3 at the requested quality, encoded once from the master's samples. */
  mp3: Buffer | null; // null when written to outputPath
  mp3Path: string | null;
  mp3Bytes: number;
  /** The song's length: the request's maximum, or under it from 60 s up (compose/structure.ts songLengthSec). */
  durationSec: number;
  bpm: number;
  key: string;
  mode: Mode;
  title: string;
  sections: Section[];
  waveform: WaveformPeaks;
  coverPng: Buffer;
  vocals: GeneratedVocals | null;
  timings: { composeMs: number; renderMs: number; encodeMs: number; vocalMs?: number };
}

export const DEFAULT_STATION_NAME = 'Station';
/** Bits per sample of the FLAC master: CD resolution, about 60% of the size of 24-bit for the same audio. */
const MASTER_BITS = 16;
const WAVEFORM_SAMPLES_PER_PIXEL = 1024;
const COMPOSE_SHARE = 2;
/**
 * Loudness the MP3 encoder takes away (LAME's low-pass: about 17 kHz at 128 kbps, 19 kHz at 192 kbps),
 * measured on decoded masters of every family: the float master aims this much higher so that what airs,
 * the decoded MP3, reads -14 LUFS.
 */
const ENCODER_LOSS_LU: Record<AudioQuality, number> = { '128kbps': 0.4, '192kbps': 0.25, '320kbps': 0 }; // percent of progress given to composing

export async function generateTrack(req: GenerateTrackRequest, onProgress?: ProgressFn): Promise<GeneratedTrack> {
  if (!(req.maxDurationSec > 0)) throw new RangeError('maxDurationSec must be positive');
  const composeStarted = performance.now();
  // The song's length: the request's maximum is a ceiling (compose/structure.ts songLengthSec).
  const durationSec = songLengthSec(req.maxDurationSec, req.seed);
  const composed = composeScore(req);
  const title = generateTitle(req.context, req.seed, req.titleWords);
  const composeMs = performance.now() - composeStarted;
  // Vocal hook: with lyrics, compose and sing a vocal line first; it is summed into each block below.
  const vocalStarted = performance.now();
  const vocals = req.lyrics ? await prepareTrackVocals(composed, req, durationSec) : null;
  const vocalMs = performance.now() - vocalStarted;
  const score = vocals ? vocals.score : composed;
  onProgress?.(COMPOSE_SHARE, 0);

  const label: AiLabel = {
    title,
    stationName: req.label?.stationName ?? DEFAULT_STATION_NAME,
    modelVersion: req.modelVersion,
    stationTrackId: req.label?.stationTrackId,
    genre: req.context.genre,
    bpm: score.bpm,
    key: `${score.key}${score.mode === 'minor' ? 'm' : ''}`,
  };
  const sink = createSink(req.outputPath);
  sink.write(buildId3Tag(label));
  const flac = createFlacStream({ sampleRate: SAMPLE_RATE, channels: 2, bitsPerSample: MASTER_BITS, tags: vorbisLabel(label) });
  const masterParts: Uint8Array[] = [flac.header()];

  const mp3 = await createMp3Stream(req.quality);
  const waveform = new WaveformBuilder(SAMPLE_RATE, WAVEFORM_SAMPLES_PER_PIXEL);
  let encodeMs = 0;
  const renderStarted = performance.now();
  await renderScore(score, {
    durationSec,
    family: genreFamily(req.context),
    seed: req.seed,
    targetLufs: TARGET_LUFS + ENCODER_LOSS_LU[req.quality],
    vocal: vocals ? vocals.stem.samples : null,
    onBlock(left, right) {
      const encodeStarted = performance.now();
      waveform.add(left, right);
      const pcm = [quantise(left, MASTER_BITS), quantise(right, MASTER_BITS)];
      masterParts.push(flac.write(pcm));
      sink.write(mp3.write(dequantise(pcm[0], MASTER_BITS), dequantise(pcm[1], MASTER_BITS)));
      encodeMs += performance.now() - encodeStarted;
    },
    onProgress: onProgress && ((pct, eta) => onProgress(COMPOSE_SHARE + (pct * (100 - COMPOSE_SHARE)) / 100, eta)),
  });
  const finishStarted = performance.now();
  sink.write(mp3.finish());
  const flacEnd = flac.finish();
  masterParts.push(flacEnd.frames);
  const master = Buffer.concat(masterParts);
  master.set(flacEnd.header, 0); // the header again, now with the length and the MD5
  encodeMs += performance.now() - finishStarted;
  const renderMs = performance.now() - renderStarted - encodeMs;
  const written = sink.close();
  const stemStarted = performance.now();
  const stemMp3 = vocals ? await encodeMonoMp3(vocals.stem.samples, req.quality) : null;
  encodeMs += performance.now() - stemStarted;

  return {
    master,
    ...written,
    durationSec,
    bpm: score.bpm,
    key: score.key,
    mode: score.mode,
    title,
    sections: score.sections,
    waveform: waveform.finish(),
    coverPng: generateCoverPng(req.context, req.seed),
    vocals: vocals && stemMp3 ? { voice: vocals.stem.voice, stemMp3, stem: vocals.stem } : null,
    timings: vocals ? { composeMs, renderMs, encodeMs, vocalMs } : { composeMs, renderMs, encodeMs },
  };
}

function prepareTrackVocals(score: Score, req: GenerateTrackRequest, durationSec: number) {
  const orchestration = orchestrationFor(req.context);
  return prepareVocals(score, req.lyrics!, {
    seed: req.seed,
    family: orchestration.family,
    swing: orchestration.swing,
    durationSec,
    sampleRate: SAMPLE_RATE,
  });
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
