/**
 * The catalog's read port for the uploads group, beside its write port (upload-writes.ts): the artists a caller
 * uploads for, whether an ISRC is taken, the lock of an upload's catalog row, and the catalog's rows as derived
 * tables the uploads' statements join to their own records. Published by the catalog module as `uploadReads`;
 * the uploads group declares it on its side (`UploadCatalogReads`, src/platform/uploads/catalog-writes.ts).
 *
 * A managed track (the catalog row, its artist, its upload and its takedown) is one statement over the derived
 * tables `tracks` and `artists` joined to the uploads' records, so that the four parts are read at one snapshot;
 * the uploads and their status (how many of a user's are processing, which are) join `tracks` the same way. The
 * lock a change or a takedown takes is `lockTrack`, in the uploads' transaction before that read: it locks the
 * catalog row alone, as `FOR UPDATE OF tracks` in the joined statement did. Every read takes the handle it runs in.
 *
 * The master backfill's candidates (tracks that air their stream audio and have no master) are the derived table
 * `tracksWithoutMaster`, which the backfill joins to its upload records and its ledger and pages by track id in
 * one statement; the catalog says which tracks lack a master, the uploads which of them were looked at.
 */
import { and, eq, isNotNull, isNull, ne, or } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { idEq } from '../../infra/db/ids.js';
import { artists, tracks } from '../../infra/db/schema/index.js';
import type { Environment } from '../../kernel/environment.js';

/** A catalog track's whole row, as a managed track shows it to its uploader. */
export type CatalogTrackRecord = typeof tracks.$inferSelect;

/** An artist as the uploads name the one a track is uploaded for. */
export interface UploadArtistRef {
  id: string;
  slug: string;
  ownerUserId: string | null;
}

export class CatalogUploadReads {
  private readonly trackTable;
  private readonly artistTable;
  private readonly masterlessTable;

  constructor(private readonly db: Db) {
    // Built once: a derived table is SQL text, embedded in whichever handle (or transaction) runs the outer query.
    // Each is of one table and keeps its columns' names, so that drizzle names them by the derived table.
    this.trackTable = db.select().from(tracks).as('upload_track');
    this.artistTable = db
      .select({ id: artists.id, slug: artists.slug, name: artists.name, ownerUserId: artists.ownerUserId, platformOwned: artists.platformOwned })
      .from(artists)
      .as('upload_artist');
    this.masterlessTable = db
      .select({
        id: tracks.id,
        // Never null here (the filter below). Left a column, so that drizzle names it by the derived table: as
        // `sql<string>` it would need an alias, which drizzle leaves unqualified, and the backfill's ledger has one too.
        audioBlobKey: tracks.audioBlobKey,
        durationSec: tracks.durationSec,
      })
      .from(tracks)
      .where(and(isNull(tracks.masterBlobKey), isNotNull(tracks.audioBlobKey)))
      .as('masterless_track');
  }

  /** Every catalog track (the whole row), as a derived table to join on its `id`; `._.selectedFields` is the row. */
  tracks() {
    return this.trackTable;
  }

  /** Every artist (id, slug, name, owner, whether the platform's own), as a derived table to join on its `id`. */
  artists() {
    return this.artistTable;
  }

  /**
   * The tracks that air their stream audio and have no master (id, stream audio key, never null, and length), of
   * every environment, as a derived table to join on its `id` and page by it.
   */
  tracksWithoutMaster() {
    return this.masterlessTable;
  }

  /** An artist of the environment by slug or id (a test key uploads for the sandbox twin of its owner's artist). */
  async artistByIdOrSlug(slugOrId: string, environment: Environment, db: DbOrTx = this.db): Promise<UploadArtistRef | null> {
    const [row] = await db
      .select({ id: artists.id, slug: artists.slug, ownerUserId: artists.ownerUserId })
      .from(artists)
      .where(and(eq(artists.environment, environment), or(eq(artists.slug, slugOrId), idEq(artists.id, slugOrId))))
      .limit(1);
    return row ?? null;
  }

  /** The environment's artists this user owns (in no particular order). */
  async artistsOwnedBy(userId: string, environment: Environment, db: DbOrTx = this.db): Promise<UploadArtistRef[]> {
    return db
      .select({ id: artists.id, slug: artists.slug, ownerUserId: artists.ownerUserId })
      .from(artists)
      .where(and(eq(artists.ownerUserId, userId), eq(artists.environment, environment)));
  }

  /** Whether another track of the environment has the ISRC (each environment has its own ISRCs). */
  async isrcTaken(isrc: string, environment: Environment, exceptTrackId: string | undefined, db: DbOrTx = this.db): Promise<boolean> {
    const [row] = await db
      .select({ id: tracks.id })
      .from(tracks)
      .where(and(eq(tracks.isrc, isrc), eq(tracks.environment, environment), exceptTrackId ? ne(tracks.id, exceptTrackId) : undefined))
      .limit(1);
    return row !== undefined;
  }

  /** Locks a track's row (FOR UPDATE) until `tx` ends; nothing when there is no such track. */
  async lockTrack(id: string, tx: DbOrTx): Promise<void> {
    await tx.select({ id: tracks.id }).from(tracks).where(idEq(tracks.id, id)).for('update');
  }
}

export type UploadTrackTable = ReturnType<CatalogUploadReads['tracks']>;
export type UploadArtistTable = ReturnType<CatalogUploadReads['artists']>;
export type MasterlessTrackTable = ReturnType<CatalogUploadReads['tracksWithoutMaster']>;
