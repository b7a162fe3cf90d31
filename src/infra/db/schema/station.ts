import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.js';

export const generationStatus = pgEnum('generation_status', ['pending', 'in_progress', 'complete', 'failed', 'cancelled']);
export const modelType = pgEnum('model_type', ['audio', 'lyrics', 'style_embedding']);
export const modelStatus = pgEnum('model_status', ['ready', 'production', 'retired']);

/** Trained model versions: artifact in blob storage, metrics, lineage back to a dataset snapshot. */
export const modelVersions = pgTable(
  'model_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    version: text('version').notNull().unique(),
    modelType: modelType('model_type').notNull(),
    status: modelStatus('status').notNull().default('ready'),
    artifactBlobKey: text('artifact_blob_key').notNull(),
    artifactSha256: text('artifact_sha256').notNull(),
    datasetHash: text('dataset_hash').notNull(),
    metrics: jsonb('metrics').$type<Record<string, unknown>>().notNull().default({}),
    lineage: jsonb('lineage').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deployedAt: timestamp('deployed_at', { withTimezone: true }),
  },
  (t) => [
    // At most one production model per type: a deploy swaps them in one transaction.
    uniqueIndex('model_versions_one_production').on(t.modelType).where(sql`${t.status} = 'production'`),
    check('model_versions_dataset_hash_format', sql`${t.datasetHash} ~ '^sha256:[0-9a-f]{64}$'`),
  ],
);

/** Module E: one music generation job. */
export const generations = pgTable(
  'generations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    status: generationStatus('status').notNull().default('pending'),
    request: jsonb('request').$type<Record<string, unknown>>().notNull(),
    context: jsonb('context').$type<Record<string, unknown>>().notNull(),
    contextId: text('context_id'),
    seed: bigint('seed', { mode: 'number' }).notNull(),
    quality: text('quality').notNull(),
    maxDurationSec: integer('max_duration_sec').notNull(),
    includeLyrics: boolean('include_lyrics').notNull().default(false),
    sessionId: text('session_id'),
    modelVersion: text('model_version').notNull(),
    lyricsModelVersion: text('lyrics_model_version'),
    regeneratedFrom: uuid('regenerated_from'),
    progressPct: integer('progress_pct').notNull().default(0),
    etaSeconds: integer('eta_seconds'),
    title: text('title'),
    bpm: integer('bpm'),
    musicalKey: text('musical_key'),
    durationSec: real('duration_sec'),
    audioBlobKey: text('audio_blob_key'),
    waveformBlobKey: text('waveform_blob_key'),
    coverBlobKey: text('cover_blob_key'),
    lyricId: uuid('lyric_id'),
    stationTrackId: text('station_track_id'),
    timings: jsonb('timings').$type<Record<string, number>>(),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    requestedBy: text('requested_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('generations_status_idx').on(t.status, t.createdAt)],
);

/** Module F: generated lyrics with their safety verdict. */
export const lyricGenerations = pgTable('lyric_generations', {
  id: uuid('id').primaryKey().defaultRandom(),
  request: jsonb('request').$type<Record<string, unknown>>().notNull(),
  theme: text('theme').notNull(),
  language: text('language').notNull(),
  mood: text('mood').array().notNull(),
  structure: jsonb('structure').$type<Record<string, string>>().notNull(),
  modelVersion: text('model_version').notNull(),
  seed: bigint('seed', { mode: 'number' }).notNull(),
  generationId: uuid('generation_id'),
  safetyScore: real('safety_score').notNull(),
  explicitDetected: boolean('explicit_detected').notNull(),
  safety: jsonb('safety').$type<Record<string, unknown>>().notNull(),
  safetyCheckedAt: timestamp('safety_checked_at', { withTimezone: true }),
  requestedBy: text('requested_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Module G: the append-only registry of every AI track. A trigger (migration 0001) refuses DELETE,
 * TRUNCATE and any UPDATE except of reuse_eligible, flag_for_review, first_played_at and playback_count;
 * record_hash chains each record to the previous one so an edit made behind the database's back shows.
 */
export const registryTracks = pgTable(
  'registry_tracks',
  {
    seq: bigserial('seq', { mode: 'number' }).notNull().unique(),
    stationTrackId: text('station_track_id').primaryKey(),
    generationId: uuid('generation_id').notNull().unique(),
    trackType: text('track_type').notNull().default('ai_generated'),
    sessionId: text('session_id'),
    radioOnly: boolean('radio_only').notNull().default(true),
    modelVersion: text('model_version').notNull(),
    lyricsModelVersion: text('lyrics_model_version'),
    trainingDatasetHash: text('training_dataset_hash').notNull(),
    contextSnapshot: jsonb('context_snapshot').$type<Record<string, unknown>>().notNull(),
    title: text('title').notNull(),
    genre: text('genre').notNull(),
    mood: text('mood').array().notNull(),
    bpm: integer('bpm').notNull(),
    durationSec: integer('duration_sec').notNull(),
    audioBlobKey: text('audio_blob_key').notNull(),
    waveformBlobKey: text('waveform_blob_key'),
    coverBlobKey: text('cover_blob_key'),
    lyricId: uuid('lyric_id'),
    influencedBy: jsonb('influenced_by').$type<{ track_id: string; title: string; artist: string; similarity: number }[]>().notNull(),
    // Double precision: the value hashed into record_hash must read back bit-for-bit.
    safetyScore: doublePrecision('safety_score').notNull(),
    audioSha256: text('audio_sha256').notNull(),
    generatedAt: timestamp('generated_at', { withTimezone: true }).notNull(),
    prevHash: text('prev_hash').notNull(),
    recordHash: text('record_hash').notNull().unique(),
    firstPlayedAt: timestamp('first_played_at', { withTimezone: true }),
    playbackCount: integer('playback_count').notNull().default(0),
    reuseEligible: boolean('reuse_eligible').notNull().default(false),
    flagForReview: boolean('flag_for_review').notNull().default(false),
  },
  (t) => [
    index('registry_tracks_session_idx').on(t.sessionId),
    index('registry_tracks_generated_idx').on(t.generatedAt),
    check('registry_tracks_type', sql`${t.trackType} = 'ai_generated'`),
    check('registry_tracks_dataset_hash_format', sql`${t.trainingDatasetHash} ~ '^sha256:[0-9a-f]{64}$'`),
    check('registry_tracks_safety_range', sql`${t.safetyScore} >= 0 AND ${t.safetyScore} <= 1`),
  ],
);

/** Safety verdicts that withhold a registered track from playback (module G's review queue reads these too). */
export const safetyFlags = pgTable('safety_flags', {
  id: uuid('id').primaryKey().defaultRandom(),
  stationTrackId: text('station_track_id'),
  generationId: uuid('generation_id'),
  lyricId: uuid('lyric_id'),
  flagType: text('flag_type').notNull(),
  safetyScore: real('safety_score').notNull(),
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
});

export const playOrigin = pgEnum('play_origin', ['catalog', 'ai_generated']);

/**
 * Every track the radio actually played (catalog or AI), written by the scheduler through
 * PlaysRepository.recordPlay. Module G's session aggregates (plays, listener hours) read it.
 */
export const stationPlays = pgTable(
  'station_plays',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    stationTrackId: text('station_track_id').references(() => registryTracks.stationTrackId, { onDelete: 'restrict' }),
    trackId: uuid('track_id'),
    origin: playOrigin('origin').notNull(),
    sessionId: text('session_id'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    durationSec: real('duration_sec').notNull(),
    listenerCount: integer('listener_count').notNull().default(0),
  },
  (t) => [
    index('station_plays_session_idx').on(t.sessionId, t.startedAt),
    index('station_plays_started_idx').on(t.startedAt),
    index('station_plays_station_track_idx').on(t.stationTrackId),
    check(
      'station_plays_origin_ref',
      sql`(${t.origin} = 'ai_generated' AND ${t.stationTrackId} IS NOT NULL) OR (${t.origin} = 'catalog' AND ${t.trackId} IS NOT NULL)`,
    ),
    check('station_plays_duration', sql`${t.durationSec} >= 0`),
    check('station_plays_listeners', sql`${t.listenerCount} >= 0`),
  ],
);
