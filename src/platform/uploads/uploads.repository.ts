/**
 * Uploaded tracks: the upload record (the master) and takedowns. The catalog row and its features are the
 * catalog's, written through its port (`UploadCatalogWrites`) in this repository's handle, so that an upload's
 * rows of both groups stay one transaction, and read through its read port (`UploadCatalogReads`): its tracks
 * and artists as derived tables joined to this group's records, so that a managed track stays one statement.
 */
import { and, count, eq, isNotNull } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { idEq } from '../../infra/db/ids.js';
import type { AudioFeatures } from '../../engine/types.js';
import { trackTakedowns, trackUploads, type TrackStatus } from '../../infra/db/schema/index.js';
import type {
  CatalogTrackChange,
  CatalogTrackRecord,
  NewCatalogTrack,
  PublishedAudio,
  UploadArtistRef,
  UploadCatalogReads,
  UploadCatalogWrites,
} from './catalog-writes.js';
import type { Environment } from '../../kernel/environment.js';

export type UploadRecord = typeof trackUploads.$inferSelect;
export type TrackRecord = CatalogTrackRecord;
export type TakedownRecord = typeof trackTakedowns.$inferSelect;

/** A track as its managers see it: the row, its artist, and the upload and takedown records when there are. */
export interface ManagedTrack {
  track: TrackRecord;
  artist: { id: string; slug: string; name: string; ownerUserId: string | null; platformOwned: boolean };
  upload: UploadRecord | null;
  takedown: TakedownRecord | null;
}

export type ArtistRef = UploadArtistRef;

/** The artists group's port (src/platform/artists/sandbox-twins.ts): a test key's owner's artists copied into the sandbox. */
export interface SandboxTwins {
  ensure(userId: string): Promise<void>;
}

export type NewUpload = typeof trackUploads.$inferInsert;
export type TrackChange = CatalogTrackChange;

export class UploadsRepository {
  private readonly tracks: ReturnType<UploadCatalogReads['tracks']>;
  private readonly artists: ReturnType<UploadCatalogReads['artists']>;

  constructor(
    private readonly db: DbOrTx,
    private readonly catalog: UploadCatalogWrites,
    private readonly catalogReads: UploadCatalogReads,
    private readonly twins: SandboxTwins,
  ) {
    this.tracks = catalogReads.tracks();
    this.artists = catalogReads.artists();
  }

  /** Runs `work` in one transaction with a repository bound to it. */
  transaction<T>(work: (repo: UploadsRepository) => Promise<T>): Promise<T> {
    return (this.db as Db).transaction((tx) => work(new UploadsRepository(tx, this.catalog, this.catalogReads, this.twins)));
  }

  /**
   * Hands this repository's handle (its transaction, inside transaction()) to another module's port: the
   * webhooks' outbox records track.published and track.removed in the transaction of the change.
   */
  inHandle<T>(work: (tx: DbOrTx) => Promise<T>): Promise<T> {
    return work(this.db);
  }

  /** An artist of the environment (a test key uploads for the sandbox twin of its owner's artist). */
  findArtist(slugOrId: string, environment: Environment): Promise<ArtistRef | null> {
    return this.catalogReads.artistByIdOrSlug(slugOrId, environment, this.db);
  }

  artistsOwnedBy(userId: string, environment: Environment): Promise<ArtistRef[]> {
    return this.catalogReads.artistsOwnedBy(userId, environment, this.db);
  }

  ensureSandboxTwins(userId: string): Promise<void> {
    return this.twins.ensure(userId);
  }

  /** Whether another track of the environment has the ISRC (each environment has its own ISRCs). */
  isrcTaken(isrc: string, environment: Environment, exceptTrackId?: string): Promise<boolean> {
    return this.catalogReads.isrcTaken(isrc, environment, exceptTrackId, this.db);
  }

  async insert(track: NewCatalogTrack, upload: NewUpload): Promise<void> {
    await this.catalog.createTrack(track, this.db);
    await this.db.insert(trackUploads).values(upload);
  }

  /**
   * Locks the catalog row (FOR UPDATE, through the catalog's port) when asked inside a transaction, so a change and
   * a takedown do not cross; then reads the row, its artist, its upload and its takedown in one statement.
   * `environment`: the caller's, so a track of the other environment is not found; left out by the render job.
   */
  async find(id: string, options: { lock?: boolean; environment?: Environment } = {}): Promise<ManagedTrack | null> {
    if (options.lock) await this.catalogReads.lockTrack(id, this.db);
    const track = this.tracks;
    const artist = this.artists;
    const [row] = await this.db
      .select({
        track: track._.selectedFields,
        artist: { id: artist.id, slug: artist.slug, name: artist.name, ownerUserId: artist.ownerUserId, platformOwned: artist.platformOwned },
        upload: trackUploads,
        takedown: trackTakedowns,
      })
      .from(track)
      .innerJoin(artist, eq(artist.id, track.artistId))
      .leftJoin(trackUploads, eq(trackUploads.trackId, track.id))
      .leftJoin(trackTakedowns, eq(trackTakedowns.trackId, track.id))
      .where(and(idEq(track.id, id), options.environment ? eq(track.environment, options.environment) : undefined))
      .limit(1);
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
      .select({ id: this.tracks.id })
      .from(this.tracks)
      .innerJoin(trackUploads, eq(trackUploads.trackId, this.tracks.id))
      .where(eq(this.tracks.status, status));
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
      .from(this.tracks)
      .innerJoin(trackUploads, eq(trackUploads.trackId, this.tracks.id))
      .where(and(eq(trackUploads.uploadedBy, userId), eq(this.tracks.status, 'processing')));
    return row?.n ?? 0;
  }
}
