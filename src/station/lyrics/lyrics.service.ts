/** Module F: lyrics from the platform songwriters' model, with a safety verdict stored beside them. */
import { randomInt } from 'node:crypto';
import type { Engine, SafetyVerdict } from '../../engine/engine.js';
import { EngineError } from '../../engine/errors.js';
import type { Clock } from '../../infra/clock/clock.js';
import { DomainError, Errors } from '../../errors.js';
import type { ConfigRepository } from '../admin/config.repository.js';
import type { AfterCommit } from '../../infra/pubsub/recorded-publish.js';
import type { DbOrTx } from '../../infra/db/client.js';
import type { TransactionalStationEvents } from '../events/station-events.js';
import { artifactRefOf } from '../models/blob-artifact-source.js';
import type { ModelStore } from '../models/model-store.js';
import { noModelMessage, type ModelAvailability } from '../models/model-availability.js';
import type { ModelVersionRow } from '../models/models.repository.js';
import type { SafetyReferenceStore } from '../safety/safety-reference.js';
import type { LyricRow, LyricsRepository } from './lyrics.repository.js';

export const DEFAULT_STRUCTURE = 'verse-chorus-verse-chorus-bridge-chorus';
/** How many of its session's latest songs (in the same language) a track must not repeat a line of. */
export const RECENT_SONGS_REMEMBERED = 10;

export interface LyricsRequest {
  mood: string[];
  theme: string;
  language: string;
  structure?: string;
  style_artist_ids?: string[];
  model_version?: string | null;
  generation_id?: string | null;
  seed?: number | null;
}

/** The catalog's read port (src/platform/catalog/track-reads.ts): the platform's own artists by id or slug. */
export interface PlatformArtistsRead {
  /** Platform-owned artists named by id or slug, with their slugs (what the lyrics model knows them by). */
  platformArtists(idsOrSlugs: string[]): Promise<{ id: string; slug: string }[]>;
}

/** Module E's read port (src/station/generation/module.ts, generationExists): whether a generation exists. */
export type GenerationExists = (generationId: string) => Promise<boolean>;

/** Engine refusals that are the caller's mistake become 400s; anything else is a generation failure. */
function toHttpError(error: unknown): Error {
  if (error instanceof EngineError) {
    if (['UNSUPPORTED_LANGUAGE', 'UNKNOWN_ARTIST', 'INVALID_INPUT'].includes(error.code)) return Errors.validation(error.message);
    // The engine's own words stay on the server: the error handler logs this 500 with its cause.
    const failure = new DomainError(
      'failed',
      'GENERATION_FAILED',
      'Lyrics generation failed',
      'an internal engine error; it was logged on the server with the request_id',
    );
    failure.cause = error;
    return failure;
  }
  return error instanceof Error ? error : new Error(String(error));
}

export class LyricsService {
  constructor(
    private readonly repo: LyricsRepository,
    private readonly engine: Engine,
    private readonly models: ModelStore,
    private readonly safetyReference: SafetyReferenceStore,
    private readonly config: ConfigRepository,
    /** station.safety.flag_raised, recorded in the webhooks' outbox in the transaction that stores the verdict. */
    private readonly events: TransactionalStationEvents,
    private readonly clock: Clock,
    private readonly availability: ModelAvailability,
    /** The catalog's read port: the style artists a request names. */
    private readonly catalog: PlatformArtistsRead,
    /** Module E's read port: whether the generation a request names exists. */
    private readonly generationExists: GenerationExists,
  ) {}

  async create(request: LyricsRequest, requestedBy: string | null) {
    const config = await this.config.get();
    if (!config.lyricsGeneration) throw Errors.conflict('Lyrics generation is disabled (config lyrics_generation is false)');
    const styleIds = request.style_artist_ids ?? [];
    const known = await this.catalog.platformArtists(styleIds);
    const unknown = styleIds.filter((id) => !known.some((a) => a.id === id || a.slug === id));
    if (unknown.length > 0) throw Errors.validation(`style_artist_ids must name platform artists; unknown: ${unknown.join(', ')}`);
    if (request.generation_id && !(await this.generationExists(request.generation_id))) {
      throw Errors.notFound('Generation', request.generation_id);
    }
    const input = {
      modelVersion: request.model_version ?? null,
      mood: request.mood,
      theme: request.theme,
      language: request.language,
      structure: request.structure ?? DEFAULT_STRUCTURE,
      styleArtistSlugs: known.map((a) => a.slug),
      seed: request.seed ?? randomInt(0, 2 ** 31 - 1),
      generationId: request.generation_id ?? null,
      explicitAllowed: config.explicitAllowed,
      requestedBy,
      // lyric_generations.request holds two shapes (this API request, and generateForTrack's input for a track), so the column stays Record<string, unknown>.
      request: { ...request, style_artist_slugs: known.map((a) => a.slug) },
    };
    if (!input.modelVersion) {
      const availability = await this.availability.of('lyrics');
      if (availability.state === 'none') throw Errors.conflict(noModelMessage('lyrics', availability));
      if (availability.state === 'coming') {
        // Accepted, not answered: stored pending and generated when the first lyrics model is deployed
        // (the route answers 202; GET /generate/lyrics/{lyric_id} shows it complete then).
        const pending = await this.repo.insert({
          status: 'pending',
          request: input.request,
          theme: input.theme,
          language: input.language,
          mood: input.mood,
          seed: input.seed,
          generationId: input.generationId,
          etaSeconds: availability.etaSeconds === null ? null : availability.etaSeconds + 1,
          requestedBy,
          createdAt: this.clock.date(),
        });
        return this.view(pending);
      }
    }
    return this.view(await this.generate(input));
  }

  /**
   * Requests waiting for the first production lyrics model: generated once one is deployed (by whichever
   * instance gets there first), given a fresh ETA while it is still coming, failed with a conflict when it
   * no longer is. Generation writes nothing until it is finished, so a restart simply tries again.
   */
  async wakeWaiting(): Promise<number> {
    const waiting = await this.repo.waitingForModel();
    if (waiting.length === 0) return 0;
    const availability = await this.availability.of('lyrics');
    if (availability.state === 'coming') {
      for (const row of waiting) await this.repo.setWaitingEta(row.id, availability.etaSeconds === null ? null : availability.etaSeconds + 1);
      return 0;
    }
    if (availability.state === 'none') {
      if (availability.awaitingDeploy) {
        // Trained, only an admin's deploy is missing: keep waiting, but no ETA can be promised for that.
        for (const row of waiting) await this.repo.setWaitingEta(row.id, null);
        return 0;
      }
      const message = noModelMessage('lyrics', availability);
      for (const row of waiting)
        await this.repo.finishWaiting(row.id, { status: 'failed', errorCode: 'STATION_CONFLICT', errorMessage: message, completedAt: this.clock.date() });
      return 0;
    }
    const config = await this.config.get();
    let done = 0;
    for (const row of waiting) {
      // Waiting rows are written only by create() above, from an API request (a track's lyrics never wait for a model).
      const request = row.request as unknown as LyricsRequest & { style_artist_slugs?: string[] };
      try {
        const fields = await this.generateFields(availability.model, {
          mood: row.mood,
          theme: row.theme,
          language: row.language,
          structure: request.structure ?? DEFAULT_STRUCTURE,
          styleArtistSlugs: request.style_artist_slugs ?? [],
          seed: row.seed,
          explicitAllowed: config.explicitAllowed,
        });
        const verdict = fields.safety.verdict as SafetyVerdict;
        const finished = await this.repo.transaction(async (repo, tx) => {
          const finished = await repo.finishWaiting(row.id, { ...fields, status: 'complete', etaSeconds: 0, completedAt: this.clock.date() });
          return finished && { raised: verdict.playable ? null : await this.flagIn(tx, finished, verdict) };
        });
        await finished?.raised?.();
        if (finished) done += 1;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await this.repo.finishWaiting(row.id, {
          status: 'failed',
          errorCode: 'STATION_GENERATION_FAILED',
          errorMessage: message,
          completedAt: this.clock.date(),
        });
      }
    }
    return done;
  }

  /** Lyrics for an AI track being generated (module E calls this). */
  async generateForTrack(input: {
    generationId: string;
    sessionId: string | null;
    modelVersion: string;
    mood: string[];
    theme: string;
    language: string;
    seed: number;
  }) {
    const config = await this.config.get();
    const { sessionId, ...request } = input;
    // A track of a session never repeats a line its session sang in the last songs.
    const avoidLines = sessionId ? await this.repo.sessionLines(sessionId, input.language, input.generationId, RECENT_SONGS_REMEMBERED) : [];
    const row = await this.generate({
      ...request,
      avoidLines,
      structure: DEFAULT_STRUCTURE,
      styleArtistSlugs: [],
      explicitAllowed: config.explicitAllowed,
      requestedBy: 'generation',
      request: { ...request },
    });
    return {
      id: row.id,
      title: (row.safety.title as string | null) ?? null,
      modelVersion: row.modelVersion!,
      verdict: row.safety.verdict as SafetyVerdict,
      // What the track sings (src/engine/voice): the sections and their singing order.
      sung: { language: row.language, sections: row.structure ?? {}, order: (row.safety.order as string[] | undefined) ?? Object.keys(row.structure ?? {}) },
    };
  }

  async get(id: string) {
    return this.view(await this.require(id));
  }

  /** Explicit-content and copyright-similarity check against the current reference; required before playback. */
  async safetyCheck(id: string) {
    const row = await this.require(id);
    if (row.status !== 'complete' || !row.structure) throw Errors.conflict(`Lyrics are ${row.status}; only generated lyrics can be checked`);
    const config = await this.config.get();
    const verdict = await this.engine.checkLyrics(await this.safetyReference.ref(), row.structure, config.explicitAllowed);
    const { updated, raised } = await this.repo.transaction(async (repo, tx) => {
      const updated = await repo.updateSafety(id, {
        safetyScore: verdict.safety_score,
        explicitDetected: verdict.explicit_detected,
        safety: { ...row.safety, verdict },
        safetyCheckedAt: this.clock.date(),
      });
      return { updated, raised: verdict.playable ? null : await this.flagIn(tx, updated, verdict) };
    });
    await raised?.();
    return { lyric_id: id, ...this.verdictView(verdict), checked_at: updated.safetyCheckedAt!.toISOString(), explicit_allowed: config.explicitAllowed };
  }

  private async generate(input: {
    modelVersion: string | null;
    mood: string[];
    theme: string;
    language: string;
    structure: string;
    styleArtistSlugs: string[];
    seed: number;
    generationId: string | null;
    explicitAllowed: boolean;
    requestedBy: string | null;
    request: Record<string, unknown>;
    avoidLines?: string[];
  }): Promise<LyricRow> {
    const model = input.modelVersion ? await this.models.requireVersion('lyrics', input.modelVersion) : await this.models.requireProduction('lyrics');
    const fields = await this.generateFields(model, input);
    const verdict = fields.safety.verdict as SafetyVerdict;
    const { row, raised } = await this.repo.transaction(async (repo, tx) => {
      const row = await repo.insert({
        ...fields,
        request: input.request,
        theme: input.theme,
        language: input.language,
        mood: input.mood,
        seed: input.seed,
        generationId: input.generationId,
        requestedBy: input.requestedBy,
        createdAt: this.clock.date(),
        completedAt: this.clock.date(),
      });
      return { row, raised: verdict.playable ? null : await this.flagIn(tx, row, verdict) };
    });
    await raised?.();
    return row;
  }

  /** Text and safety verdict from one model (the engine's lyrics generator, then the safety check). */
  private async generateFields(
    model: ModelVersionRow,
    input: {
      mood: string[];
      theme: string;
      language: string;
      structure: string;
      styleArtistSlugs: string[];
      seed: number;
      explicitAllowed: boolean;
      avoidLines?: string[];
    },
  ) {
    let result;
    try {
      result = await this.engine.generateLyrics({
        lyricsModel: artifactRefOf(model),
        mood: input.mood,
        theme: input.theme,
        language: input.language,
        structure: input.structure,
        styleArtistIds: input.styleArtistSlugs,
        seed: input.seed,
        // What the session sang lately is not sung again (the engine writes around these lines).
        avoidLines: input.avoidLines,
      });
    } catch (error) {
      throw toHttpError(error);
    }
    const verdict = await this.engine.checkLyrics(await this.safetyReference.ref(), result.structure, input.explicitAllowed);
    return {
      structure: result.structure,
      modelVersion: model.version,
      safetyScore: verdict.safety_score,
      explicitDetected: verdict.explicit_detected,
      safety: { verdict, order: result.order, title: result.title } as Record<string, unknown>,
      safetyCheckedAt: this.clock.date(),
    };
  }

  /** station.safety.flag_raised for an unplayable verdict, in the transaction `tx` that stores it. */
  private flagIn(tx: DbOrTx, row: LyricRow, verdict: SafetyVerdict): Promise<AfterCommit> {
    return this.events.recordIn(tx, 'station.safety.flag_raised', {
      station_track_id: null,
      lyric_id: row.id,
      flag_type: verdict.explicit_detected ? 'explicit_lyrics' : 'lyrics_similarity',
      safety_score: verdict.safety_score,
    });
  }

  private async require(id: string): Promise<LyricRow> {
    const row = await this.repo.find(id);
    if (!row) throw Errors.notFound('Lyric', id);
    return row;
  }

  private verdictView(verdict: SafetyVerdict) {
    return {
      safety_score: verdict.safety_score,
      explicit_detected: verdict.explicit_detected,
      flagged_categories: verdict.flagged_categories,
      playable: verdict.playable,
    };
  }

  private view(row: LyricRow) {
    const verdict = (row.safety.verdict as SafetyVerdict | undefined) ?? null;
    return {
      lyric_id: row.id,
      status: row.status,
      eta_seconds: row.status === 'complete' ? 0 : row.etaSeconds,
      theme: row.theme,
      language: row.language,
      mood: row.mood,
      model_version: row.modelVersion,
      generation_id: row.generationId,
      title: (row.safety.title as string | null) ?? null,
      structure: row.structure,
      order: (row.safety.order as string[] | undefined) ?? Object.keys(row.structure ?? {}),
      ...(verdict ? this.verdictView(verdict) : { safety_score: null, explicit_detected: null, flagged_categories: [], playable: false }),
      error: row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? '' } : null,
      safety_checked_at: row.safetyCheckedAt?.toISOString() ?? null,
      created_at: row.createdAt.toISOString(),
    };
  }
}
