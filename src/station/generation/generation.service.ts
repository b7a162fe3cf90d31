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
import type { Engine } from '../../engine/engine.js';
import type { ContextService } from '../context/context.service.js';
import type { StoredGenerationRequest } from '../../infra/db/schema/index.js';
import type { ConfigRepository } from '../admin/config.repository.js';
import type { ModelStore } from '../models/model-store.js';
import { noModelMessage, type Availability, type ModelAvailability } from '../models/model-availability.js';
import type { GenerationRepository, GenerationRow } from './generation.repository.js';
import { generationView } from './generation.view.js';
import { addJob, QUEUES } from '../../infra/queue/jobs.js';

/** Spec limit: at most 4 generations in flight; the 5th answers 429. */
export const MAX_CONCURRENT_GENERATIONS = 4;
export const GENERATION_QUEUE = QUEUES.generation;
/** A job running longer than this lost its worker and may be taken over. */
export const GENERATION_STALE_MS = 10 * 60_000;
/** The deployed model an availability names, if any. */
const deployed = (availability: Availability | null) => (availability?.state === 'production' ? availability.model : null);

/** Why a generation that sings cannot be made while the station's configuration turns lyrics off (409). */
export const LYRICS_DISABLED_MESSAGE =
  'include_lyrics needs lyrics generation, which the station configuration turns off (lyrics_generation: false); enable it with PATCH /station/v1/admin/config or ask without include_lyrics';
/** Assumed until real render times have been measured. */
const DEFAULT_REALTIME_FACTOR = 8;

/** What POST /station/v1/generate asks for; stored as it was asked in generations.request. */
export type GenerationRequest = StoredGenerationRequest;

/** What the service uses, passed once at construction (src/README.md, the module contract). */
export interface GenerationServiceDeps {
  repo: GenerationRepository;
  contexts: ContextService;
  config: ConfigRepository;
  models: ModelStore;
  queue: JobQueue;
  signer: UrlSigner;
  engine: Engine;
  clock: Clock;
  availability: ModelAvailability;
  events: StationEvents;
}

export class GenerationService {
  constructor(private readonly deps: GenerationServiceDeps) {}

  async create(request: GenerationRequest, requestedBy: string | null, regeneratedFrom: string | null = null) {
    const config = await this.deps.config.get();
    if (request.max_duration_sec > config.maxTrackLengthSec) {
      throw Errors.validation(`max_duration_sec ${request.max_duration_sec} exceeds max_track_length_sec ${config.maxTrackLengthSec}`);
    }
    const { contextId, context } = await this.deps.contexts.resolveForGeneration(request.context_id ?? null, request.context_override ?? null);
    // An explicit version must exist. Without one: the production model; or, while the first one is being
    // trained or seeded, no model yet (the job waits, pending, and is bound when one is deployed); or 409.
    let modelVersion: string | null;
    let etaSeconds: number | null = null;
    if (request.model_version) {
      modelVersion = (await this.deps.models.requireVersion('audio', request.model_version)).version;
    } else {
      const availability = await this.deps.availability.of('audio');
      if (availability.state === 'none') throw Errors.conflict(noModelMessage('audio', availability));
      modelVersion = availability.state === 'production' ? availability.model.version : null;
      if (availability.state === 'coming') {
        etaSeconds = availability.etaSeconds === null ? null : availability.etaSeconds + (await this.renderSeconds(request.max_duration_sec));
      }
    }
    const includeLyrics = request.include_lyrics ?? false;
    // Sung lyrics need a lyrics model too: wait for it like the audio model, never fall back to instrumental.
    let lyricsModelVersion: string | null = null;
    if (includeLyrics) {
      if (!config.lyricsGeneration) throw Errors.conflict(LYRICS_DISABLED_MESSAGE);
      const lyrics = await this.deps.availability.of('lyrics');
      if (lyrics.state === 'none') throw Errors.conflict(noModelMessage('lyrics', lyrics));
      if (lyrics.state === 'production') lyricsModelVersion = lyrics.model.version;
      else {
        // Still coming: the job waits (no model bound) for both, with the later of the two waits.
        const audioWait = modelVersion === null ? (etaSeconds ?? 0) : await this.renderSeconds(request.max_duration_sec);
        etaSeconds = lyrics.etaSeconds === null ? null : Math.max(audioWait, lyrics.etaSeconds + (await this.renderSeconds(request.max_duration_sec)));
        modelVersion = null;
      }
    }
    const seed = request.seed ?? randomInt(0, 2 ** 31 - 1);
    const row = await this.deps.repo.admit(
      {
        request,
        context,
        contextId,
        seed,
        quality: request.quality,
        maxDurationSec: request.max_duration_sec,
        includeLyrics,
        sessionId: request.session_id ?? null,
        modelVersion,
        lyricsModelVersion,
        etaSeconds,
        regeneratedFrom,
        requestedBy,
        createdAt: this.deps.clock.date(),
      },
      MAX_CONCURRENT_GENERATIONS,
    );
    if (!row) {
      const retryAfter = await this.estimatedFreeSlotSeconds();
      throw new DomainError(
        'rate_limited',
        'RATE_LIMITED',
        `At most ${MAX_CONCURRENT_GENERATIONS} generations may be in flight`,
        'wait for a running generation to finish',
        retryAfter,
      );
    }
    if (row.modelVersion) await addJob(this.deps.queue, GENERATION_QUEUE, 'generate', { generationId: row.id }, { jobId: row.id });
    return generationView(row, this.deps.signer);
  }

  /**
   * Jobs waiting for the first production audio model (and, when they sing, the first lyrics model): bound
   * to the models and queued once both are deployed (by whichever instance gets there first), given a fresh
   * ETA while one is still coming, failed with a conflict when one no longer is (the training failed or was
   * cancelled, the seed stopped, lyrics were switched off).
   */
  async wakeWaiting(): Promise<number> {
    const waiting = await this.deps.repo.waitingForModel();
    if (waiting.length === 0) return 0;
    const audio = await this.deps.availability.of('audio');
    const sings = waiting.some((row) => row.includeLyrics);
    const config = sings ? await this.deps.config.get() : null;
    const lyrics = sings && config?.lyricsGeneration ? await this.deps.availability.of('lyrics') : null;
    let started = 0;
    for (const row of waiting) {
      const needs: Array<{ type: 'audio' | 'lyrics'; availability: Availability | null }> = [];
      if (typeof row.request.model_version !== 'string') needs.push({ type: 'audio', availability: audio });
      if (row.includeLyrics) needs.push({ type: 'lyrics', availability: lyrics });
      const stopped = needs.find((need) => need.availability === null || need.availability.state === 'none');
      if (stopped) {
        const message = stopped.availability?.state === 'none' ? noModelMessage(stopped.type, stopped.availability) : LYRICS_DISABLED_MESSAGE;
        // A trained model waiting only for an admin's deploy keeps the work waiting, without a promised ETA.
        if (stopped.availability?.state === 'none' && stopped.availability.awaitingDeploy) {
          await this.deps.repo.setWaitingEta([row.id], null);
          continue;
        }
        // Only the instance whose update won reports it, so subscribers hear of each failure once; the event
        // is recorded in the webhooks' outbox in that update's transaction.
        const failed = await this.deps.repo.failWaiting(row.id, 'STATION_CONFLICT', message, this.deps.clock.date(), (tx) =>
          this.deps.events.recordIn(tx, 'station.track.generation_failed', { generation_id: row.id, error_code: 'STATION_CONFLICT', message }),
        );
        await failed?.raised();
        continue;
      }
      const render = await this.renderSeconds(row.maxDurationSec);
      if (needs.every((need) => deployed(need.availability))) {
        // A version the request named (it waited for lyrics only) stays the one it asked for.
        const asked = row.request.model_version;
        const audioVersion = typeof asked === 'string' ? asked : deployed(audio)!.version;
        const lyricsVersion = row.includeLyrics ? deployed(lyrics)!.version : null;
        const bound = await this.deps.repo.bindModel(row.id, audioVersion, lyricsVersion, render);
        if (!bound) continue;
        await addJob(this.deps.queue, GENERATION_QUEUE, 'generate', { generationId: row.id }, { jobId: row.id });
        started += 1;
        continue;
      }
      const waits = needs.map((need) => (need.availability?.state === 'coming' ? need.availability.etaSeconds : 0));
      const known = waits.filter((wait): wait is number => wait !== null);
      await this.deps.repo.setWaitingEta([row.id], known.length < waits.length ? null : Math.max(...known) + render);
    }
    return started;
  }

  /** Whether a production lyrics model is deployed now (a generation that sings would not wait). */
  async lyricsDeployed(): Promise<boolean> {
    return (await this.deps.models.production('lyrics')) !== null;
  }

  /** Estimated wall seconds to render a track of this length (measured real-time factor). */
  private async renderSeconds(maxDurationSec: number): Promise<number> {
    return Math.max(1, Math.round(maxDurationSec * (await this.measuredCostPerSecond())));
  }

  async get(id: string) {
    return generationView(await this.require(id), this.deps.signer);
  }

  /** Only a pending job can be cancelled; an in-progress one answers 409. */
  async cancel(id: string) {
    const row = await this.require(id);
    const cancelled = await this.deps.repo.cancel(id, this.deps.clock.date());
    if (!cancelled) {
      throw Errors.conflict(`Generation is ${row.status === 'pending' ? 'starting' : row.status}; only a pending generation can be cancelled`);
    }
    return generationView(cancelled, this.deps.signer);
  }

  /** Same context (frozen at the original request), a different seed. */
  async regenerate(id: string, requestedBy: string | null) {
    const original = await this.require(id);
    const { request, context } = original;
    let seed = randomInt(0, 2 ** 31 - 1);
    if (seed === original.seed) seed = (seed + 1) % (2 ** 31 - 1);
    return this.create({ ...request, context_id: null, context_override: context, model_version: original.modelVersion, seed }, requestedBy, original.id);
  }

  /** Pending jobs with estimated waits from measured render times, and the load of the machine doing the work. */
  async queueView() {
    const [rows, health, secondsPerAudioSecond] = await Promise.all([this.deps.repo.inFlight(), this.deps.engine.health(), this.measuredCostPerSecond()]);
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
      engine: { kind: this.deps.engine.kind, status: health.status },
      gpu_available: false,
      gpu_load_pct: null,
      cpu_load_pct: Math.round((loadavg()[0] / availableParallelism()) * 100),
    };
  }

  private async require(id: string): Promise<GenerationRow> {
    const row = await this.deps.repo.find(id);
    if (!row) throw Errors.notFound('Generation', id);
    return row;
  }

  /** Wall seconds per second of audio over recent generations (the engine's real-time factor, inverted). */
  private async measuredCostPerSecond(): Promise<number> {
    const stats = (await this.deps.repo.recentRenderStats()).filter((s) => s.durationSec > 0);
    if (stats.length === 0) return 1 / DEFAULT_REALTIME_FACTOR;
    const wall = stats.reduce((sum, s) => sum + s.wallMs / 1000, 0);
    const audio = stats.reduce((sum, s) => sum + s.durationSec, 0);
    return wall / audio;
  }

  private async estimatedFreeSlotSeconds(): Promise<number> {
    const [rows, cost] = await Promise.all([this.deps.repo.inFlight(), this.measuredCostPerSecond()]);
    const shortest = Math.min(...rows.map((r) => r.maxDurationSec * cost * (1 - r.progressPct / 100)));
    return Math.max(1, Math.ceil(Number.isFinite(shortest) ? shortest : 5));
  }
}
