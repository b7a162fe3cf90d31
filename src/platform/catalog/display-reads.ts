/**
 * The catalog's read port for the listener-facing groups: the display fields of tracks, releases and artists
 * (titles, names, slugs, length, plays, status) that a library, a playlist and a capsule show beside their own
 * rows (a listening history is the catalog's own: listening-history.ts). Published by the catalog module as
 * `displayReads`; each group declares the part it uses on its side (`LibraryCatalog`, `PlaylistCatalog`,
 * `CapsuleCatalog`) and reads no catalog table itself.
 *
 * A list that pages over a group's own rows (saved tracks, a playlist's entries, capsules) joins the catalog's
 * fields as a derived table (`trackRefs`, `artistRefs`) rather than reading them by id afterwards: a page and
 * its names stay one statement, read at one snapshot (a playlist's entries in the transaction that edits
 * them), with the plan it had when the group joined the tables itself (PostgreSQL pulls a plain join subquery
 * up into the outer query). A single row or a batch by id is a method.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { idEq } from '../../infra/db/ids.js';
import { albums, artists, tracks, type TrackStatus } from '../../infra/db/schema/index.js';
import type { Environment } from '../../kernel/environment.js';

/** A track as listed in a library, a playlist or a history (src/platform/shared/track-ref.ts maps it to the API's). */
export interface TrackRefRow {
  trackId: string;
  trackSlug: string;
  trackTitle: string;
  artistName: string;
  artistId: string;
  artistSlug: string;
  durationSec: number;
  streams: number;
  genre: string;
  trackStatus: TrackStatus;
}

/** A release as a library lists it. */
export interface AlbumRefRow {
  albumId: string;
  albumSlug: string;
  albumTitle: string;
  albumType: string;
  releaseYear: number | null;
  genre: string;
  artistName: string;
  artistId: string;
  artistSlug: string;
}

export const trackRefColumns = {
  trackId: tracks.id,
  trackSlug: tracks.slug,
  trackTitle: tracks.title,
  artistName: artists.name,
  artistId: artists.id,
  artistSlug: artists.slug,
  durationSec: tracks.durationSec,
  streams: tracks.streams,
  genre: tracks.genre,
  trackStatus: tracks.status,
};

const albumRefColumns = {
  albumId: albums.id,
  albumSlug: albums.slug,
  albumTitle: albums.title,
  albumType: albums.type,
  releaseYear: albums.releaseYear,
  genre: albums.genre,
  artistName: artists.name,
  artistId: artists.id,
  artistSlug: artists.slug,
};

/**
 * The derived tables' names, and the one column of `track_ref` renamed: the artist's slug, which would meet the
 * track's. Every other column keeps its table's name, so that drizzle names it by the derived table
 * (`"track_ref"."id"`); a renamed column it would name bare, which a group's own column of that name would make
 * ambiguous, so `trackRefFields` names it in full.
 */
const TRACK_REF = 'track_ref';
const ARTIST_REF = 'artist_ref';
const ARTIST_SLUG = 'artist_slug';

export class CatalogDisplayReads {
  private readonly trackRefTable;
  private readonly artistRefTable;

  constructor(private readonly db: Db) {
    // Built once: a derived table is SQL text, embedded in whichever handle (or transaction) runs the outer query.
    this.trackRefTable = db
      .select({
        trackId: tracks.id,
        trackSlug: tracks.slug,
        trackTitle: tracks.title,
        artistName: artists.name,
        // The track's own column, equal to the artist's id by the join: `artists.id` would meet `tracks.id`.
        artistId: tracks.artistId,
        artistSlug: sql<string>`${artists.slug}`.as(ARTIST_SLUG),
        durationSec: tracks.durationSec,
        streams: tracks.streams,
        genre: tracks.genre,
        trackStatus: tracks.status,
      })
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .as(TRACK_REF);
    this.artistRefTable = db
      .select({ artistId: artists.id, artistSlug: artists.slug, artistName: artists.name, artistOwnerUserId: artists.ownerUserId })
      .from(artists)
      .as(ARTIST_REF);
  }

  /**
   * Every track with its artist's display fields, as a derived table to join on its `trackId` (its columns are
   * the TrackRefRow's): `.innerJoin(refs, eq(refs.trackId, mine.trackId))`, then select `trackRefFields(refs)`.
   */
  trackRefs() {
    return this.trackRefTable;
  }

  /** Every artist's slug, name and owner, as a derived table to join on its `artistId`. */
  artistRefs() {
    return this.artistRefTable;
  }

  /** A track of the environment (a published one only, when asked), or null. */
  async trackRef(trackId: string, environment: Environment, options: { publishedOnly: boolean }): Promise<TrackRefRow | null> {
    const [row] = await this.db
      .select(trackRefColumns)
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(and(idEq(tracks.id, trackId), eq(tracks.environment, environment), options.publishedOnly ? eq(tracks.status, 'published') : undefined))
      .limit(1);
    return row ?? null;
  }

  /** The tracks of these ids that exist (in no particular order). */
  async trackRefsByIds(ids: string[]): Promise<TrackRefRow[]> {
    if (ids.length === 0) return [];
    return this.db.select(trackRefColumns).from(tracks).innerJoin(artists, eq(artists.id, tracks.artistId)).where(inArray(tracks.id, ids));
  }

  /** A release of the environment by id, or null. */
  async albumRef(albumId: string, environment: Environment): Promise<AlbumRefRow | null> {
    const [row] = await this.db
      .select(albumRefColumns)
      .from(albums)
      .innerJoin(artists, eq(artists.id, albums.artistId))
      .where(and(idEq(albums.id, albumId), eq(albums.environment, environment)))
      .limit(1);
    return row ?? null;
  }

  /** The releases of these ids that exist (in no particular order). */
  async albumRefsByIds(ids: string[]): Promise<AlbumRefRow[]> {
    if (ids.length === 0) return [];
    return this.db.select(albumRefColumns).from(albums).innerJoin(artists, eq(artists.id, albums.artistId)).where(inArray(albums.id, ids));
  }

  /** The ids of the environment's artists this user owns. */
  async artistIdsOwnedBy(userId: string, environment: Environment): Promise<string[]> {
    const rows = await this.db
      .select({ id: artists.id })
      .from(artists)
      .where(and(eq(artists.ownerUserId, userId), eq(artists.environment, environment)));
    return rows.map((row) => row.id);
  }
}

/** The derived tables' types, for the groups' declared ports. */
export type TrackRefTable = ReturnType<CatalogDisplayReads['trackRefs']>;
export type ArtistRefTable = ReturnType<CatalogDisplayReads['artistRefs']>;

/** The TrackRefRow's columns of a joined `trackRefs()` table, to spread into a select. */
export function trackRefFields(refs: TrackRefTable) {
  return {
    trackId: refs.trackId,
    trackSlug: refs.trackSlug,
    trackTitle: refs.trackTitle,
    artistName: refs.artistName,
    artistId: refs.artistId,
    artistSlug: sql<string>`${sql.identifier(TRACK_REF)}.${sql.identifier(ARTIST_SLUG)}`,
    durationSec: refs.durationSec,
    streams: refs.streams,
    genre: refs.genre,
    trackStatus: refs.trackStatus,
  };
}
