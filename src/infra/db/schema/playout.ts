import { bigint, bigserial, boolean, index, integer, pgEnum, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.js';

export const slotOrigin = pgEnum('slot_origin', ['catalog', 'ai_generated']);
export const slotStatus = pgEnum('slot_status', ['planned', 'playing', 'played', 'replaced']);
export const feedbackRating = pgEnum('feedback_rating', ['thumbs_up', 'thumbs_down']);

/**
 * The radio's running order: planned slots ahead, the one on air, and what was played. Kept in the
 * database so a restart (or another instance taking over) resumes the same queue.
 */
export const radioSlots = pgTable(
  'radio_slots',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    origin: slotOrigin('origin').notNull(),
    status: slotStatus('status').notNull().default('planned'),
    trackId: uuid('track_id'),
    generationId: uuid('generation_id'),
    stationTrackId: text('station_track_id'),
    sessionId: text('session_id').notNull(),
    /** Planned AI slots that fell back to the catalog say why. */
    replacedReason: text('replaced_reason'),
    durationSec: real('duration_sec'),
    listenersAtStart: integer('listeners_at_start'),
    plannedAt: timestamp('planned_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [index('radio_slots_status_idx').on(t.status, t.id), index('radio_slots_started_idx').on(t.startedAt)],
);

/** The scheduler's own state (one row): the ratio accumulator and the current radio session. */
export const radioState = pgTable('radio_state', {
  id: integer('id').primaryKey().default(1),
  aiCredit: real('ai_credit').notNull().default(0),
  sessionId: text('session_id').notNull(),
  sessionStartedAt: timestamp('session_started_at', { withTimezone: true }).notNull().defaultNow(),
  fallbackActive: boolean('fallback_active').notNull().default(false),
});

export const listenerFeedback = pgTable(
  'listener_feedback',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    apiKeyId: uuid('api_key_id'),
    stationTrackId: text('station_track_id').notNull(),
    rating: feedbackRating('rating').notNull(),
    flagInappropriate: boolean('flag_inappropriate').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('listener_feedback_track_idx').on(t.stationTrackId)],
);

/**
 * What the live stream's playout measured of a master (engine/audio/track-analysis.ts), by blob key: the
 * on-air gain and crossfade shape of every track, catalog or AI, without decoding it twice. A blob key names
 * one file for good (a re-rendered master gets a new key); `size_bytes` catches a file replaced in place.
 */
export const playoutAnalyses = pgTable('playout_analyses', {
  blobKey: text('blob_key').primaryKey(),
  sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
  durationSec: real('duration_sec').notNull(),
  loudnessLufs: real('loudness_lufs'),
  truePeakDbtp: real('true_peak_dbtp'),
  soundStartSec: real('sound_start_sec').notNull(),
  soundEndSec: real('sound_end_sec').notNull(),
  introSec: real('intro_sec').notNull(),
  outroSec: real('outro_sec').notNull(),
  analysedAt: timestamp('analysed_at', { withTimezone: true }).notNull().defaultNow(),
});
