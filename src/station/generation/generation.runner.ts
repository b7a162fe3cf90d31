/**
 * The generation pipeline, run by a queue worker for one job id:
 *
 *   claim -> lyrics (optional) -> compose/render/encode (engine, worker thread) -> hole check -> features
 *        -> safety (lyrics + audio) -> influences -> store blobs -> register (module G)
 *        -> complete + station.track.generation_complete
 *   any failure -> failed + station.track.generation_failed (the scheduler falls back to the catalog)
 *   safety block -> registered but withheld, station.safety.flag_raised, and a new generation
 */
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { MAX_RENDER_HOLE_SEC, longestHoleSec } from '../../engine/audio/track-analysis.js';
import { firstOriginalAttempt } from '../../engine/music/originality.js';
import type { ArtifactRef, Engine, SafetyVerdict, TrackResult } from '../../engine/engine.js';
import type { AudioFeatures, MusicContext, ProgressFn } from '../../engine/types.js';
import { publicFailure, type PublicFailure } from '../../errors.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { Job } from '../../infra/queue/job-queue.js';
import type { ConfigRepository, StationConfigRow } from '../admin/config.repository.js';
import type { StationEvents } from '../events/station-events.js';
import type { LyricsService } from '../lyrics/lyrics.service.js';
import { artifactRefOf } from '../models/blob-artifact-source.js';
import type { ModelVersionRow } from '../models/models.repository.js';
import type { ModelStore } from '../models/model-store.js';
import { newStationTrackId, type RegistryService } from '../registry/registry.service.js';
import type { SafetyReferenceStore } from '../safety/safety-reference.js';
import type { GenerationRepository, GenerationRow } from './generation.repository.js';
import { GENERATION_STALE_MS, type GenerationService } from './generation.service.js';
import { STREAM_LINK_TTL_SEC } from './generation.view.js';
import { aiStreamKey, masterKeyOf } from './generation-keys.js';
import { STATION_NAME } from '../../kernel/station-name.js';
import type { JobPayloads } from '../../infra/queue/jobs.js';

const GENERATION_FAILURE: PublicFailure = {
  code: 'GENERATION_FAILED',
  message: 'Generation failed (an internal error; it was logged on the server with the generation id)',
};

const PROGRESS_WRITE_INTERVAL_MS = 2_000;
const INFLUENCES_LISTED = 3;
/**
 * A blocked track is replaced; a chain of replacements stops after this many. The radio's AI slot follows
 * the chain (src/station/scheduler/scheduler.ts), so each replacement is another chance for that slot.
 */
const MAX_SAFETY_RETRIES = 4;

const THEME_BY_LIFESTYLE: Record<MusicContext['lifestyle'], string> = {
  focus: 'late-night studying',
  party: 'city nights',
  chill: 'summer',
  workout: 'working out',
  sleep: 'stars',
};

/** The catalog's read port (src/platform/catalog/track-reads.ts): tracks named by id, with their artists. */
export interface CatalogTrackNames {
  /** The tracks of these ids that exist, with their artists' names and whether the artist is the platform's own. */
  namedTracks(ids: string[]): Promise<{ id: string; title: string; artist: string; platformOwned: boolean }[]>;
}

export interface GenerationRunnerDeps {
  /** The catalog's read port: the names of the nearest catalog tracks (influences). */
  catalog: CatalogTrackNames;
  repo: GenerationRepository;
  engine: Engine;
  models: ModelStore;
  blobs: BlobStore;
  signer: UrlSigner;
  lyrics: LyricsService;
  safetyReference: SafetyReferenceStore;
  registry: RegistryService;
  events: StationEvents;
  config: ConfigRepository;
  generations: GenerationService;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** What the steps of one run share, read once before the first step. */
interface RunState {
  row: GenerationRow;
  context: MusicContext;
  config: StationConfigRow;
  audioModel: ModelVersionRow;
  stationTrackId: string;
  onProgress: ProgressFn;
}
type TrackLyric = Awaited<ReturnType<LyricsService['generateForTrack']>>;
interface SafetyOutcome {
  lyricsVerdict: SafetyVerdict | null;
  safetyScore: number;
  blocked: boolean;
}
interface BlobKeys {
  /** The master: FLAC (generation-keys.ts), or the MP3 from an engine that makes no lossless master. */
  audio: string;
  /** The MP3 at the generation's quality beside a FLAC master (the stream_url); null when `audio` is it. */
  stream: string | null;
  waveform: string;
  cover: string;
  vocalStem: string | null;
}

export class GenerationRunner {
  constructor(private readonly deps: GenerationRunnerDeps) {}

  async handle(job: Job<JobPayloads['generation']>): Promise<void> {
    const { generationId } = job.data;
    const row = await this.deps.repo.claim(generationId, this.deps.clock.date(), GENERATION_STALE_MS, job.redelivered === true);
    if (!row) return; // cancelled, already done, or running elsewhere
    try {
      await this.run(row);
    } catch (error) {
      // The exception's own text (engine, OS, database) stays in the log; clients and webhooks get ours.
      const { message } = publicFailure(error, { fallback: GENERATION_FAILURE, log: this.deps.log, context: { generationId } });
      // The event is recorded in the webhooks' outbox in the failure's transaction, and only when this call failed it.
      const failed = await this.deps.repo.fail(generationId, 'STATION_GENERATION_FAILED', message, this.deps.clock.date(), {}, (tx) =>
        this.deps.events.recordIn(tx, 'station.track.generation_failed', {
          generation_id: generationId,
          error_code: 'STATION_GENERATION_FAILED',
          message,
        }),
      );
      await failed?.raised();
    }
  }

  /**
   * The steps of the header's diagram, in its order (the claim is handle's). Each step is one method below,
   * named step<N><what>; the render, hole check, features and audio check are retried together with derived
   * seeds until the audio is original.
   */
  private async run(row: GenerationRow): Promise<void> {
    const job = await this.prepare(row);
    const lyric = await this.step1Lyrics(job);
    const reference = await this.deps.safetyReference.ref();
    // The audio filter may still find a copy the composer's own novelty check missed: try again with seeds
    // derived from the generation's seed (same request and seed => same attempts => same result).
    const { result: attempt } = await firstOriginalAttempt(row.seed, async (seed) => {
      const track = await this.step2Render(job, lyric, seed);
      await this.step3HoleCheck(track);
      const features = await this.step4Features(track);
      const audioVerdict = await this.step5AudioSafety(reference, features);
      return { result: { track, features, audioVerdict }, passed: audioVerdict.playable };
    });
    const { track, features, audioVerdict } = attempt;
    const safety = this.step5SafetyVerdict(job, audioVerdict, lyric);
    const influencedBy = await this.step6Influences(reference, features);
    const keys = await this.step7StoreBlobs(job, track);
    await this.step8Register(job, lyric, track, keys, influencedBy, safety.safetyScore);
    await this.step9Complete(job, lyric, track, keys, audioVerdict, safety);
  }

  /** What every step reads: the frozen context, the configuration, the bound model, the new track's id. */
  private async prepare(row: GenerationRow): Promise<RunState> {
    const context = row.context;
    const config = await this.deps.config.get();
    const audioModel = await this.deps.models.requireVersion('audio', row.modelVersion!); // claim() only takes bound jobs
    const stationTrackId = newStationTrackId();
    return { row, context, config, audioModel, stationTrackId, onProgress: this.progressReporter(row.id) };
  }

  /** Progress goes to listeners at once and to the database at most every PROGRESS_WRITE_INTERVAL_MS (over all attempts). */
  private progressReporter(generationId: string): ProgressFn {
    let lastWrite = 0;
    return (pct, eta) => {
      void this.deps.events.generationProgress(generationId, pct, eta).catch(() => undefined);
      const now = Date.now();
      if (now - lastWrite >= PROGRESS_WRITE_INTERVAL_MS) {
        lastWrite = now;
        void this.deps.repo.progress(generationId, Math.min(99, Math.round(pct)), Math.round(eta)).catch(() => undefined);
      }
    };
  }

  private async step1Lyrics({ row, context }: RunState): Promise<TrackLyric | null> {
    if (!row.includeLyrics || !row.lyricsModelVersion) return null;
    return this.deps.lyrics.generateForTrack({
      generationId: row.id,
      sessionId: row.sessionId,
      modelVersion: row.lyricsModelVersion,
      mood: context.mood,
      theme: THEME_BY_LIFESTYLE[context.lifestyle] ?? context.genre,
      language: 'en',
      seed: row.seed,
    });
  }

  /** Compose, render and encode (the engine, on a worker thread). */
  private step2Render({ row, context, audioModel, stationTrackId, onProgress }: RunState, lyric: TrackLyric | null, seed: number): Promise<TrackResult> {
    return this.deps.engine.generateTrack(
      {
        context,
        seed,
        maxDurationSec: row.maxDurationSec,
        quality: row.quality as '128kbps' | '192kbps' | '320kbps',
        audioModel: artifactRefOf(audioModel),
        stationName: STATION_NAME,
        stationTrackId,
        titleWords: lyric?.title ? lyric.title.split(/\s+/) : undefined,
        lyrics: lyric ? lyric.sung : null,
      },
      onProgress,
    );
  }

  /** A render with a hole (over a second under -50 dBFS after its first sound) never reaches the radio; measured on the master, which is what airs. */
  private async step3HoleCheck(track: TrackResult): Promise<void> {
    const holeSec = await longestHoleSec(track.master ?? track.mp3, track.master ? 'flac' : 'mp3');
    if (holeSec > MAX_RENDER_HOLE_SEC) throw new Error(`render rejected: a ${holeSec.toFixed(2)} s hole under -50 dBFS`);
  }

  private step4Features(track: TrackResult): Promise<AudioFeatures> {
    return this.deps.engine.extractFeatures(track.mp3, 'mp3');
  }

  /** The audio half of the safety step, inside the retry: a copy of the catalog is tried again with another seed. */
  private step5AudioSafety(reference: ArtifactRef, features: AudioFeatures): Promise<SafetyVerdict> {
    return this.deps.engine.checkAudio(reference, features);
  }

  /** Both verdicts together: the track's safety score and whether it is withheld. */
  private step5SafetyVerdict({ config }: RunState, audioVerdict: SafetyVerdict, lyric: TrackLyric | null): SafetyOutcome {
    const lyricsVerdict: SafetyVerdict | null = lyric ? lyric.verdict : null;
    const safetyScore = Math.min(audioVerdict.safety_score, lyricsVerdict?.safety_score ?? 1);
    const blocked =
      !audioVerdict.playable || (lyricsVerdict !== null && !lyricsVerdict.playable) || (lyricsVerdict?.explicit_detected && !config.explicitAllowed);
    return { lyricsVerdict, safetyScore, blocked: Boolean(blocked) };
  }

  /** The platform-owned catalog tracks whose style is nearest (transparency: "influenced by"). */
  private async step6Influences(reference: ArtifactRef, features: AudioFeatures) {
    const style = await this.deps.models.production('style_embedding');
    if (!style) return [];
    const nearest = await this.deps.engine.influences(artifactRefOf(style), reference, features, INFLUENCES_LISTED);
    if (nearest.length === 0) return [];
    const rows = await this.deps.catalog.namedTracks(nearest.map((n) => n.id));
    const byId = new Map(rows.filter((r) => r.platformOwned).map((r) => [r.id, r]));
    return nearest
      .filter((n) => byId.has(n.id))
      .map((n) => ({ track_id: n.id, title: byId.get(n.id)!.title, artist: byId.get(n.id)!.artist, similarity: Math.round(n.similarity * 1000) / 1000 }));
  }

  private async step7StoreBlobs({ row, stationTrackId }: RunState, track: TrackResult): Promise<BlobKeys> {
    const master = track.master ? masterKeyOf(stationTrackId) : null;
    const keys: BlobKeys = {
      audio: master ?? `ai/${stationTrackId}.mp3`,
      stream: master ? aiStreamKey(master, row.quality) : null,
      waveform: `ai/${stationTrackId}.waveform.json`,
      cover: `ai/${stationTrackId}.png`,
      vocalStem: track.vocals ? `ai/${stationTrackId}.vocals.mp3` : null,
    };
    await Promise.all([
      this.deps.blobs.put(keys.audio, track.master ?? track.mp3),
      ...(keys.stream ? [this.deps.blobs.put(keys.stream, track.mp3)] : []),
      this.deps.blobs.put(keys.waveform, Buffer.from(JSON.stringify(track.waveform))),
      this.deps.blobs.put(keys.cover, track.coverPng),
      ...(track.vocals && keys.vocalStem ? [this.deps.blobs.put(keys.vocalStem, track.vocals.stemMp3)] : []),
    ]);
    return keys;
  }

  /** Module G keeps the track's provenance, whether it is played or withheld. */
  private async step8Register(
    { row, context, audioModel, stationTrackId }: RunState,
    lyric: TrackLyric | null,
    track: TrackResult,
    keys: BlobKeys,
    influencedBy: Awaited<ReturnType<GenerationRunner['step6Influences']>>,
    safetyScore: number,
  ): Promise<void> {
    await this.deps.registry.register({
      stationTrackId,
      generationId: row.id,
      sessionId: row.sessionId,
      radioOnly: true,
      modelVersion: audioModel.version,
      lyricsModelVersion: lyric ? lyric.modelVersion : null,
      trainingDatasetHash: audioModel.datasetHash,
      contextSnapshot: { context_id: row.contextId, ...context },
      title: track.title,
      genre: context.genre,
      mood: context.mood,
      bpm: track.bpm,
      durationSec: Math.round(track.durationSec),
      audioBlobKey: keys.audio,
      audioSha256: createHash('sha256')
        .update(track.master ?? track.mp3)
        .digest('hex'),
      waveformBlobKey: keys.waveform,
      coverBlobKey: keys.cover,
      lyricId: lyric?.id ?? null,
      influencedBy,
      safetyScore,
      generatedAt: this.deps.clock.date(),
    });
  }

  /** Complete and announce it, or (safety block) withhold it and start a replacement. */
  private async step9Complete(
    { row, audioModel, stationTrackId }: RunState,
    lyric: TrackLyric | null,
    track: TrackResult,
    keys: BlobKeys,
    audioVerdict: SafetyVerdict,
    safety: SafetyOutcome,
  ): Promise<void> {
    const fields = {
      stationTrackId,
      title: track.title,
      bpm: track.bpm,
      musicalKey: `${track.key} ${track.mode}`,
      durationSec: track.durationSec,
      audioBlobKey: keys.audio,
      waveformBlobKey: keys.waveform,
      coverBlobKey: keys.cover,
      vocalStemBlobKey: keys.vocalStem,
      lyricId: lyric?.id ?? null,
      timings: track.timings,
      completedAt: this.deps.clock.date(),
    };
    if (safety.blocked) {
      await this.withhold(row, stationTrackId, safety.safetyScore, audioVerdict, safety.lyricsVerdict, fields);
      return;
    }
    const completed = await this.deps.repo.complete(row.id, fields, (tx) =>
      this.deps.events.recordIn(tx, 'station.track.generation_complete', {
        generation_id: row.id,
        station_track_id: stationTrackId,
        stream_url: this.deps.signer.sign(keys.stream ?? keys.audio, STREAM_LINK_TTL_SEC).url,
        duration_sec: Math.round(track.durationSec),
        model_version: audioModel.version,
      }),
    );
    await completed?.raised();
  }

  /** Registered but never played: flag it, tell subscribers, and try again with another seed. */
  private async withhold(
    row: GenerationRow,
    stationTrackId: string,
    safetyScore: number,
    audio: SafetyVerdict,
    lyrics: SafetyVerdict | null,
    fields: Record<string, unknown>,
  ) {
    const flagType = lyrics && !lyrics.playable ? (lyrics.explicit_detected ? 'explicit_lyrics' : 'lyrics_similarity') : 'audio_duplicate';
    await this.deps.registry.raiseSafetyFlag({
      stationTrackId,
      generationId: row.id,
      lyricId: (fields.lyricId as string | null) ?? null,
      flagType,
      safetyScore,
      detail: { audio: audio.flagged_categories, lyrics: lyrics?.flagged_categories ?? [] },
    });
    const failed = await this.deps.repo.fail(
      row.id,
      'STATION_SAFETY_BLOCK',
      `safety filter blocked the track (${flagType}, score ${safetyScore})`,
      this.deps.clock.date(),
      fields,
      (tx) => this.deps.events.recordIn(tx, 'station.safety.flag_raised', { station_track_id: stationTrackId, flag_type: flagType, safety_score: safetyScore }),
    );
    await failed?.raised();
    if ((await this.replacementDepth(row)) < MAX_SAFETY_RETRIES) {
      await this.deps.generations.regenerate(row.id, 'safety-retry').catch((error) => this.deps.log.warn({ err: error }, 'replacement generation not started'));
    }
  }

  private async replacementDepth(row: GenerationRow): Promise<number> {
    let depth = 0;
    let current: GenerationRow | null = row;
    while (current?.regeneratedFrom && depth < MAX_SAFETY_RETRIES + 1) {
      current = await this.deps.repo.find(current.regeneratedFrom);
      depth += 1;
    }
    return depth;
  }
}
