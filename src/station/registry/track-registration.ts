/**
 * POST /registry/tracks: registers a finished generation. Module E already registers every track it
 * renders, so for its generations this answers the existing record (200); a new record (201) is only
 * written for a finished generation whose audio exists but which has no record yet. Provenance is the
 * generation's: a field given in the body must agree with it, so a caller cannot rewrite what made a track.
 */
import { createHash } from 'node:crypto';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { Clock } from '../../infra/clock/clock.js';
import { Errors } from '../../errors.js';
import type { generations as generationsTable } from '../../infra/db/schema/index.js';
import type { LyricRow } from '../lyrics/lyrics.repository.js';
import type { ModelLineageRepository } from '../models/model-lineage.repository.js';
import type { RegistryRepository, RegistryRow } from './registry.repository.js';
import { newStationTrackId } from './registry.service.js';
import type { RegisterTrackBody } from './schemas.js';

/**
 * The generation a track is registered from, as module E's repository returns it: a read port declared
 * here rather than an import of generation/, which itself records every track it renders through this module.
 */
export type RegisteredGeneration = Pick<
  typeof generationsTable.$inferSelect,
  | 'id'
  | 'status'
  | 'title'
  | 'audioBlobKey'
  | 'coverBlobKey'
  | 'waveformBlobKey'
  | 'durationSec'
  | 'bpm'
  | 'context'
  | 'contextId'
  | 'sessionId'
  | 'lyricId'
  | 'modelVersion'
  | 'stationTrackId'
  | 'completedAt'
>;
export interface GenerationLookup {
  find(id: string): Promise<RegisteredGeneration | null>;
}

export interface TrackRegistrationDeps {
  registry: Pick<RegistryRepository, 'appendOrGet' | 'findByGeneration' | 'safetyFlagsOfGeneration'>;
  generations: GenerationLookup;
  lyrics: { find(id: string): Promise<LyricRow | null> };
  models: Pick<ModelLineageRepository, 'findByVersion'>;
  blobs: Pick<BlobStore, 'stat' | 'stream'>;
  clock: Clock;
}

function mustAgree<T>(field: string, given: T | undefined, actual: T): T {
  if (given !== undefined && given !== actual) {
    throw Errors.validation(
      `${field} does not match the generation (${String(given)} given, ${String(actual)} recorded)`,
      'The body contradicts the generation',
    );
  }
  return actual;
}

function required<T>(field: string, value: T | null | undefined): T {
  if (value === null || value === undefined) throw Errors.validation(`${field} is required: the generation does not record it`);
  return value;
}

export class TrackRegistrationService {
  constructor(private readonly deps: TrackRegistrationDeps) {}

  async register(body: RegisterTrackBody): Promise<{ row: RegistryRow; created: boolean }> {
    const existing = await this.deps.registry.findByGeneration(body.generation_id);
    if (existing) return { row: existing, created: false };

    const generation = await this.deps.generations.find(body.generation_id);
    if (!generation) throw Errors.notFound('Generation', body.generation_id);
    if (generation.status === 'pending' || generation.status === 'in_progress') {
      throw Errors.conflict('The generation is still running', 'module E registers the track itself when the generation completes');
    }
    if (generation.status === 'cancelled') throw Errors.conflict('The generation was cancelled', 'a cancelled generation has no audio');
    if (!generation.audioBlobKey) throw Errors.conflict('The generation has no audio', `generation ${generation.id} ended ${generation.status} without audio`);

    const audioBlobKey = mustAgree('audio_blob_key', body.audio_blob_key, generation.audioBlobKey);
    const audioSha256 = await this.audioHash(audioBlobKey);
    const modelVersion = mustAgree('model_version', body.model_version, generation.modelVersion!); // a generation with audio ran on a bound model
    const audioModel = await this.deps.models.findByVersion(modelVersion);
    if (!audioModel || audioModel.modelType !== 'audio') throw Errors.validation(`model_version ${modelVersion} is not a known audio model`);
    const lyric = generation.lyricId ? await this.deps.lyrics.find(generation.lyricId) : null;
    const context = generation.context as { genre?: string; mood?: string[] };

    const { row, created } = await this.deps.registry.appendOrGet({
      stationTrackId: generation.stationTrackId ?? newStationTrackId(),
      generationId: generation.id,
      trackType: 'ai_generated',
      sessionId: generation.sessionId === null ? (body.session_id ?? null) : mustAgree('session_id', body.session_id, generation.sessionId),
      radioOnly: body.radio_only ?? true,
      modelVersion,
      lyricsModelVersion: mustAgree('lyrics_model_version', body.lyrics_model_version, lyric?.modelVersion ?? null),
      trainingDatasetHash: mustAgree('training_dataset_hash', body.training_dataset_hash, audioModel.datasetHash),
      contextSnapshot: body.context_snapshot ?? { context_id: generation.contextId, ...generation.context },
      title: required('title', body.title ?? generation.title),
      genre: required('genre', body.genre ?? context.genre),
      mood: required('mood', body.mood ?? context.mood),
      bpm: required('bpm', body.bpm ?? generation.bpm),
      durationSec: required('duration_sec', body.duration_sec ?? (generation.durationSec === null ? null : Math.round(generation.durationSec))),
      audioBlobKey,
      audioSha256,
      waveformBlobKey: generation.waveformBlobKey,
      coverBlobKey: generation.coverBlobKey,
      lyricId: lyric?.id ?? null,
      influencedBy: [],
      safetyScore: body.safety_score ?? (await this.recordedSafetyScore(generation)),
      generatedAt: generation.completedAt ?? this.deps.clock.date(),
    });
    return { row, created };
  }

  /** The audio must exist; its hash goes into the record. */
  private async audioHash(key: string): Promise<string> {
    let info;
    try {
      info = await this.deps.blobs.stat(key);
    } catch {
      info = null; // an invalid key names no blob
    }
    if (!info) throw Errors.conflict('The generation audio does not exist', `no stored audio at ${key}`);
    const hash = createHash('sha256');
    for await (const chunk of this.deps.blobs.stream(key)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  }

  /**
   * Without a body value: the lowest score of the safety flags recorded for this generation. The audio
   * verdict of a track that passed is not stored outside the registry, so then the caller must give it.
   */
  private async recordedSafetyScore(generation: RegisteredGeneration): Promise<number> {
    const flags = await this.deps.registry.safetyFlagsOfGeneration(generation.id);
    if (flags.length === 0) throw Errors.validation('safety_score is required: no safety verdict is recorded for this generation');
    return Math.min(...flags.map((f) => f.safetyScore));
  }
}
