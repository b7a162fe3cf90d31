/**
 * Uploaded tracks: the upload record (the master) and takedowns. The catalog row and its features are the
 * catalog's, written through its port (`UploadCatalogWrites`) in this repository's handle, so that an upload's
 * rows of both groups stay one transaction.
 */
import { and, count, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { idEq } from '../../infra/db/ids.js';
import type { AudioFeatures } from '../../engine/types.js';
import { artists, tracks, trackTakedowns, trackUploads, type TrackStatus } from '../../infra/db/schema/index.js';
import { ensureSandboxTwins } from '../artists/sandbox-twins.js';
import type { CatalogTrackChange, NewCatalogTrack, PublishedAudio, UploadCatalogWrites } from './catalog-writes.js';
import type { Environment } from '../../kernel/environment.js';

export type UploadRecord = typeof trackUploads.$inferSelect;
export type TrackRecord = typeof tracks.$inferSelect;
export type TakedownRecord = typeof trackTakedowns.$inferSelect;

/** A track as its managers see it: the row, its artist, and the upload and takedown records when there are. */
export interface ManagedTrack {
  track: TrackRecord;
  artist: { id: string; slug: string; name: string; ownerUserId: string | null; platformOwned: boolean };
  upload: UploadRecord | null;
  takedown: TakedownRecord | null;
}

export interface ArtistRef {
  id: string;
  slug: string;
  ownerUserId: string | null;
}

export type NewUpload = typeof trackUploads.$inferInsert;
export type TrackChange = CatalogTrackChange;

const managedColumns = {
  track: tracks,
  artist: { id: artists.id, slug: artists.slug, name: artists.name, ownerUserId: artists.ownerUserId, platformOwned: artists.platformOwned },
  upload: trackUploads,
  takedown: trackTakedowns,
};

export class UploadsRepository {
  constructor(
    private readonly db: DbOrTx,
    private readonly catalog: UploadCatalogWrites,
  ) {}

  /** Runs `work` in one transaction with a repository bound to it. */
  transaction<T>(work: (repo: UploadsRepository) => Promise<T>): Promise<T> {
    return (this.db as Db).transaction((tx) => work(new UploadsRepository(tx, this.catalog)));
  }

  /**
   * Hands this repository's handle (its transaction, inside transaction()) to another module's port: the
   * webhooks' outbox records track.published and track.removed in the transaction of the change.
   */
  inHandle<T>(work: (tx: DbOrTx) => Promise<T>): Promise<T> {
    return work(this.db);
  }

  /** An artist of the environment (a test key uploads for the sandbox twin of its owner's artist). */
  async findArtist(slugOrId: string, environment: Environment): Promise<ArtistRef | null> {
    const [row] = await this.db
      .select({ id: artists.id, slug: artists.slug, ownerUserId: artists.ownerUserId })
      .from(artists)
      .where(and(eq(artists.environment, environment), or(eq(artists.slug, slugOrId), idEq(artists.id, slugOrId))))
      .limit(1);
    return row ?? null;
  }

  async artistsOwnedBy(userId: string, environment: Environment): Promise<ArtistRef[]> {
    return this.db
      .select({ id: artists.id, slug: artists.slug, ownerUserId: artists.ownerUserId })
      .from(artists)
      .where(and(eq(artists.ownerUserId, userId), eq(artists.environment, environment)));
  }

  ensureSandboxTwins(userId: string): Promise<void> {
    return ensureSandboxTwins(this.db, userId);
  }

  /** Whether another track of the environment has the ISRC (each environment has its own ISRCs). */
  async isrcTaken(isrc: string, environment: Environment, exceptTrackId?: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: tracks.id })
      .from(tracks)
      .where(and(eq(tracks.isrc, isrc), eq(tracks.environment, environment), exceptTrackId ? sql`${tracks.id} <> ${exceptTrackId}` : undefined))
      .limit(1);
    return row !== undefined;
  }

  async insert(track: NewCatalogTrack, upload: NewUpload): Promise<void> {
    await this.catalog.createTrack(track, this.db);
    await this.db.insert(trackUploads).values(upload);
  }

  /** Locks the row (FOR UPDATE) when called inside a transaction, so a change and a takedown do not cross. */
  /** `environment`: the caller's, so a track of the other environment is not found; left out by the render job. */
  async find(id: string, options: { lock?: boolean; environment?: Environment } = {}): Promise<ManagedTrack | null> {
    const query = this.db
      .select(managedColumns)
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .leftJoin(trackUploads, eq(trackUploads.trackId, tracks.id))
      .leftJoin(trackTakedowns, eq(trackTakedowns.trackId, tracks.id))
      .where(and(idEq(tracks.id, id), options.environment ? eq(tracks.environment, options.environment) : undefined))
      .limit(1);
    const [row] = options.lock ? await query.for('update', { of: tracks }) : await query;
    return row ?? null;
  }

  async update(id: string, change: TrackChange): Promise<void> {
    await this.catalog.changeTrack(id, change, this.db);
  }

  async setAlbum(id: string, album: string | null): Promise<void> {
    await this.db.update(trackUploads).set({ album }).where(eq(trackUploads.trackId, id));
  }

  async takeDown(id: string, reason: string, by: string | null, at: Date): Promise<void> {
    await this.catalog.markRemoved(id, this.db);
    await this.db
      .insert(trackTakedowns)
      .values({ trackId: id, reason, removedBy: by, removedAt: at })
      .onConflictDoUpdate({ target: trackTakedowns.trackId, set: { reason, removedBy: by, removedAt: at } });
  }

  /**
   * Publishes a processing track with its stream audio and the master the radio airs. Conditional on the
   * status, so a takedown that came first wins; true when this call published it.
   */
  async publish(id: string, audio: PublishedAudio, at: Date): Promise<boolean> {
    if (!(await this.catalog.publish(id, audio, this.db))) return false;
    await this.db.update(trackUploads).set({ publishedAt: at }).where(eq(trackUploads.trackId, id));
    return true;
  }

  async fail(id: string, failure: string): Promise<void> {
    await this.catalog.markFailed(id, this.db);
    await this.db.update(trackUploads).set({ failure }).where(eq(trackUploads.trackId, id));
  }

  /** Style features of the upload, as the demo catalog has them (module B's gate and the safety filter's reference). */
  async saveFeatures(trackId: string, features: AudioFeatures): Promise<void> {
    await this.catalog.saveFeatures(trackId, features, this.db);
  }

  async idsWithStatus(status: TrackStatus): Promise<string[]> {
    const rows = await this.db
      .select({ id: tracks.id })
      .from(tracks)
      .innerJoin(trackUploads, eq(trackUploads.trackId, tracks.id))
      .where(eq(tracks.status, status));
    return rows.map((row) => row.id);
  }

  /** The uploaded master of a track (`tracks/<id>/master.*`), or null when the track was not uploaded. */
  async masterOf(trackId: string): Promise<string | null> {
    const [row] = await this.db.select({ key: trackUploads.masterBlobKey }).from(trackUploads).where(eq(trackUploads.trackId, trackId)).limit(1);
    return row?.key ?? null;
  }

  /** The bitrate of every uploaded master that has one, by track id (a master's, not its 320 kbps rendition's). */
  async masterBitrates(): Promise<Map<string, number>> {
    const rows = await this.db
      .select({ trackId: trackUploads.trackId, kbps: trackUploads.bitrateKbps })
      .from(trackUploads)
      .where(isNotNull(trackUploads.bitrateKbps));
    return new Map(rows.map((row) => [row.trackId, row.kbps!]));
  }

  /** How many of this user's uploads are still waiting for their renditions (every instance's). */
  async processingCountBy(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(tracks)
      .innerJoin(trackUploads, eq(trackUploads.trackId, tracks.id))
      .where(and(eq(trackUploads.uploadedBy, userId), eq(tracks.status, 'processing')));
    return row?.n ?? 0;
  }
}
