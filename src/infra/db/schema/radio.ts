import type { MusicContext } from '../../../engine/types.js';
import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, doublePrecision, index, integer, jsonb, pgEnum, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const generationMode = pgEnum('generation_mode', ['catalog_only', 'ai_only', 'hybrid']);
export const streamQuality = pgEnum('stream_quality', ['128kbps', '192kbps', '320kbps']);
export const lifestyle = pgEnum('lifestyle', ['focus', 'party', 'chill', 'workout', 'sleep']);
export const keyPreference = pgEnum('key_preference', ['major', 'minor', 'any']);

/** Module A: the single station configuration record (id is always 1). */
export const stationConfig = pgTable(
  'station_config',
  {
    id: integer('id').primaryKey().default(1),
    radioEnabled: boolean('radio_enabled').notNull().default(false),
    generationMode: generationMode('generation_mode').notNull().default('hybrid'),
    // Double precision: the API checks catalog_ratio + ai_generation_ratio = 1 within 1e-9, which a
    // 4-byte real cannot hold (a value stored as real would fail the check on the next partial update).
    catalogRatio: doublePrecision('catalog_ratio').notNull().default(0.7),
    aiGenerationRatio: doublePrecision('ai_generation_ratio').notNull().default(0.3),
    lyricsGeneration: boolean('lyrics_generation').notNull().default(true),
    explicitAllowed: boolean('explicit_allowed').notNull().default(false),
    maxTrackLengthSec: integer('max_track_length_sec').notNull().default(240),
    generationLeadTime: integer('generation_lead_time').notNull().default(120),
    /** The API accepts catalog_only and hybrid only (ai_only makes no sense while the ML service is down). */
    fallbackMode: generationMode('fallback_mode').notNull().default('catalog_only'),
    streamQuality: streamQuality('stream_quality').notNull().default('128kbps'),
    /** Seconds of overlap between consecutive tracks on air. */
    crossfadeSec: integer('crossfade_sec').notNull().default(3),
    /** Distinct listeners whose flag_inappropriate reports withhold an AI track before any admin review. */
    reportThreshold: integer('report_threshold').notNull().default(3),
    disabledReason: text('disabled_reason'),
    /** When and by whom the radio was last switched on or off (POST /admin/radio/enable|disable). */
    radioChangedAt: timestamp('radio_changed_at', { withTimezone: true }),
    radioChangedBy: text('radio_changed_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('station_config_single_row', sql`${t.id} = 1`),
    check('station_config_ratio_range', sql`${t.catalogRatio} BETWEEN 0 AND 1 AND ${t.aiGenerationRatio} BETWEEN 0 AND 1`),
    check('station_config_ratio_sum', sql`abs(${t.catalogRatio} + ${t.aiGenerationRatio} - 1) < 1e-6`),
    check('station_config_track_length', sql`${t.maxTrackLengthSec} BETWEEN 10 AND 900`),
    check('station_config_crossfade', sql`${t.crossfadeSec} BETWEEN 0 AND 10`),
    check('station_config_report_threshold', sql`${t.reportThreshold} BETWEEN 1 AND 1000`),
  ],
);

/** Module D: every context that was ever active, newest last; the current one is the latest. */
export const stationContexts = pgTable(
  'station_contexts',
  {
    contextId: text('context_id').primaryKey(),
    /** Insertion order: the current context is the one with the highest seq (active_since can tie). */
    seq: bigserial('seq', { mode: 'number' }).notNull().unique(),
    genre: text('genre').notNull(),
    subgenre: text('subgenre').notNull().default(''),
    mood: text('mood').array().notNull(),
    lifestyle: lifestyle('lifestyle').notNull(),
    tempoMin: integer('tempo_min').notNull(),
    tempoMax: integer('tempo_max').notNull(),
    keyPreference: keyPreference('key_preference').notNull().default('any'),
    energyLevel: real('energy_level').notNull(),
    timeOfDay: text('time_of_day').notNull(),
    /** time_of_day was set by an operator (PATCH /context/current); it holds until the next rotation. */
    timeOfDayOverride: boolean('time_of_day_override').notNull().default(false),
    autoRotate: boolean('auto_rotate').notNull().default(true),
    activeSince: timestamp('active_since', { withTimezone: true }).notNull().defaultNow(),
    nextRotation: timestamp('next_rotation', { withTimezone: true }),
    source: text('source').notNull(),
    presetId: uuid('preset_id'),
    /** Set on rotations only: the context rotated away from. Unique, so two instances cannot both rotate it. */
    rotatedFrom: text('rotated_from').unique(),
  },
  (t) => [
    index('station_contexts_active_idx').on(t.activeSince),
    check('station_contexts_tempo', sql`${t.tempoMin} >= 20 AND ${t.tempoMax} <= 300 AND ${t.tempoMin} <= ${t.tempoMax}`),
    check('station_contexts_energy', sql`${t.energyLevel} BETWEEN 0 AND 1`),
  ],
);

/**
 * A preset's context as stored (context_presets.context): the engine's musical context, the part of day it suits
 * and whether it rotates. The context module narrows it to its own PresetContext (presetContextOf).
 */
export interface StoredPresetContext extends MusicContext {
  time_of_day: string | null;
  auto_rotate: boolean;
}

export const contextPresets = pgTable('context_presets', {
  presetId: uuid('preset_id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  /** Partial: rows written before a field existed lack it; presetContextOf fills the defaults. */
  context: jsonb('context').$type<Partial<StoredPresetContext>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The station-wide listener count, one row per minute (the highest count any instance saw in it), for the
 * admin panel's "last 24 hours" chart. Kept 30 days.
 */
export const listenerSamples = pgTable('listener_samples', {
  minute: timestamp('minute', { withTimezone: true }).primaryKey(),
  listeners: integer('listeners').notNull(),
});
