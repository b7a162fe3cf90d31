/**
 * Module E: accepting, tracking and cancelling music generations. The work itself runs in
 * generation.runner.ts on the job queue; this service never renders audio.
 */
import type { StationEvents } from '../events/station-events.js';
import { randomInt } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import type { Clock } from '../../infra/clock/clock.js';
import type { JobQueue } from '../../infra/queue/job-queue.js';
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import { DomainError, Errors } from '../../errors.js';
import type { AudioQuality } from '../../engine/types.js';
import type { Engine } from '../../engine/engine.js';
import type { ContextOverride, ContextService } from '../context/context.service.js';
import type { ConfigRepository } from '../admin/config.repository.js';
import type { ModelStore } from '../models/model-store.js';
import { noModelMessage, type ModelAvailability } from '../models/model-availability.js';
import type { GenerationRepository, GenerationRow } from './generation.repository.js';
import { generationView } from './generation.view.js';

/** Spec limit: at most 4 generations in flight; the 5th answers 429. */
export const MAX_CONCURRENT_GENERATIONS = 4;
export const GENERATION_QUEUE = 'generation';
/** A job running longer than this lost its worker and may be taken over. */
export const GENERATION_STALE_MS = 10 * 60_000;
/** Assumed until real render times have been measured. */
const DEFAULT_REALTIME_FACTOR = 8;

export interface GenerationRequest {
  context_id?: string | null;
  context_override?: ContextOverride | null;
  model_version?: string | null;
  max_duration_sec: number;
  seed?: number | null;
  quality: AudioQuality;
  include_lyrics?: boolean;
  session_id?: string | null;
}

export class GenerationService {
  constructor(
    private readonly repo: GenerationRepository,
    private readonly contexts: ContextService,
    private readonly config: ConfigRepository,
    private readonly models: ModelStore,
    private readonly queue: JobQueue,
    private readonly signer: UrlSigner,
    private readonly engine: Engine,
    private readonly clock: Clock,
    private readonly availability: ModelAvailability,
    private readonly events: StationEvents,
  ) {}

  async create(request: GenerationRequest, requestedBy: string | null, regeneratedFrom: string | null = null) {
    const config = await this.config.get();
    if (request.max_duration_sec > config.maxTrackLengthSec) {
      throw Errors.validation(`max_duration_sec ${request.max_duration_sec} exceeds max_track_length_sec ${config.maxTrackLengthSec}`);
    }
    const { contextId, context } = await this.contexts.resolveForGeneration(request.context_id ?? null, request.context_override ?? null);
    // An explicit version must exist. Without one: the production model; or, while the first one is being
    // trained or seeded, no model yet (the job waits, pending, and is bound when one is deployed); or 409.
    let modelVersion: string | null;
    let etaSeconds: number | null = null;
    if (request.model_version) {
      modelVersion = (await this.models.requireVersion('audio', request.model_version)).version;
    } else {
      const availability = await this.availability.of('audio');
      if (availability.state === 'none') throw Errors.conflict(noModelMessage('audio', availability));
      modelVersion = availability.state === 'production' ? availability.model.version : null;
      if (availability.state === 'coming') {
        etaSeconds = availability.etaSeconds === null ? null : availability.etaSeconds + (await this.renderSeconds(request.max_duration_sec));
      }
    }
    const includeLyrics = request.include_lyrics ?? false;
    const lyricsModel = includeLyrics && config.lyricsGeneration && modelVersion ? await this.models.production('lyrics') : null;
    const seed = request.seed ?? randomInt(0, 2 ** 31 - 1);
    const row = await this.repo.admit(
      {
        request: request as unknown as Record<string, unknown>,
        context: context as unknown as Record<string, unknown>,
        contextId,
        seed,
        quality: request.quality,
        maxDurationSec: request.max_duration_sec,
        includeLyrics,
        sessionId: request.session_id ?? null,
        modelVersion,
        lyricsModelVersion: lyricsModel?.version ?? null,
        etaSeconds,
        regeneratedFrom,
        requestedBy,
        createdAt: this.clock.date(),
      },
      MAX_CONCURRENT_GENERATIONS,
    );
    if (!row) {
      const retryAfter = await this.estimatedFreeSlotSeconds();
      throw new DomainError('rate_limited', 'RATE_LIMITED', `At most ${MAX_CONCURRENT_GENERATIONS} generations may be in flight`, 'wait for a running generation to finish', retryAfter);
    }
    if (row.modelVersion) await this.queue.add(GENERATION_QUEUE, 'generate', { generationId: row.id }, { jobId: row.id });
    return generationView(row, this.signer);
  }

  /**
   * Jobs waiting for the first production audio model: bound to it and queued once one is deployed (by
   * whichever instance gets there first), given a fresh ETA while it is still coming, failed with a
   * conflict when it no longer is (the training failed or was cancelled, the seed stopped).
   */
  async wakeWaiting(): Promise<number> {
    const waiting = await this.repo.waitingForModel();
    if (waiting.length === 0) return 0;
    const availability = await this.availability.of('audio');
    if (availability.state === 'production') {
      const config = await this.config.get();
      const lyricsModel = config.lyricsGeneration ? await this.models.production('lyrics') : null;
      let started = 0;
      for (const row of waiting) {
        const bound = await this.repo.bindModel(
          row.id,
          availability.model.version,
          row.includeLyrics ? (lyricsModel?.version ?? null) : null,
          await this.renderSeconds(row.maxDurationSec),
        );
        if (!bound) continue;
        await this.queue.add(GENERATION_QUEUE, 'generate', { generationId: row.id }, { jobId: row.id });
        started += 1;
      }
      return started;
    }
    if (availability.state === 'coming') {
      for (const row of waiting) {
        const eta = availability.etaSeconds === null ? null : availability.etaSeconds + (await this.renderSeconds(row.maxDurationSec));
        await this.repo.setWaitingEta([row.id], eta);
      }
      return 0;
    }
    if (availability.awaitingDeploy) {
      // Trained, only an admin's deploy is missing: keep waiting, but no ETA can be promised for that.
      await this.repo.setWaitingEta(waiting.map((row) => row.id), null);
      return 0;
    }
    const message = noModelMessage('audio', availability);
    for (const row of waiting) {
      const failed = await this.repo.failWaiting(row.id, 'STATION_CONFLICT', message, this.clock.date());
      // Only the instance whose update won reports it, so subscribers hear of each failure once.
      if (failed) await this.events.emit('station.track.generation_failed', { generation_id: row.id, error_code: 'STATION_CONFLICT', message });
    }
    return 0;
  }

  /** Estimated wall seconds to render a track of this length (measured real-time factor). */
  private async renderSeconds(maxDurationSec: number): Promise<number> {
    return Math.max(1, Math.round(maxDurationSec * (await this.measuredCostPerSecond())));
  }

  async get(id: string) {
    return generationView(await this.require(id), this.signer);
  }

  /** Only a pending job can be cancelled; an in-progress one answers 409. */
  async cancel(id: string) {
    const row = await this.require(id);
    const cancelled = await this.repo.cancel(id, this.clock.date());
    if (!cancelled) {
      throw Errors.conflict(`Generation is ${row.status === 'pending' ? 'starting' : row.status}; only a pending generation can be cancelled`);
    }
    return generationView(cancelled, this.signer);
  }

  /** Same context (frozen at the original request), a different seed. */
  async regenerate(id: string, requestedBy: string | null) {
    const original = await this.require(id);
    const request = original.request as unknown as GenerationRequest;
    const context = original.context as unknown as ContextOverride;
    let seed = randomInt(0, 2 ** 31 - 1);
    if (seed === original.seed) seed = (seed + 1) % (2 ** 31 - 1);
    return this.create(
      { ...request, context_id: null, context_override: context, model_version: original.modelVersion, seed },
      requestedBy,
      original.id,
    );
  }

  /** Pending jobs with estimated waits from measured render times, and the load of the machine doing the work. */
  async queueView() {
    const [rows, health, secondsPerAudioSecond] = await Promise.all([this.repo.inFlight(), this.engine.health(), this.measuredCostPerSecond()]);
    const workers = Math.max(1, health.workers.size);
    let aheadSeconds = 0;
    const data = rows.map((row, position) => {
      const jobSeconds = row.maxDurationSec * secondsPerAudioSecond;
      const remaining = row.status === 'in_progress' ? jobSeconds * (1 - row.progressPct / 100) : jobSeconds;
      const wait = row.status === 'in_progress' ? 0 : Math.round(aheadSeconds / workers);
      aheadSeconds += remaining;
      return {
        generation_id: row.id,
        status: row.status,
        position: position + 1,
        progress_pct: row.progressPct,
        estimated_wait_seconds: wait,
        estimated_finish_seconds: Math.round(wait + remaining),
        created_at: row.createdAt.toISOString(),
      };
    });
    return {
      data,
      pending: rows.filter((r) => r.status === 'pending').length,
      in_progress: rows.filter((r) => r.status === 'in_progress').length,
      max_concurrent: MAX_CONCURRENT_GENERATIONS,
      render_seconds_per_audio_second: Math.round(secondsPerAudioSecond * 1000) / 1000,
      workers: health.workers,
      engine: { kind: this.engine.kind, status: health.status },
      gpu_available: false,
      gpu_load_pct: null,
      cpu_load_pct: Math.round((loadavg()[0] / availableParallelism()) * 100),
    };
  }

  private async require(id: string): Promise<GenerationRow> {
    const row = await this.repo.find(id);
    if (!row) throw Errors.notFound('Generation', id);
    return row;
  }

  /** Wall seconds per second of audio over recent generations (the engine's real-time factor, inverted). */
  private async measuredCostPerSecond(): Promise<number> {
    const stats = (await this.repo.recentRenderStats()).filter((s) => s.durationSec > 0);
    if (stats.length === 0) return 1 / DEFAULT_REALTIME_FACTOR;
    const wall = stats.reduce((sum, s) => sum + s.wallMs / 1000, 0);
    const audio = stats.reduce((sum, s) => sum + s.durationSec, 0);
    return wall / audio;
  }

  private async estimatedFreeSlotSeconds(): Promise<number> {
    const [rows, cost] = await Promise.all([this.repo.inFlight(), this.measuredCostPerSecond()]);
    const shortest = Math.min(...rows.map((r) => r.maxDurationSec * cost * (1 - r.progressPct / 100)));
    return Math.max(1, Math.ceil(Number.isFinite(shortest) ? shortest : 5));
  }
}
