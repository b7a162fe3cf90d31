import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  foreignKey,
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
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { apiKeyEnvironment, users } from './auth.js';
import type { AudioFeatures } from '../../../engine/types.js';

/** A PostgreSQL tsvector (read and written by SQL only: the catalog's search document). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * processing: uploaded, stream renditions still rendering (POST /v1/tracks); published: in the catalog;
 * removed: taken down (DELETE /v1/tracks/{id}), rows kept; failed: an upload whose renditions could not be made.
 */
export const trackStatus = pgEnum('track_status', ['published', 'removed', 'processing', 'failed']);
export type TrackStatus = (typeof trackStatus.enumValues)[number];
export const musicalMode = pgEnum('musical_mode', ['major', 'minor']);
export const creditRole = pgEnum('credit_role', ['composer', 'lyricist', 'composer_lyricist', 'producer']);
export const playSource = pgEnum('play_source', ['radio', 'on_demand']);
/** What a listener played on, from the User-Agent at the play (src/platform/analytics/device-class.ts). */
export const deviceClass = pgEnum('device_class', ['mobile', 'tablet', 'desktop', 'tv', 'bot', 'other', 'unknown']);
/**
 * The kinds of release: one list for the catalog's albums and the store's products (a product sells a
 * release, or a hand-picked set of tracks, as one of these). Its database name predates albums.
 */
export const releaseType = pgEnum('store_product_type', ['album', 'ep', 'single']);

/**
 * Artists and tracks belong to one environment: 'live' (the catalog) or 'test' (the sandbox a test key sees,
 * seeded from the demo: src/demo/seed-sandbox.ts). Slugs and ISRCs are unique within an environment, so a sandbox
 * copy answers on the same paths as its live original; a track's artist is always of its own environment, and
 * only live artists may be platform-owned (so nothing of the sandbox can reach the radio's dataset or training).
 */
export const artists = pgTable(
  'artists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    environment: apiKeyEnvironment('environment').notNull().default('live'),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    bio: text('bio').notNull().default(''),
    genre: text('genre').notNull(),
    verified: boolean('verified').notNull().default(false),
    /** Who verified the artist and when (POST /v1/admin/artists/{id}/verify); null while unverified. */
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    verifiedBy: uuid('verified_by').references(() => users.id, { onDelete: 'set null' }),
    // Only platform-owned artists' audio and lyrics may ever reach AI training (module B).
    platformOwned: boolean('platform_owned').notNull().default(false),
    formedYear: integer('formed_year'),
    // ISO 3166-1 alpha-2 (POST /v1/artists); null when not given.
    country: text('country'),
    ownerUserId: uuid('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
    followers: bigint('followers', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('artists_slug_format', sql`${t.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
    unique('artists_environment_slug_uq').on(t.environment, t.slug),
    // The target of tracks' (artist_id, environment) foreign key: a track's artist is of the track's environment.
    unique('artists_id_environment_uq').on(t.id, t.environment),
    check('artists_platform_owned_live', sql`${t.environment} = 'live' OR NOT ${t.platformOwned}`),
  ],
);

/**
 * A release: an album, EP or single of one artist, grouping its tracks in order (tracks.album_id and
 * track_number). What the store sells is a product, which may name the release it sells (store_products.album_id).
 */
export const albums = pgTable(
  'albums',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // A release is of its artist's environment (the FK below), so the sandbox's copy of a demo release
    // answers on the same slug as its live original.
    environment: apiKeyEnvironment('environment').notNull().default('live'),
    slug: text('slug').notNull(),
    artistId: uuid('artist_id')
      .notNull()
      .references(() => artists.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    type: releaseType('type').notNull(),
    releaseYear: integer('release_year'),
    genre: text('genre').notNull(),
    coverBlobKey: text('cover_blob_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('albums_artist_idx').on(t.artistId, t.releaseYear),
    index('albums_year_idx').on(t.releaseYear),
    // The target of tracks' (album_id, artist_id) foreign key: a track is only ever on its own artist's release.
    unique('albums_id_artist_uq').on(t.id, t.artistId),
    unique('albums_environment_slug_uq').on(t.environment, t.slug),
    foreignKey({ name: 'albums_artist_same_environment_fk', columns: [t.artistId, t.environment], foreignColumns: [artists.id, artists.environment] }),
    check('albums_slug_format', sql`${t.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
    check('albums_release_year_range', sql`${t.releaseYear} IS NULL OR (${t.releaseYear} BETWEEN 1900 AND 2100)`),
  ],
);

export const tracks = pgTable(
  'tracks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    environment: apiKeyEnvironment('environment').notNull().default('live'),
    slug: text('slug').notNull(),
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
    isrc: text('isrc'),
    explicit: boolean('explicit').notNull().default(false),
    releaseYear: integer('release_year'),
    /** The stream audio a listener's player fetches (an MP3 rendition; `audio` in the API). */
    audioBlobKey: text('audio_blob_key'),
    /**
     * The lossless master (FLAC), or an MP3 upload's original file, when the platform keeps one: the radio airs
     * it and every rendition is encoded from it (issue 18). Null for rows from before masters were kept.
     */
    masterBlobKey: text('master_blob_key'),
    audioFormat: text('audio_format'),
    audioBitrateKbps: integer('audio_bitrate_kbps'),
    audioSizeBytes: bigint('audio_size_bytes', { mode: 'number' }),
    coverBlobKey: text('cover_blob_key'),
    waveformBlobKey: text('waveform_blob_key'),
    // Integrated loudness (BS.1770, LUFS) of the master, for the radio's level matching; null if unmeasured or silent.
    loudnessLufs: real('loudness_lufs'),
    streams: bigint('streams', { mode: 'number' }).notNull().default(0),
    status: trackStatus('status').notNull().default('published'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The release the track is on, and its place there (1-based); both null for a track on no release. */
    albumId: uuid('album_id'),
    trackNumber: integer('track_number'),
    /**
     * The search document: the words of the title, artist name, release title, genre and subgenre, lower-cased
     * and accent-folded, plus marked copies of the title's and the names' words for ranking. Kept by triggers
     * (drizzle/0022_artists_albums_search.sql), since the artist's and release's names live in other tables;
     * never written by the application (writing anything to it recomputes it).
     */
    searchVector: tsvector('search_vector')
      .notNull()
      .default(sql`''::tsvector`),
  },
  (t) => [
    index('tracks_artist_idx').on(t.artistId),
    index('tracks_genre_idx').on(t.genre),
    // fastupdate off: PGlite runs no autovacuum, so a pending list would never be merged and every search would scan it.
    index('tracks_search_idx').using('gin', t.searchVector).with({ fastupdate: false }),
    // The catalog's default order (most streamed first), and the walk a broad search takes (track-search.ts).
    // Led by the environment: every catalog read names one, and a walk of the live catalog skips no sandbox rows.
    index('tracks_popularity_idx')
      .on(t.environment, t.streams.desc().nullsFirst(), t.title, t.id)
      .where(sql`${t.status} = 'published'`),
    unique('tracks_environment_slug_uq').on(t.environment, t.slug),
    unique('tracks_environment_isrc_uq').on(t.environment, t.isrc),
    foreignKey({ name: 'tracks_artist_same_environment_fk', columns: [t.artistId, t.environment], foreignColumns: [artists.id, artists.environment] }),
    uniqueIndex('tracks_album_position_uq')
      .on(t.albumId, t.trackNumber)
      .where(sql`${t.albumId} IS NOT NULL`),
    foreignKey({ name: 'tracks_album_same_artist_fk', columns: [t.albumId, t.artistId], foreignColumns: [albums.id, albums.artistId] }),
    check('tracks_album_position', sql`(${t.albumId} IS NULL) = (${t.trackNumber} IS NULL) AND (${t.trackNumber} IS NULL OR ${t.trackNumber} >= 1)`),
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
  /** Publishing rights: the publisher administering the songwriter's share and their performing rights organisation. */
  publisher: text('publisher'),
  pro: text('pro'),
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
  (t) => [primaryKey({ columns: [t.trackId, t.songwriterId, t.role] }), check('track_credits_split_range', sql`${t.splitPct} > 0 AND ${t.splitPct} <= 100`)],
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
    // A listener's stream: the device class of its User-Agent (the header itself is not kept) and the country
    // of the listener's profile at the time of the play. Both null for a radio airing, which has no listener.
    deviceClass: deviceClass('device_class'),
    country: text('country'),
  },
  // Every insert also moves tracks.streams and appends to the live analytics feed: triggers of migration
  // 0020_analytics (src/platform/analytics/README.md).
  (t) => [
    index('play_events_track_idx').on(t.trackId, t.playedAt),
    index('play_events_played_idx').on(t.playedAt),
    index('play_events_user_idx').on(t.userId, t.playedAt),
    check('play_events_country_format', sql`${t.country} IS NULL OR ${t.country} ~ '^[A-Z]{2}$'`),
  ],
);

/** Style features of a catalog master, extracted once and reused (engine/features). */
export const trackFeatures = pgTable('track_features', {
  trackId: uuid('track_id')
    .primaryKey()
    .references(() => tracks.id, { onDelete: 'cascade' }),
  extractorVersion: text('extractor_version').notNull(),
  features: jsonb('features').$type<AudioFeatures>().notNull(),
  extractedAt: timestamp('extracted_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Who follows which artist, per environment: written only by the artists group (its follows.repository.ts), with
 * the live `artists.followers` counter in the same transaction; listeners and capsules use it through its `follows`.
 */
export const artistFollows = pgTable(
  'artist_follows',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    artistId: uuid('artist_id')
      .notNull()
      .references(() => artists.id, { onDelete: 'cascade' }),
    environment: apiKeyEnvironment('environment').notNull().default('live'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.environment, t.artistId] }), index('artist_follows_artist_idx').on(t.artistId, t.environment)],
);
