import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { artists } from './catalog.js';

/**
 * Module B: the dataset configuration (a single record, id 1). The training sources themselves are not
 * stored: they are constants (platform-owned masters, platform songwriters' lyrics) that cannot change.
 * Applies to the next training run only; nothing retrains when it changes.
 */
export const datasetConfig = pgTable(
  'dataset_config',
  {
    id: integer('id').primaryKey().default(1),
    sonicCapsules: boolean('sonic_capsules').notNull().default(false),
    artistFilterMode: text('artist_filter_mode').notNull().default('all'),
    /** Sorted, without duplicates. */
    artistIds: text('artist_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Sorted, without duplicates; empty means every year. */
    includeYears: integer('include_years')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    minAudioBitrateKbps: integer('min_audio_bitrate_kbps').notNull().default(128),
    requireIsrc: boolean('require_isrc').notNull().default(false),
    requireCredits: boolean('require_credits').notNull().default(false),
    updatedBy: text('updated_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('dataset_config_single_row', sql`${t.id} = 1`),
    check('dataset_config_artist_filter_mode', sql`${t.artistFilterMode} IN ('whitelist', 'blacklist', 'all')`),
    check('dataset_config_min_bitrate', sql`${t.minAudioBitrateKbps} >= 0`),
  ],
);

/** An explicit per-artist decision (PATCH /dataset/artists/{id}); it overrides the artist filter. */
export const datasetArtistStatus = pgTable(
  'dataset_artist_status',
  {
    artistId: uuid('artist_id')
      .primaryKey()
      .references(() => artists.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    reason: text('reason').notNull(),
    changedBy: text('changed_by'),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('dataset_artist_status_value', sql`${t.status} IN ('included', 'excluded')`)],
);

/** Every per-artist status change, kept even if the artist is later removed (no foreign key on purpose). */
export const datasetArtistAudit = pgTable(
  'dataset_artist_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    artistId: uuid('artist_id').notNull(),
    oldStatus: text('old_status').notNull(),
    newStatus: text('new_status').notNull(),
    reason: text('reason').notNull(),
    changedBy: text('changed_by'),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('dataset_artist_audit_artist_idx').on(t.artistId, t.id),
    check('dataset_artist_audit_status_values', sql`${t.oldStatus} IN ('included', 'excluded') AND ${t.newStatus} IN ('included', 'excluded')`),
  ],
);
