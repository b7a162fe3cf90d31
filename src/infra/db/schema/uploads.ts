import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { tracks } from './catalog.js';

/**
 * Tracks uploaded through POST /v1/tracks: the master as uploaded (blob key and what the probe found) and
 * where its rendering stands. The catalog row (tracks) points at the 320 kbps stream rendition; the master
 * is kept here, untouched.
 */
export const trackUploads = pgTable(
  'track_uploads',
  {
    trackId: uuid('track_id')
      .primaryKey()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    masterBlobKey: text('master_blob_key').notNull(),
    masterFormat: text('master_format').notNull(),
    container: text('container').notNull(),
    codec: text('codec'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sampleRate: integer('sample_rate').notNull(),
    channels: integer('channels').notNull(),
    bitrateKbps: integer('bitrate_kbps'),
    originalFilename: text('original_filename'),
    /** The album the uploader named (or the file's album tag); releases will group tracks by it. */
    album: text('album'),
    /** The tags the probe read from the file, as found (title, artist, album, genre, year, isrc). */
    tags: jsonb('tags').$type<Record<string, string | number | null>>().notNull().default({}),
    /** Why rendering failed for good (status failed); shown to the uploader. */
    failure: text('failure'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (t) => [index('track_uploads_uploaded_by_idx').on(t.uploadedBy)],
);

/** Why and by whom a track was taken down (DELETE /v1/tracks/{id}); the track row itself stays. */
export const trackTakedowns = pgTable('track_takedowns', {
  trackId: uuid('track_id')
    .primaryKey()
    .references(() => tracks.id, { onDelete: 'cascade' }),
  reason: text('reason').notNull(),
  removedBy: uuid('removed_by').references(() => users.id, { onDelete: 'set null' }),
  removedAt: timestamp('removed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** What the master backfill found for a catalog track from before masters were kept (platform/uploads/master-backfill.ts). */
export type MasterBackfillOutcome = 'made_lossless' | 'adopted_lossless' | 'adopted_original_mp3' | 'stream_audio_only';

/**
 * One row per catalog track the master backfill has looked at (issue 18, migration 0039 added
 * `tracks.master_blob_key`): what it found, so that a track with no lossless source is recorded as airing its
 * stream audio rather than given a master it does not have, and so that no track is looked at twice for the
 * same stream audio (a new one, e.g. a master rendered again, is looked at again).
 */
export const trackMasterBackfill = pgTable('track_master_backfill', {
  trackId: uuid('track_id')
    .primaryKey()
    .references(() => tracks.id, { onDelete: 'cascade' }),
  /** The track's stream audio when it was looked at. */
  audioBlobKey: text('audio_blob_key').notNull(),
  outcome: text('outcome').$type<MasterBackfillOutcome>().notNull(),
  /** The master the track was given; null for `stream_audio_only`. */
  masterBlobKey: text('master_blob_key'),
  /** Why, in words (shown to operators in logs; kept for support). */
  detail: text('detail').notNull(),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
});
