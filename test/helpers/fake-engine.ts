/**
 * An Engine for suites that are not about the engine: the radio, the plan, contexts, admin, catalogs. Rendering
 * real music and training real models cost these suites most of their time while they assert nothing about
 * either. The engine's own behaviour is covered by test/engine (in-process) and by the suites that keep the
 * LocalEngine (generation, training, safety, transparency).
 *
 * What it gives back is still real where the station handles the bytes itself: a track is a valid CBR MP3 (a
 * quiet tone whose pitch follows the seed, so another seed gives other bytes) lasting what was asked, capped at
 * MAX_TRACK_SEC, with a real cover PNG and waveform; features are derived from the bytes (same bytes, same
 * features); verdicts are canned (playable unless the test says otherwise); training walks its epochs at once,
 * honouring checkpoints, resume and pause, and returns a small JSON artifact.
 */
import { createHash } from 'node:crypto';
import type {
  ArtifactRef,
  Engine,
  EngineHealth,
  LyricsJob,
  LyricsResult,
  SafetyVerdict,
  StyleInfluence,
  TrackJob,
  TrackResult,
  TrainingHooks,
  TrainingResult,
  TrainingSpec,
} from '../../src/engine/engine.js';
import type { AudioFeatures, AudioQuality, Mode, ProgressFn } from '../../src/engine/types.js';
import { EngineError } from '../../src/engine/errors.js';
import { parseMp3 } from '../../src/engine/audio/mp3-frames.js';
import { createMp3Stream } from '../../src/engine/audio/encode.js';
import { createFlacStream, dequantise, quantise } from '../../src/engine/audio/flac-encode.js';
import { generateCoverPng } from '../../src/engine/music/cover.js';
import { WaveformBuilder } from '../../src/engine/music/waveform.js';

const SAMPLE_RATE = 44100;
/** Longer asks are cut here: a suite that is not about audio never needs minutes of it. */
export const MAX_TRACK_SEC = 8;
const KEYS = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];

export const PLAYABLE: SafetyVerdict = { safety_score: 0.97, explicit_detected: false, flagged_categories: [], playable: true, details: { engine: 'fake' } };

export interface FakeEngineOptions {
  /** Verdict for every lyrics check (default PLAYABLE). */
  lyricsVerdict?: SafetyVerdict;
  /** Verdict for every audio check (default PLAYABLE). */
  audioVerdict?: SafetyVerdict;
  /** Time each training epoch takes (default 0), for suites that must catch a job between two checkpoints. */
  epochMs?: number;
  /**
   * Renders never finish: generateTrack waits until close() and then fails as a closed engine's work does, for
   * suites that need AI tracks still in the making when the station stops (the real engine's renders of minutes).
   */
  holdTracks?: boolean;
}

/** Calls the fake answered, by method, for suites that assert the station asked the engine. */
export type FakeEngineCalls = Record<
  'generateTrack' | 'generateLyrics' | 'checkLyrics' | 'checkAudio' | 'extractFeatures' | 'transcode' | 'influences' | 'train',
  number
>;

/**
 * A tone of `seconds` as a FLAC master and a stereo CBR MP3 encoded from the master's samples, with its
 * waveform peaks (memoised: suites render the same few often).
 */
const tones = new Map<string, Promise<{ master: Buffer; mp3: Buffer; waveform: unknown }>>();
function tone(seconds: number, hz: number, quality: AudioQuality): Promise<{ master: Buffer; mp3: Buffer; waveform: unknown }> {
  const key = `${seconds}:${hz}:${quality}`;
  let entry = tones.get(key);
  if (!entry) {
    entry = (async () => {
      const stream = await createMp3Stream(quality, SAMPLE_RATE);
      const flac = createFlacStream({ sampleRate: SAMPLE_RATE, channels: 2, bitsPerSample: 16 });
      const masterParts: Uint8Array[] = [flac.header()];
      const waveform = new WaveformBuilder(SAMPLE_RATE, 512);
      const total = Math.round(seconds * SAMPLE_RATE);
      const chunks: Uint8Array[] = [];
      const block = 8192;
      for (let start = 0; start < total; start += block) {
        const length = Math.min(block, total - start);
        const left = new Float32Array(length);
        for (let i = 0; i < length; i++) left[i] = 0.25 * Math.sin((2 * Math.PI * hz * (start + i)) / SAMPLE_RATE);
        waveform.add(left, left);
        const pcm = quantise(left, 16);
        masterParts.push(flac.write([pcm, pcm]));
        const decoded = dequantise(pcm, 16);
        chunks.push(stream.write(decoded, decoded));
      }
      chunks.push(stream.finish());
      const end = flac.finish();
      const master = Buffer.concat([...masterParts, end.frames]);
      master.set(end.header, 0);
      return { master, mp3: Buffer.concat(chunks), waveform: waveform.finish() };
    })();
    tones.set(key, entry);
  }
  return entry;
}

function hashNumbers(bytes: Uint8Array | string, count: number): number[] {
  const values: number[] = [];
  let digest = createHash('sha256').update(bytes).digest();
  while (values.length < count) {
    for (let i = 0; i + 1 < digest.length && values.length < count; i += 2) values.push(digest.readUInt16BE(i) / 65535);
    digest = createHash('sha256').update(digest).digest();
  }
  return values;
}

export class FakeEngine implements Engine {
  readonly kind = 'local' as const;
  readonly calls: FakeEngineCalls = {
    generateTrack: 0,
    generateLyrics: 0,
    checkLyrics: 0,
    checkAudio: 0,
    extractFeatures: 0,
    transcode: 0,
    influences: 0,
    train: 0,
  };
  private closed = false;
  private readonly held = new Set<() => void>();

  constructor(private readonly options: FakeEngineOptions = {}) {}

  async generateTrack(job: TrackJob, onProgress?: ProgressFn): Promise<TrackResult> {
    this.calls.generateTrack += 1;
    if (this.closed) throw EngineError.shutdown('generateTrack');
    if (this.options.holdTracks) {
      await new Promise<void>((resolve) => this.held.add(resolve));
      throw EngineError.shutdown('generateTrack');
    }
    const seconds = Math.max(1, Math.min(job.maxDurationSec, MAX_TRACK_SEC));
    // Pitch from the seed (220..440 Hz in whole hertz), so another seed gives other bytes.
    const hz = 220 + (job.seed % 221);
    onProgress?.(50, 0);
    const { master, mp3, waveform } = await tone(seconds, hz, job.quality);
    onProgress?.(100, 0);
    const [low, high] = job.context.tempo_range;
    const mode: Mode = job.context.key_preference === 'minor' ? 'minor' : 'major';
    return {
      master,
      mp3,
      durationSec: parseMp3(mp3).durationMs / 1000,
      bpm: Math.round((low + high) / 2),
      key: KEYS[job.seed % KEYS.length],
      mode,
      title: job.titleWords?.length ? job.titleWords.join(' ') : `Tone ${hz}`,
      waveform,
      coverPng: generateCoverPng(job.context, job.seed, 64),
      vocals: null,
      timings: { composeMs: 0, renderMs: 0, encodeMs: 0 },
    };
  }

  async generateLyrics(job: LyricsJob): Promise<LyricsResult> {
    this.calls.generateLyrics += 1;
    const order = job.structure.split(/[^a-z_]+/i).filter(Boolean);
    const structure: Record<string, string> = {};
    for (const [i, part] of order.entries()) structure[part] ??= `${job.theme} line ${i + 1} (${job.seed})\nsung in ${job.mood.join(' and ') || 'calm'}`;
    return { structure, title: job.theme, order, modelVersion: job.lyricsModel.version };
  }

  async checkLyrics(_reference: ArtifactRef, _lyrics: string | Record<string, string>, _explicitAllowed: boolean): Promise<SafetyVerdict> {
    this.calls.checkLyrics += 1;
    return this.options.lyricsVerdict ?? PLAYABLE;
  }

  async checkAudio(_reference: ArtifactRef, _features: AudioFeatures): Promise<SafetyVerdict> {
    this.calls.checkAudio += 1;
    return this.options.audioVerdict ?? PLAYABLE;
  }

  async extractFeatures(audio: Buffer, format: 'mp3' | 'wav'): Promise<AudioFeatures> {
    this.calls.extractFeatures += 1;
    const n = hashNumbers(audio, 40);
    const chromaRaw = n.slice(0, 12).map((v) => v + 0.01);
    const chromaSum = chromaRaw.reduce((a, b) => a + b, 0);
    // 16-bit stereo at 44.1 kHz for WAV (what the station produces), frames for MP3.
    const durationSec = format === 'mp3' ? parseMp3(audio).durationMs / 1000 : Math.max(0, audio.length - 44) / (SAMPLE_RATE * 4);
    return {
      durationSec,
      tempoBpm: 70 + Math.round(n[12] * 90),
      tempoConfidence: 0.5 + n[13] / 2,
      key: KEYS[Math.floor(n[14] * 12) % 12],
      mode: n[15] < 0.5 ? 'major' : 'minor',
      keyConfidence: n[16],
      chroma: chromaRaw.map((v) => v / chromaSum),
      mfccMean: n.slice(17, 30).map((v) => v * 40 - 20),
      mfccStd: n.slice(27, 40).map((v) => v * 10),
      loudnessDb: -14 - n[17] * 6,
      energy: n[18],
      spectralCentroidHz: 800 + n[19] * 2000,
      onsetRate: 1 + n[20] * 4,
      beatChords: ['C', 'G', 'Am', 'F'],
    };
  }

  async transcode(audio: Buffer, quality: AudioQuality): Promise<Buffer> {
    this.calls.transcode += 1;
    const seconds = parseMp3(audio).durationMs / 1000;
    return (await tone(Math.max(1, Math.round(seconds)), 330, quality)).mp3;
  }

  async influences(_styleModel: ArtifactRef, _reference: ArtifactRef, _features: AudioFeatures, _k: number): Promise<StyleInfluence[]> {
    this.calls.influences += 1;
    return [];
  }

  async train(spec: TrainingSpec, hooks: TrainingHooks): Promise<TrainingResult> {
    this.calls.train += 1;
    const from = (spec.resumeFrom as { epoch?: number } | null)?.epoch ?? 0;
    const lossCurve: { epoch: number; trainLoss: number }[] = [];
    for (let epoch = from + 1; epoch <= spec.hyperparams.epochs; epoch++) {
      if (this.options.epochMs) await new Promise((resolve) => setTimeout(resolve, this.options.epochMs));
      if (hooks.shouldStop?.()) return { artifact: null, stopped: true, metrics: { epochsCompleted: epoch - 1, lossCurve } };
      // A loss that falls with every epoch, continuing where a resumed run left off.
      const loss = 2 / (epoch + 1);
      lossCurve.push({ epoch, trainLoss: loss });
      await hooks.onEpoch?.({ epoch, loss, heldOutLoss: loss * 1.1, perplexity: spec.modelType === 'lyrics' ? Math.exp(loss) : null });
      await hooks.onCheckpoint?.({ epoch });
    }
    const artifact = {
      format: 'station-fake-model',
      modelType: spec.modelType,
      seed: spec.seed,
      epochs: spec.hyperparams.epochs,
      dataset: spec.dataset.sha256,
    };
    return {
      artifact,
      stopped: false,
      metrics: {
        epochsCompleted: spec.hyperparams.epochs,
        finalLoss: lossCurve.at(-1)?.trainLoss ?? null,
        heldOutLoss: null,
        ...(spec.modelType === 'lyrics' ? { perplexity: 5, languages: ['en'] } : {}),
        lossCurve,
      },
    };
  }

  async health(): Promise<EngineHealth> {
    const workers = { size: 1, busy: 0, queued: 0 };
    return this.closed ? { status: 'down', detail: 'engine is closed', workers } : { status: 'ok', detail: 'fake engine', workers };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const release of this.held) release();
    this.held.clear();
  }
}
