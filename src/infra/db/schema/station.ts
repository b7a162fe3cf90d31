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
import type { AudioQuality, MusicContext } from '../../../engine/types.js';

/**
 * A generation as it was asked for (POST /station/v1/generate), kept in generations.request: module E's
 * GenerationRequest. Declared here, beside its column, because the schema may not import a module.
 */
export interface StoredGenerationRequest {
  context_id?: string | null;
  context_override?: Partial<MusicContext> | null;
  model_version?: string | null;
  max_duration_sec: number;
  seed?: number | null;
  quality: AudioQuality;
  include_lyrics?: boolean;
  session_id?: string | null;
}

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
    uniqueIndex('model_versions_one_production')
      .on(t.modelType)
      .where(sql`${t.status} = 'production'`),
    check('model_versions_dataset_hash_format', sql`${t.datasetHash} ~ '^sha256:[0-9a-f]{64}$'`),
  ],
);

/** Module E: one music generation job. */
export const generations = pgTable(
  'generations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    status: generationStatus('status').notNull().default('pending'),
    request: jsonb('request').$type<StoredGenerationRequest>().notNull(),
    /** The context resolved when the generation was accepted (the override applied): what it renders. */
    context: jsonb('context').$type<MusicContext>().notNull(),
    contextId: text('context_id'),
    seed: bigint('seed', { mode: 'number' }).notNull(),
    quality: text('quality').notNull(),
    maxDurationSec: integer('max_duration_sec').notNull(),
    includeLyrics: boolean('include_lyrics').notNull().default(false),
    sessionId: text('session_id'),
    /** Null while the job waits for the first production audio model (bound when one is deployed). */
    modelVersion: text('model_version'),
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
    /** The sung vocal alone (mono MP3) of a track with lyrics, kept beside the master; null if instrumental. */
    vocalStemBlobKey: text('vocal_stem_blob_key'),
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

/**
 * Module F: generated lyrics with their safety verdict. A request made while the first lyrics model is still
 * being trained is stored `pending` (no model, no text yet) and generated when a model is deployed.
 */
export const lyricGenerations = pgTable(
  'lyric_generations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    status: generationStatus('status').notNull().default('complete'),
    request: jsonb('request').$type<Record<string, unknown>>().notNull(),
    theme: text('theme').notNull(),
    language: text('language').notNull(),
    mood: text('mood').array().notNull(),
    structure: jsonb('structure').$type<Record<string, string>>(),
    modelVersion: text('model_version'),
    seed: bigint('seed', { mode: 'number' }).notNull(),
    generationId: uuid('generation_id'),
    safetyScore: real('safety_score'),
    explicitDetected: boolean('explicit_detected'),
    safety: jsonb('safety').$type<Record<string, unknown>>().notNull().default({}),
    safetyCheckedAt: timestamp('safety_checked_at', { withTimezone: true }),
    etaSeconds: integer('eta_seconds'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    requestedBy: text('requested_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('lyric_generations_waiting_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

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

/**
 * The safety log of tracks and lyrics: the safety filter's verdicts (which withhold a track), and the
 * review records of module G (manual_review, listener_report, listener_reports_threshold).
 */
export const safetyFlags = pgTable(
  'safety_flags',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    stationTrackId: text('station_track_id'),
    generationId: uuid('generation_id'),
    lyricId: uuid('lyric_id'),
    flagType: text('flag_type').notNull(),
    safetyScore: real('safety_score').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('safety_flags_station_track_idx').on(t.stationTrackId)],
);

/** What safety_reviews stores; the safety filter's verdicts withhold through safety_flags instead. */
export const REVIEW_WITHHELD_REASONS = ['admin_flag', 'listener_reports'] as const;

/**
 * Module G's safety review of a registered AI track, one row per track once anyone flagged it. `round`
 * counts review rounds: an admin approval closes one, and listener reports count within the open one.
 * A track is withheld from playback while `withheld_reason` is set (the safety filter's own verdicts
 * withhold through safety_flags). The registry row's flag_for_review says whether it is in the queue.
 */
export const safetyReviews = pgTable(
  'safety_reviews',
  {
    stationTrackId: text('station_track_id')
      .primaryKey()
      .references(() => registryTracks.stationTrackId, { onDelete: 'restrict' }),
    round: integer('round').notNull().default(1),
    withheldReason: text('withheld_reason', { enum: REVIEW_WITHHELD_REASONS }),
    withheldAt: timestamp('withheld_at', { withTimezone: true }),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    approvedBy: text('approved_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('safety_reviews_reason', sql`${t.withheldReason} IS NULL OR ${t.withheldReason} IN ('admin_flag', 'listener_reports')`),
    check('safety_reviews_withheld_at', sql`(${t.withheldReason} IS NULL) = (${t.withheldAt} IS NULL)`),
    check('safety_reviews_round', sql`${t.round} >= 1`),
  ],
);

/**
 * Listener reports (flag_inappropriate) of AI tracks: at most one per reporter per review round, so the
 * distinct reporters of a round are one count over the unique index, and a repeated report is a no-op.
 */
export const safetyReports = pgTable(
  'safety_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    stationTrackId: text('station_track_id')
      .notNull()
      .references(() => registryTracks.stationTrackId, { onDelete: 'restrict' }),
    round: integer('round').notNull(),
    /** `user:<id>` or `api_key:<id>`: who reported, kept even if the account goes. */
    reporter: text('reporter').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    feedbackId: uuid('feedback_id'),
    /** The reporter's client address as the app resolves it (TRUST_PROXY; IPv6 by /64): one counted report per address. */
    clientKey: text('client_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('safety_reports_one_per_reporter').on(t.stationTrackId, t.round, t.reporter),
    uniqueIndex('safety_reports_one_per_address').on(t.stationTrackId, t.round, t.clientKey),
  ],
);

/**
 * When a listener could hear the radio: a stream ticket from issue to expiry ('ticket'), and a stream opened
 * with one from open to close ('stream'; until then, the ticket's expiry bounds it, so a crashed instance's
 * open stream does not last for ever). A listener report counts only from someone who held one while the
 * track was on air (src/station/radio/reporter-eligibility.ts).
 */
export const listeningSessions = pgTable(
  'listening_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** `user:<id>`, `api_key:<id>` or `credential:<id>` (listenerKeyOf). */
    listener: text('listener').notNull(),
    kind: text('kind', { enum: ['ticket', 'stream'] }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('listening_sessions_listener_idx').on(t.listener, t.startedAt)],
);

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
