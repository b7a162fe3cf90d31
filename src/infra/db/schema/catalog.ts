import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.js';

export const trackStatus = pgEnum('track_status', ['published', 'removed']);
export const musicalMode = pgEnum('musical_mode', ['major', 'minor']);
export const creditRole = pgEnum('credit_role', ['composer', 'lyricist', 'composer_lyricist', 'producer']);
export const playSource = pgEnum('play_source', ['radio', 'on_demand']);

export const artists = pgTable(
  'artists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull().unique(),
    name: text('name').notNull(),
    bio: text('bio').notNull().default(''),
    genre: text('genre').notNull(),
    verified: boolean('verified').notNull().default(false),
    // Only platform-owned artists' audio and lyrics may ever reach AI training (module B).
    platformOwned: boolean('platform_owned').notNull().default(false),
    formedYear: integer('formed_year'),
    ownerUserId: uuid('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
    followers: bigint('followers', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('artists_slug_format', sql`${t.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`)],
);

export const tracks = pgTable(
  'tracks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull().unique(),
    title: text('title').notNull(),
    artistId: uuid('artist_id')
      .notNull()
      .references(() => artists.id, { onDelete: 'restrict' }),
    genre: text('genre').notNull(),
    subgenre: text('subgenre').notNull().default(''),
    mood: text('mood')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    lifestyle: text('lifestyle'),
    bpm: integer('bpm'),
    musicalKey: text('musical_key'),
    mode: musicalMode('mode'),
    energy: real('energy'),
    durationSec: real('duration_sec').notNull(),
    isrc: text('isrc').unique(),
    explicit: boolean('explicit').notNull().default(false),
    releaseYear: integer('release_year'),
    audioBlobKey: text('audio_blob_key'),
    audioFormat: text('audio_format'),
    audioBitrateKbps: integer('audio_bitrate_kbps'),
    audioSizeBytes: bigint('audio_size_bytes', { mode: 'number' }),
    coverBlobKey: text('cover_blob_key'),
    waveformBlobKey: text('waveform_blob_key'),
    streams: bigint('streams', { mode: 'number' }).notNull().default(0),
    status: trackStatus('status').notNull().default('published'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('tracks_artist_idx').on(t.artistId),
    index('tracks_genre_idx').on(t.genre),
    check('tracks_isrc_format', sql`${t.isrc} IS NULL OR ${t.isrc} ~ '^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$'`),
    check('tracks_bpm_range', sql`${t.bpm} IS NULL OR (${t.bpm} BETWEEN 20 AND 300)`),
    check('tracks_duration_positive', sql`${t.durationSec} > 0`),
  ],
);

export const songwriters = pgTable('songwriters', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  ipi: text('ipi'),
  // The platform's own songwriters are the only lyric source the lyrics model may learn from.
  platformOwned: boolean('platform_owned').notNull().default(false),
  artistId: uuid('artist_id').references(() => artists.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const trackCredits = pgTable(
  'track_credits',
  {
    trackId: uuid('track_id')
      .notNull()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    songwriterId: uuid('songwriter_id')
      .notNull()
      .references(() => songwriters.id, { onDelete: 'restrict' }),
    role: creditRole('role').notNull(),
    splitPct: numeric('split_pct', { precision: 5, scale: 2, mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.trackId, t.songwriterId, t.role] }),
    check('track_credits_split_range', sql`${t.splitPct} > 0 AND ${t.splitPct} <= 100`),
  ],
);

export const lyrics = pgTable(
  'lyrics',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull().unique(),
    trackId: uuid('track_id').references(() => tracks.id, { onDelete: 'set null' }),
    artistId: uuid('artist_id')
      .notNull()
      .references(() => artists.id, { onDelete: 'restrict' }),
    // Attribution: every lyric names the songwriter who wrote it.
    songwriterId: uuid('songwriter_id')
      .notNull()
      .references(() => songwriters.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    language: text('language').notNull(),
    mood: text('mood')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    theme: text('theme').notNull().default(''),
    sections: jsonb('sections').$type<{ name: string; lines: string[] }[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The track detail asks whether a track has lyrics on every read.
  (t) => [check('lyrics_language_format', sql`${t.language} ~ '^[a-z]{2}$'`), index('lyrics_track_idx').on(t.trackId)],
);

export const playEvents = pgTable(
  'play_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    trackId: uuid('track_id')
      .notNull()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    source: playSource('source').notNull(),
    sessionId: text('session_id'),
    playedAt: timestamp('played_at', { withTimezone: true }).notNull().defaultNow(),
    secondsPlayed: real('seconds_played'),
  },
  (t) => [index('play_events_track_idx').on(t.trackId, t.playedAt), index('play_events_played_idx').on(t.playedAt)],
);

/** Style features of a catalog master, extracted once and reused (engine/features). */
export const trackFeatures = pgTable('track_features', {
  trackId: uuid('track_id')
    .primaryKey()
    .references(() => tracks.id, { onDelete: 'cascade' }),
  extractorVersion: text('extractor_version').notNull(),
  features: jsonb('features').notNull(),
  extractedAt: timestamp('extracted_at', { withTimezone: true }).notNull().defaultNow(),
});
