/**
 * The catalog's read port for the store: the artist a product is sold by, the tracks it holds, a release's
 * tracks, the songwriters' credits a sale's payout is split by, and the names its payout lines show. Published by
 * the catalog module as `salesReads`; the store declares the part it uses on its side (`StoreCatalog`,
 * src/platform/store/store.repository.ts) and reads no catalog table itself.
 *
 * The store's lists filter, page and lock over its own rows and the catalog's together: products listed by their
 * artist's environment and paged, a product read in the checkout's transaction, an order's tracks that must be
 * the artist's, a purchased track's audio found through the buyer's orders, payout lines named. Those join the
 * catalog as derived tables (`artists`, `tracks`, `songwriters`), so each stays one statement, in the handle
 * (or transaction) the store runs it in, filtered and paged by the database, with the plan it had when the store
 * joined the tables itself (PostgreSQL pulls a one-table subquery up into the outer query). The credits are read
 * in the transaction given, so that a sale's payout lines split what the credits are in that transaction.
 */
import { and, asc, eq, inArray, or } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { isUuid } from '../../infra/db/ids.js';
import { albums, artists, songwriters, trackCredits, tracks, type releaseType } from '../../infra/db/schema/index.js';
import type { Environment } from '../../kernel/environment.js';

/** An artist as the store names a seller. */
export type ArtistRef = { id: string; slug: string; name: string; ownerUserId: string | null };

/** A release and its published tracks in order. */
export interface ReleaseTracks {
  id: string;
  artistId: string;
  title: string;
  type: (typeof releaseType.enumValues)[number];
  trackIds: string[];
}

/** One songwriter's credit on a track, as a percentage of the track's split. */
export interface TrackCreditRow {
  trackId: string;
  songwriterId: string;
  splitPct: number;
}

export class CatalogSalesReads {
  private readonly artistTable;
  private readonly trackTable;
  private readonly songwriterTable;

  constructor(private readonly db: Db) {
    // Built once: a derived table is SQL text, embedded in whichever handle (or transaction) runs the outer query.
    // Each is of one table and keeps its columns' names, so that drizzle names them by the derived table.
    this.artistTable = db
      .select({ id: artists.id, slug: artists.slug, name: artists.name, ownerUserId: artists.ownerUserId, environment: artists.environment })
      .from(artists)
      .as('sale_artist');
    this.trackTable = db
      .select({
        id: tracks.id,
        artistId: tracks.artistId,
        title: tracks.title,
        durationSec: tracks.durationSec,
        audioBlobKey: tracks.audioBlobKey,
        audioBitrateKbps: tracks.audioBitrateKbps,
      })
      .from(tracks)
      .as('sale_track');
    this.songwriterTable = db.select({ id: songwriters.id, name: songwriters.name }).from(songwriters).as('sale_songwriter');
  }

  /** Every artist (id, slug, name, owner, environment), as a derived table to join on its `id`. */
  artists() {
    return this.artistTable;
  }

  /** Every track (id, artist, title, length, stream audio and its bitrate), as a derived table to join on its `id`. */
  tracks() {
    return this.trackTable;
  }

  /** Every songwriter (id, name), as a derived table to join on its `id`. */
  songwriters() {
    return this.songwriterTable;
  }

  /** An artist of the environment by id or slug (the sandbox's copy of an artist has its live original's slug). */
  async artistByIdOrSlug(value: string, environment: Environment): Promise<ArtistRef | null> {
    const [row] = await this.db
      .select({ id: artists.id, slug: artists.slug, name: artists.name, ownerUserId: artists.ownerUserId })
      .from(artists)
      .where(and(eq(artists.environment, environment), isUuid(value) ? or(eq(artists.id, value), eq(artists.slug, value)) : eq(artists.slug, value)))
      .limit(1);
    return row ?? null;
  }

  /** The environment's artists this user owns, by slug. */
  async artistsOwnedBy(userId: string, environment: Environment): Promise<ArtistRef[]> {
    return this.db
      .select({ id: artists.id, slug: artists.slug, name: artists.name, ownerUserId: artists.ownerUserId })
      .from(artists)
      .where(and(eq(artists.ownerUserId, userId), eq(artists.environment, environment)))
      .orderBy(asc(artists.slug));
  }

  /** The given tracks that are the artist's and published. */
  async publishedTrackIdsOf(artistId: string, trackIds: string[]): Promise<string[]> {
    const ids = trackIds.filter(isUuid);
    if (ids.length === 0) return [];
    const rows = await this.db
      .select({ id: tracks.id })
      .from(tracks)
      .where(and(inArray(tracks.id, ids), eq(tracks.artistId, artistId), eq(tracks.status, 'published')));
    return rows.map((row) => row.id);
  }

  /** The credits of these tracks, by track and songwriter; in `tx` when given (a sale's, which splits by them). */
  async credits(trackIds: string[], tx: DbOrTx = this.db): Promise<TrackCreditRow[]> {
    if (trackIds.length === 0) return [];
    return tx
      .select({ trackId: trackCredits.trackId, songwriterId: trackCredits.songwriterId, splitPct: trackCredits.splitPct })
      .from(trackCredits)
      .where(inArray(trackCredits.trackId, trackIds))
      .orderBy(asc(trackCredits.trackId), asc(trackCredits.songwriterId));
  }

  /** A release of the environment (by id or slug) and its published tracks in order, or null. */
  async release(idOrSlug: string, environment: Environment): Promise<ReleaseTracks | null> {
    const [row] = await this.db
      .select({ id: albums.id, artistId: albums.artistId, title: albums.title, type: albums.type })
      .from(albums)
      .innerJoin(artists, eq(artists.id, albums.artistId))
      .where(and(eq(artists.environment, environment), isUuid(idOrSlug) ? or(eq(albums.id, idOrSlug), eq(albums.slug, idOrSlug)) : eq(albums.slug, idOrSlug)))
      .limit(1);
    if (!row) return null;
    const trackRows = await this.db
      .select({ id: tracks.id })
      .from(tracks)
      .where(and(eq(tracks.albumId, row.id), eq(tracks.status, 'published')))
      .orderBy(asc(tracks.trackNumber));
    return { ...row, trackIds: trackRows.map((track) => track.id) };
  }
}

/** The derived tables' types, for the store's declared port. */
export type SaleArtistTable = ReturnType<CatalogSalesReads['artists']>;
export type SaleTrackTable = ReturnType<CatalogSalesReads['tracks']>;
export type SaleSongwriterTable = ReturnType<CatalogSalesReads['songwriters']>;
