/**
 * The Engine over HTTP: the station's client of the ML service (`npm run ml-service`, protocol.ts). Each
 * ArtifactRef is sent with a signed link (`signArtifact`) that the service fetches; bytes travel as base64;
 * generation and training read NDJSON streams, so progress, epochs and checkpoints arrive as they happen.
 *
 * Errors are EngineErrors, as with LocalEngine: the service's EngineError is rebuilt from the envelope or
 * the stream's error line; transport failures map to SHUTDOWN (service unreachable, or this client
 * closed), TIMEOUT (call limit, or a stream silent past the idle limit), CRASHED (connection lost
 * mid-answer) and INTERNAL (the service refused the key or answered something unexpected). An error
 * thrown by a training hook is passed through as thrown (and aborts the run on the service).
 * health() never throws: an unreachable or refusing service is reported as status 'down'.
 */
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
} from '../engine.js';
import { EngineError, type EngineErrorJson } from '../errors.js';
import type { AudioFeatures, AudioQuality, ProgressFn } from '../types.js';
import { ndjsonLines } from './ndjson.js';
import {
  API_KEY_HEADER,
  HEARTBEAT_MS,
  MlRoutes,
  MP3,
  NDJSON,
  type GenerateLine,
  type MlErrorEnvelope,
  type TrainLine,
  type WireArtifactRef,
  type WireTrackResult,
} from './protocol.js';

export interface RemoteEngineOptions {
  /** The ML service, e.g. http://ml.internal:8090 (no trailing path). */
  baseUrl: string;
  apiKey: string;
  /** A URL the service can GET the artifact from (the station signs a 1-hour /media/ link). */
  signArtifact(ref: ArtifactRef): string;
  /** Limit of every call but training (default 10 minutes: a long track waits in the service's queue). */
  timeoutMs?: number;
  /** A stream with no line (not even a heartbeat) for this long is given up (default 4 heartbeats). */
  idleTimeoutMs?: number;
  /** Limit of health() (default 5 s). */
  healthTimeoutMs?: number;
}

/** How often a training caller's shouldStop() is polled between events. */
const STOP_POLL_MS = 250;
const CONTROL_TIMEOUT_MS = 30_000;

export class RemoteEngine implements Engine {
  readonly kind = 'remote' as const;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly idleTimeoutMs: number;
  private readonly healthTimeoutMs: number;
  private readonly inflight = new Set<AbortController>();
  private closed = false;

  constructor(private readonly options: RemoteEngineOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10 * 60_000;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 4 * HEARTBEAT_MS;
    this.healthTimeoutMs = options.healthTimeoutMs ?? 5_000;
  }

  generateTrack(job: TrackJob, onProgress?: ProgressFn): Promise<TrackResult> {
    const stage = 'generateTrack';
    return this.request(stage, MlRoutes.generateTrack, { ...job, audioModel: this.wire(job.audioModel) }, this.timeoutMs, async (response, abort) => {
      for await (const line of ndjsonLines<GenerateLine>(response.body!, this.idleTimeoutMs, abort)) {
        if (line.type === 'progress') onProgress?.(line.pct, line.eta);
        else if (line.type === 'result') return decodeTrack(line.result);
        else if (line.type === 'error') throw EngineError.fromJSON(line.error);
      }
      throw streamEnded(stage);
    });
  }

  generateLyrics(job: LyricsJob): Promise<LyricsResult> {
    return this.json('generateLyrics', MlRoutes.generateLyrics, { ...job, lyricsModel: this.wire(job.lyricsModel) });
  }

  checkLyrics(reference: ArtifactRef, lyrics: string | Record<string, string>, explicitAllowed: boolean): Promise<SafetyVerdict> {
    return this.json('checkLyrics', MlRoutes.checkLyrics, { reference: this.wire(reference), lyrics, explicitAllowed });
  }

  checkAudio(reference: ArtifactRef, features: AudioFeatures): Promise<SafetyVerdict> {
    return this.json('checkAudio', MlRoutes.checkAudio, { reference: this.wire(reference), features });
  }

  extractFeatures(audio: Buffer, format: 'mp3' | 'wav'): Promise<AudioFeatures> {
    return this.json('extractFeatures', MlRoutes.features, { format, audio: audio.toString('base64') });
  }

  transcode(audio: Buffer, quality: AudioQuality): Promise<Buffer> {
    return this.request('transcode', MlRoutes.transcode(quality), audio, this.timeoutMs, async (response) => Buffer.from(await response.arrayBuffer()));
  }

  influences(styleModel: ArtifactRef, reference: ArtifactRef, features: AudioFeatures, k: number): Promise<StyleInfluence[]> {
    return this.json('influences', MlRoutes.influences, { styleModel: this.wire(styleModel), reference: this.wire(reference), features, k });
  }

  /**
   * Every epoch and checkpoint line is handled by the hooks, then acknowledged (with `stop` when
   * shouldStop() is true by then), and the service waits for that ack: a checkpoint is persisted before
   * the next epoch, and "stop after epoch N" stops at exactly that checkpoint, as in-process.
   */
  train(spec: TrainingSpec, hooks: TrainingHooks): Promise<TrainingResult> {
    const stage = 'train';
    const body = { ...spec, dataset: this.wire(spec.dataset), base: spec.base && this.wire(spec.base) };
    return this.request(stage, MlRoutes.train, body, null, async (response, abort) => {
      let runId: string | null = null;
      let stopSent = false;
      const wantsStop = () => {
        try {
          return hooks.shouldStop?.() ?? false;
        } catch {
          return false; // a broken poll must not end the run; the next poll tries again
        }
      };
      // Between events (a long epoch), a stop is sent as soon as the caller asks for it.
      const poll = hooks.shouldStop
        ? setInterval(() => {
            if (!runId || stopSent || !wantsStop()) return;
            stopSent = true;
            this.control(stage, MlRoutes.trainStop(runId), {}).catch(() => (stopSent = false));
          }, STOP_POLL_MS)
        : null;
      try {
        for await (const line of ndjsonLines<TrainLine>(response.body!, this.idleTimeoutMs, abort)) {
          switch (line.type) {
            case 'started':
              runId = line.run_id;
              break;
            case 'epoch':
            case 'checkpoint': {
              try {
                if (line.type === 'epoch') await hooks.onEpoch?.(line.epoch);
                else await hooks.onCheckpoint?.(line.checkpoint);
              } catch (error) {
                abort(error); // closing the stream aborts the run on the service
                throw error;
              }
              const stop = wantsStop();
              stopSent ||= stop;
              await this.control(stage, MlRoutes.trainAck(runId ?? ''), { seq: line.seq, stop });
              break;
            }
            case 'result':
              return line.result;
            case 'error':
              throw EngineError.fromJSON(line.error);
          }
        }
        throw streamEnded(stage);
      } finally {
        if (poll) clearInterval(poll);
      }
    });
  }

  async health(): Promise<EngineHealth> {
    try {
      return await this.request('health', MlRoutes.health, undefined, this.healthTimeoutMs, (response) => response.json() as Promise<EngineHealth>);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return { status: 'down', detail: `ML service: ${detail}`, workers: { size: 0, busy: 0, queued: 0 } };
    }
  }

  /** Aborts the calls in flight (they fail with SHUTDOWN); later calls fail the same way. */
  async close(): Promise<void> {
    this.closed = true;
    for (const controller of this.inflight) controller.abort(EngineError.shutdown('the call (the remote engine was closed)'));
  }

  private wire(ref: ArtifactRef): WireArtifactRef {
    return { version: ref.version, sha256: ref.sha256, blobKey: ref.blobKey, url: this.options.signArtifact(ref) };
  }

  private json<T>(stage: string, path: string, body: unknown): Promise<T> {
    return this.request(stage, path, body, this.timeoutMs, (response) => response.json() as Promise<T>);
  }

  /** A small POST that steers a training run (ack, stop). */
  private control(stage: string, path: string, body: unknown): Promise<void> {
    return this.request(stage, path, body, CONTROL_TIMEOUT_MS, async (response) => void (await response.arrayBuffer()));
  }

  /**
   * One HTTP call: GET when body is undefined, else POST (a Buffer as audio/mpeg, anything else as JSON). `consume` reads the answer; `abort(reason)`
   * ends the call, and the call then fails with that reason (a hook's error, a timeout, shutdown).
   */
  private async request<T>(
    stage: string,
    path: string,
    body: unknown,
    timeoutMs: number | null,
    consume: (response: Response, abort: (reason: unknown) => void) => Promise<T>,
  ): Promise<T> {
    if (this.closed) throw EngineError.shutdown(stage);
    const controller = new AbortController();
    const abort = (reason: unknown) => {
      if (!controller.signal.aborted)
        controller.abort(
          reason instanceof Error && reason.name === 'IdleStreamError' ? EngineError.timeout(`${stage} (stream idle)`, this.idleTimeoutMs) : reason,
        );
    };
    const timer = timeoutMs === null ? null : setTimeout(() => abort(EngineError.timeout(stage, timeoutMs)), timeoutMs);
    this.inflight.add(controller);
    try {
      let response: Response;
      try {
        response = await fetch(`${this.baseUrl}${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: {
            [API_KEY_HEADER]: this.options.apiKey,
            accept: path === MlRoutes.generateTrack || path === MlRoutes.train ? NDJSON : Buffer.isBuffer(body) ? MP3 : 'application/json',
            ...(body === undefined ? {} : { 'content-type': Buffer.isBuffer(body) ? MP3 : 'application/json' }),
          },
          body: body === undefined ? undefined : Buffer.isBuffer(body) ? body : JSON.stringify(body),
          signal: controller.signal,
        });
      } catch (error) {
        if (controller.signal.aborted) throw controller.signal.reason;
        throw new EngineError('SHUTDOWN', `ML service at ${this.baseUrl} is unreachable: ${causeOf(error)}`, { stage, details: { reason: 'UNREACHABLE' } });
      }
      if (!response.ok) throw await errorFromResponse(stage, response);
      try {
        return await consume(response, abort);
      } catch (error) {
        if (controller.signal.aborted) throw controller.signal.reason;
        if (error instanceof EngineError) throw error;
        if (error instanceof SyntaxError) throw new EngineError('INTERNAL', `ML service sent an unreadable answer: ${error.message}`, { stage });
        throw new EngineError('CRASHED', `lost the connection to the ML service during ${stage}: ${causeOf(error)}`, { stage });
      }
    } finally {
      if (timer) clearTimeout(timer);
      this.inflight.delete(controller);
      if (!controller.signal.aborted) controller.abort(); // releases a body nobody read to the end
    }
  }
}

function decodeTrack(wire: WireTrackResult): TrackResult {
  const vocals = wire.vocals ? { ...wire.vocals, stemMp3: Buffer.from(wire.vocals.stemMp3, 'base64') } : null;
  const master = wire.master ? Buffer.from(wire.master, 'base64') : null;
  return { ...wire, master, mp3: Buffer.from(wire.mp3, 'base64'), coverPng: Buffer.from(wire.coverPng, 'base64'), vocals } as TrackResult;
}

function streamEnded(stage: string): EngineError {
  return new EngineError('CRASHED', `the ML service ended the ${stage} stream without a result`, { stage });
}

/** The service's EngineError when it sent one; otherwise an EngineError describing the HTTP failure. */
async function errorFromResponse(stage: string, response: Response): Promise<EngineError> {
  const envelope = (await response.json().catch(() => null)) as Partial<MlErrorEnvelope> | null;
  const error = envelope?.error;
  if (error?.engine) return EngineError.fromJSON(error.engine as EngineErrorJson);
  const status = response.status;
  const code = status === 503 ? 'SHUTDOWN' : status === 504 ? 'TIMEOUT' : [400, 413, 415, 422].includes(status) ? 'INVALID_INPUT' : 'INTERNAL';
  const what = status === 401 || status === 403 ? 'refused the API key' : `answered HTTP ${status}`;
  return new EngineError(code, `ML service ${what}${error?.code ? ` (${error.code}: ${error.message})` : ''}`, {
    stage,
    details: { httpStatus: status, code: error?.code ?? null, requestId: error?.request_id ?? null },
  });
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
