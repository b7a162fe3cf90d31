/**
 * Listener-owned data of the platform (src/platform/library, playlists, listeners, capsules): saved tracks,
 * playlists, Sonic Capsules and who unlocked them (artist follows are the artists group's, in catalog.ts). Every
 * row carries the environment of the credential that wrote it (src/platform/developer/README.md, "The sandbox rule").
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid, boolean } from 'drizzle-orm/pg-core';
import { apiKeyEnvironment, users } from './auth.js';
import { albums, artists, tracks } from './catalog.js';
import { storeProducts } from './store.js';

/** A track saved to a user's library (albums join when releases exist). */
export const libraryItems = pgTable(
  'library_items',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    trackId: uuid('track_id')
      .notNull()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    environment: apiKeyEnvironment('environment').notNull().default('live'),
    savedAt: timestamp('saved_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.environment, t.trackId] }), index('library_items_user_saved_idx').on(t.userId, t.environment, t.savedAt)],
);

/** A release (album, EP, single) saved to a user's library; listed with the saved tracks (GET /v1/users/me/library). */
export const libraryAlbums = pgTable(
  'library_albums',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    albumId: uuid('album_id')
      .notNull()
      .references(() => albums.id, { onDelete: 'cascade' }),
    environment: apiKeyEnvironment('environment').notNull().default('live'),
    savedAt: timestamp('saved_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.environment, t.albumId] }), index('library_albums_user_saved_idx').on(t.userId, t.environment, t.savedAt)],
);

export const playlists = pgTable(
  'playlists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerUserId: uuid('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    environment: apiKeyEnvironment('environment').notNull().default('live'),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    isPublic: boolean('is_public').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('playlists_owner_idx').on(t.ownerUserId, t.environment, t.createdAt)],
);

/**
 * The tracks of a playlist in order: positions are 0..n-1 and unique per playlist, and a track appears at most
 * once. Every change runs in one transaction that locks the playlist row first, so concurrent edits queue.
 */
export const playlistTracks = pgTable(
  'playlist_tracks',
  {
    playlistId: uuid('playlist_id')
      .notNull()
      .references(() => playlists.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    trackId: uuid('track_id')
      .notNull()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.playlistId, t.position] }),
    uniqueIndex('playlist_tracks_track_uq').on(t.playlistId, t.trackId),
    check('playlist_tracks_position_nonnegative', sql`${t.position} >= 0`),
  ],
);

export const capsuleUnlockRule = pgEnum('capsule_unlock_rule', ['none', 'follow', 'own']);

/** A Sonic Capsule: the teaser is public, the content only for those who unlocked it, the owner and admins. */
export const capsules = pgTable(
  'capsules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    artistId: uuid('artist_id')
      .notNull()
      .references(() => artists.id, { onDelete: 'cascade' }),
    environment: apiKeyEnvironment('environment').notNull().default('live'),
    title: text('title').notNull(),
    teaser: text('teaser').notNull(),
    contentText: text('content_text'),
    contentTrackId: uuid('content_track_id').references(() => tracks.id, { onDelete: 'set null' }),
    contentMediaUrl: text('content_media_url'),
    unlockRule: capsuleUnlockRule('unlock_rule').notNull().default('none'),
    /** With rule `own`: the store product to have bought; null means any product holding one of the artist's tracks. */
    unlockProductId: uuid('unlock_product_id').references(() => storeProducts.id, { onDelete: 'set null' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('capsules_artist_idx').on(t.artistId, t.environment, t.createdAt), index('capsules_env_created_idx').on(t.environment, t.createdAt)],
);

export const capsuleUnlocks = pgTable(
  'capsule_unlocks',
  {
    capsuleId: uuid('capsule_id')
      .notNull()
      .references(() => capsules.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    unlockedAt: timestamp('unlocked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.capsuleId, t.userId] }), index('capsule_unlocks_user_idx').on(t.userId)],
);
