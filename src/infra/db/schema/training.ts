import { sql } from 'drizzle-orm';
import { check, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Module B: a frozen, named copy of the dataset configuration AND of the exact eligible items, with a
 * sha256 over a canonical serialisation of both (same data, same hash, on any machine). Training jobs
 * (module C) train on a snapshot's items and nothing else.
 */
export const datasetSnapshots = pgTable(
  'dataset_snapshots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** The dataset configuration as it was when the snapshot was taken. */
    config: jsonb('config').$type<Record<string, unknown>>().notNull(),
    /** Catalog track ids whose masters (features) are in the snapshot, sorted. */
    audioTrackIds: text('audio_track_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Lyric ids (lyrics table) in the snapshot, sorted. */
    lyricIds: text('lyric_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    datasetHash: text('dataset_hash').notNull(),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('dataset_snapshots_hash_format', sql`${t.datasetHash} ~ '^sha256:[0-9a-f]{64}$'`)],
);
