/**
 * Track uploads and the track lifecycle an artist drives: upload (processing -> published, or failed),
 * metadata changes, takedown.
 *
 * An upload is checked whole before anything is kept: the probe (engine/audio/inspect.ts) refuses a file
 * that is not audio, is cut short, cannot be decoded or is too short, and measures its loudness. Then one
 * transaction writes the catalog row (status processing), the upload record and the master blob; the
 * stream renditions are rendered by a queued job (render.ts), which publishes the track. Only the
 * artist's owner (or an admin) manages a track. Taking a track down keeps its rows, plays and registry
 * entries; it leaves the catalog and the radio's plan at once (TRACK_CHANGED_CHANNEL).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Principal } from '../../auth/principal.js';
import { AudioRejectedError, inspectAudio, normaliseIsrc, type AudioInspection, type AudioLimits } from '../../engine/audio/inspect.js';
import { Errors } from '../../errors.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import type { JobQueue } from '../../infra/queue/job-queue.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import { TRACK_CHANGED_CHANNEL } from '../catalog/catalog.service.js';
import { callerUserId, isAdmin } from '../../auth/principal.js';
import type { TransactionalPlatformEvents } from '../webhooks/platform-events.js';
import { renditionKeys, uploadView, type UploadView } from './view.js';
import type { ManagedTrack, TrackChange, UploadsRepository } from './uploads.repository.js';
import { addJob, QUEUES } from '../../infra/queue/jobs.js';

export const UPLOAD_QUEUE = QUEUES.uploads;
export const RENDER_JOB = 'render-renditions';
export const RENDER_ATTEMPTS = 3;
/** A user's uploads waiting for their renditions at once; the next is refused (429) until one is published. */
export const PROCESSING_PER_USER = 3;
/** What a refused caller is told to wait: about one render of a long upload. */
const PROCESSING_RETRY_AFTER_SEC = 60;

/** The form fields of POST /v1/tracks, as text (multipart fields are strings). */
export interface UploadForm {
  artist_id?: string;
  title?: string;
  genre?: string;
  subgenre?: string;
  mood?: string;
  album?: string;
  isrc?: string;
  release_year?: string;
  bpm?: string;
  explicit?: 'true' | 'false';
}

/** The uploaded file, already spooled to a temporary file of at most the size limit. */
export interface SpooledFile {
  path: string;
  size: number;
  filename: string | null;
}

export interface TrackPatch {
  title?: string;
  genre?: string;
  subgenre?: string;
  mood?: string[];
  album?: string | null;
  isrc?: string | null;
  release_year?: number | null;
  bpm?: number | null;
  explicit?: boolean;
}

export interface UploadsDeps {
  repo: UploadsRepository;
  blobs: BlobStore;
  queue: JobQueue;
  bus: EventBus;
  /** track.removed, recorded in the webhooks' outbox in the takedown's transaction. */
  events: TransactionalPlatformEvents;
  clock: Clock;
  /** What a file may declare (STATION_UPLOAD_MAX_SEC), judged from its header before decoding. */
  audioLimits: AudioLimits;
}

export class UploadsService {
  constructor(private readonly deps: UploadsDeps) {}

  async upload(caller: Principal, form: UploadForm, file: SpooledFile): Promise<UploadView> {
    const userId = callerUserId(caller);
    const artist = await this.artistFor(caller, userId, form.artist_id);
    if ((await this.deps.repo.processingCountBy(userId)) >= PROCESSING_PER_USER) {
      throw Errors.rateLimited(
        PROCESSING_RETRY_AFTER_SEC,
        `${PROCESSING_PER_USER} of your uploads are still being processed; upload more once one is published`,
      );
    }
    const uploaded = await readFile(file.path);
    const audio = await probe(uploaded, this.deps.audioLimits);
    // The file as uploaded, but for an ID3 tag in front of a FLAC stream (not FLAC; its tags are kept below):
    // a FLAC upload is its own master, and the radio reads it as FLAC from its first byte.
    const bytes = audio.streamStart > 0 ? uploaded.subarray(audio.streamStart) : uploaded;
    const fields = trackFields(form, audio);
    const id = randomUUID();
    const masterKey = `tracks/${id}/master.${audio.format}`;
    try {
      await this.deps.repo.transaction(async (repo) => {
        if (fields.isrc && (await repo.isrcTaken(fields.isrc, caller.environment))) throw isrcConflict(fields.isrc);
        await repo.insert(
          // A test key's upload is a sandbox track, of the sandbox twin of the artist (artistFor).
          {
            id,
            environment: caller.environment,
            slug: slugOf(fields.title),
            artistId: artist.id,
            status: 'processing',
            durationSec: audio.durationSec,
            loudnessLufs: audio.loudnessLufs,
            ...fields.track,
          },
          {
            trackId: id,
            uploadedBy: userId,
            masterBlobKey: masterKey,
            masterFormat: audio.format,
            container: audio.container,
            codec: audio.codec,
            sizeBytes: bytes.length,
            sampleRate: audio.sampleRate,
            channels: audio.channels,
            bitrateKbps: audio.bitrateKbps,
            originalFilename: file.filename?.slice(0, 255) ?? null,
            album: fields.album,
            tags: { ...audio.tags },
          },
        );
        // Inside the transaction: if the master cannot be stored, no row says it was.
        await this.deps.blobs.put(masterKey, bytes);
      });
    } catch (error) {
      await this.deps.blobs.delete(masterKey).catch(() => undefined);
      if (isUniqueViolation(error) && fields.isrc) throw isrcConflict(fields.isrc);
      throw error;
    }
    await this.enqueueRender(id);
    return this.get(caller, id);
  }

  /** Queues the rendering of a processing track (deduplicated by track, so a second call is harmless). */
  enqueueRender(trackId: string): Promise<string> {
    return addJob(this.deps.queue, UPLOAD_QUEUE, RENDER_JOB, { trackId }, { jobId: `render-${trackId}`, attempts: RENDER_ATTEMPTS, backoffMs: 2000 });
  }

  /** Tracks left processing by a stop or a lost job go back on the queue (at start). */
  async resume(): Promise<number> {
    const ids = await this.deps.repo.idsWithStatus('processing');
    for (const id of ids) await this.enqueueRender(id);
    return ids.length;
  }

  /** The track as its owner and admins see it, whatever its status. */
  async get(caller: Principal, id: string): Promise<UploadView> {
    const managed = await this.deps.repo.find(id, { environment: caller.environment });
    if (!managed || !canManage(caller, managed)) throw Errors.notFound('Track', id);
    return uploadView(managed, await this.renditionSizes(managed));
  }

  async update(caller: Principal, id: string, patch: TrackPatch): Promise<UploadView> {
    const change = changeOf(patch);
    try {
      await this.deps.repo.transaction(async (repo) => {
        const managed = await this.managed(repo, caller, id);
        if (change.track.isrc && (await repo.isrcTaken(change.track.isrc, caller.environment, managed.track.id))) throw isrcConflict(change.track.isrc);
        await repo.update(managed.track.id, change.track);
        if (change.album !== undefined && managed.upload) await repo.setAlbum(managed.track.id, change.album);
      });
    } catch (error) {
      if (isUniqueViolation(error) && change.track.isrc) throw isrcConflict(change.track.isrc);
      throw error;
    }
    await this.deps.bus.publish(TRACK_CHANGED_CHANNEL, id);
    return this.get(caller, id);
  }

  /**
   * Takes a track down: status removed with the reason, `track.removed` if it had been published. Its rows,
   * plays and registry entries stay; every instance drops it from caches and the radio's plan.
   */
  async remove(caller: Principal, id: string, reason: string): Promise<UploadView> {
    const text = reason.trim();
    if (text === '') throw Errors.validation('reason must not be blank');
    const raised = await this.deps.repo.transaction(async (repo) => {
      const managed = await this.managed(repo, caller, id);
      if (managed.track.status === 'removed') return null; // already down: nothing changes, no second event
      await repo.takeDown(managed.track.id, text, caller.userId, this.deps.clock.date());
      if (managed.track.status !== 'published') return null;
      return repo.inHandle((tx) =>
        this.deps.events.recordIn(tx, { event: 'track.removed', data: { track_id: id, reason: text }, environment: caller.environment }),
      );
    });
    await raised?.();
    await this.deps.bus.publish(TRACK_CHANGED_CHANNEL, id);
    return this.get(caller, id);
  }

  /**
   * The track, locked for the change, if the caller manages it. A track the caller cannot see (taken down,
   * still processing) does not exist for them (404); a published track of another artist is 403.
   */
  private async managed(repo: UploadsRepository, caller: Principal, id: string): Promise<ManagedTrack> {
    const managed = await repo.find(id, { lock: true, environment: caller.environment });
    if (!managed) throw Errors.notFound('Track', id);
    if (canManage(caller, managed)) return managed;
    if (managed.track.status === 'published') throw Errors.forbidden("only the artist's owner or an admin changes a track");
    throw Errors.notFound('Track', id);
  }

  private async artistFor(caller: Principal, userId: string, ref: string | undefined) {
    if (caller.environment === 'test') await this.deps.repo.ensureSandboxTwins(userId);
    if (ref !== undefined) {
      const artist = await this.deps.repo.findArtist(ref, caller.environment);
      if (!artist) throw Errors.notFound('Artist', ref);
      if (!isAdmin(caller) && artist.ownerUserId !== userId) throw Errors.forbidden('tracks are uploaded for an artist you own');
      return artist;
    }
    const owned = await this.deps.repo.artistsOwnedBy(userId, caller.environment);
    if (owned.length !== 1) {
      throw Errors.validation(
        owned.length === 0 ? 'artist_id is required: the caller owns no artist' : 'artist_id is required: the caller owns several artists',
      );
    }
    return owned[0];
  }

  private async renditionSizes(managed: ManagedTrack): Promise<Map<number, number>> {
    const sizes = new Map<number, number>();
    if (!managed.upload || !managed.track.audioBlobKey) return sizes;
    for (const [kbps, key] of renditionKeys(managed.track.id)) {
      const info = await this.deps.blobs.stat(key);
      if (info) sizes.set(kbps, info.size);
    }
    return sizes;
  }
}

function canManage(caller: Principal, managed: ManagedTrack): boolean {
  return isAdmin(caller) || (caller.userId !== null && caller.userId === managed.artist.ownerUserId);
}

const isrcConflict = (isrc: string) => Errors.conflict('A track with this ISRC already exists', `isrc ${isrc} is taken`);

async function probe(bytes: Buffer, limits: AudioLimits): Promise<AudioInspection> {
  try {
    return await inspectAudio(bytes, limits);
  } catch (error) {
    if (!(error instanceof AudioRejectedError)) throw error;
    if (error.reason === 'not_audio' || error.reason === 'unsupported_format')
      throw Errors.unsupportedMedia(error.message, 'upload an MP3, WAV, FLAC or AIFF file');
    // What the header declares is refused by name: the message says which limit the file is past.
    if (error.reason === 'out_of_range' || error.reason === 'too_long')
      throw Errors.validation(`${error.reason}: ${error.message}`, `The file is refused: ${error.message}`);
    throw Errors.validation(`${error.reason}: ${error.message}`, 'The file is not usable audio');
  }
}

/** The form merged with the file's tags: a field the uploader gave wins; a missing one is filled from the tags. */
function trackFields(form: UploadForm, audio: AudioInspection) {
  const title = nonBlank(form.title) ?? audio.tags.title;
  const genre = nonBlank(form.genre) ?? audio.tags.genre;
  if (!title) throw Errors.validation('title is required: the file has no title tag');
  if (!genre) throw Errors.validation('genre is required: the file has no genre tag');
  let isrc = audio.tags.isrc;
  if (form.isrc !== undefined) {
    isrc = normaliseIsrc(form.isrc);
    if (!isrc) throw Errors.validation('isrc must be an ISRC such as USRC17607839');
  }
  const releaseYear = form.release_year !== undefined ? Number(form.release_year) : audio.tags.year;
  return {
    title: title.slice(0, 200),
    isrc,
    album: nonBlank(form.album) ?? audio.tags.album,
    track: {
      title: title.slice(0, 200),
      genre: genre.slice(0, 80),
      subgenre: nonBlank(form.subgenre) ?? '',
      mood: (form.mood ?? '')
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean),
      isrc,
      releaseYear,
      bpm: form.bpm !== undefined ? Number(form.bpm) : null,
      explicit: form.explicit === 'true',
    },
  };
}

function changeOf(patch: TrackPatch): { track: TrackChange; album?: string | null } {
  const track: TrackChange = {};
  if (patch.title !== undefined) track.title = required(patch.title, 'title');
  if (patch.genre !== undefined) track.genre = required(patch.genre, 'genre');
  if (patch.subgenre !== undefined) track.subgenre = patch.subgenre.trim();
  if (patch.mood !== undefined) track.mood = patch.mood.map((m) => m.trim()).filter(Boolean);
  if (patch.explicit !== undefined) track.explicit = patch.explicit;
  if (patch.release_year !== undefined) track.releaseYear = patch.release_year;
  if (patch.bpm !== undefined) track.bpm = patch.bpm;
  if (patch.isrc !== undefined) {
    track.isrc = patch.isrc === null ? null : normaliseIsrc(patch.isrc);
    if (track.isrc === null && patch.isrc !== null) throw Errors.validation('isrc must be an ISRC such as USRC17607839');
  }
  const album = patch.album === undefined ? undefined : patch.album === null ? null : nonBlank(patch.album);
  return { track, album };
}

function nonBlank(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

function required(value: string, field: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw Errors.validation(`${field} must not be blank`);
  return trimmed;
}

/** A readable, unique slug: the title's words and a random suffix. */
function slugOf(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `${words || 'track'}-${randomBytes(3).toString('hex')}`;
}
