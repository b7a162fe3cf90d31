/** Catalog reads shaped for the API: signed media links, credits. */
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import { Errors } from '../../errors.js';
import { deviceClassOf } from '../analytics/device-class.js';
import type { PlayWindow } from './play-window.js';
import { renditionKey } from '../media/rendition-keys.js';
import type { Environment } from '../../kernel/environment.js';
import type { CatalogRepository, TrackDetailFields, TrackFilter } from './catalog.repository.js';

/** Links handed out in catalog answers live a day; the stream redirect gets a short one. */
const LIST_LINK_TTL_SEC = 24 * 3600;
const STREAM_LINK_TTL_SEC = 3600;

/** Track detail is the catalog's hottest read; it is served from memory for a few seconds. */
const TRACK_CACHE_TTL_MS = 5_000;
const TRACK_CACHE_SIZE = 5_000;
/** Publish a track id here after changing a track, so every instance drops its cached copy. */
export const TRACK_CHANGED_CHANNEL = 'catalog.track_changed';

/** The fields a track summary shows (a list row or a detail row has them all). */
type TrackSummaryFields = Omit<
  TrackDetailFields,
  | 'lifestyle'
  | 'energy'
  | 'audioBlobKey'
  | 'masterBlobKey'
  | 'playoutAudioKey'
  | 'audioFormat'
  | 'audioBitrateKbps'
  | 'audioSizeBytes'
  | 'loudnessLufs'
  | 'waveformBlobKey'
  | 'status'
  | 'createdAt'
>;
type TrackDetailRow = NonNullable<Awaited<ReturnType<CatalogRepository['findTrackDetail']>>>;
type TrackDetailView = ReturnType<CatalogService['detailView']>;

function cacheKey(environment: Environment, id: string): string {
  return `${environment}:${id}`;
}

export class CatalogService {
  private readonly detailCache = new Map<string, { view: TrackDetailView; until: number }>();

  constructor(
    private readonly repo: CatalogRepository,
    private readonly signer: UrlSigner,
    /** Where the stream renditions are looked for (GET /v1/tracks/{id}/stream?quality=). */
    private readonly blobs: Pick<BlobStore, 'stat'>,
    /** Told after each recorded play (the live analytics feed wakes up on every instance). */
    private readonly onPlayRecorded: () => Promise<void> = async () => undefined,
    /** One counted play per listener and track within the track's length; null counts every request. */
    private readonly plays: Pick<PlayWindow, 'counts'> | null = null,
    private cacheTtlMs = TRACK_CACHE_TTL_MS,
  ) {}

  /** 0 turns the read cache off (the HTTP benchmark measures both). */
  useCacheTtl(ms: number): void {
    this.cacheTtlMs = ms;
    this.detailCache.clear();
  }

  /** Drops a track from the read cache (its row changed). */
  invalidateTrack(id: string): void {
    this.detailCache.delete(cacheKey('live', id));
    this.detailCache.delete(cacheKey('test', id));
  }

  private link(key: string | null, ttl = LIST_LINK_TTL_SEC): string | null {
    return key ? this.signer.sign(key, ttl).url : null;
  }

  trackSummary(row: TrackSummaryFields) {
    return {
      id: row.id,
      slug: row.slug,
      title: row.title,
      artist: row.artistName,
      artist_slug: row.artistSlug,
      artist_verified: row.artistVerified,
      duration: Math.round(row.durationSec),
      streams: row.streams,
      genre: row.genre,
      subgenre: row.subgenre,
      mood: row.mood,
      bpm: row.bpm,
      key: row.musicalKey,
      mode: row.mode,
      isrc: row.isrc,
      explicit: row.explicit,
      release_year: row.releaseYear,
      album_id: row.albumId,
      track_number: row.trackNumber,
      cover_art_url: this.link(row.coverBlobKey),
    };
  }

  async listTracks(filter: TrackFilter, limit: number, offset: number) {
    const { rows, total } = await this.repo.listTracks(filter, limit, offset);
    return { data: rows.map((row) => this.trackSummary(row)), total };
  }

  /**
   * Track detail, shaped for the API and kept for a few seconds: the stream counter may lag by the TTL,
   * everything else changes only by writes that invalidate; its signed links stay valid far longer.
   */
  async getTrack(id: string, environment: Environment, options: { anyStatus?: boolean } = {}) {
    if (options.anyStatus) {
      // Admins see tracks taken down or processing too; their answers stay out of the shared cache.
      const detail = await this.repo.findTrackDetail(id, environment, true);
      if (!detail) throw Errors.notFound('Track', id);
      return this.detailView(detail);
    }
    const now = Date.now();
    // Keyed by environment too: a live track's cached view must never answer a test key (nor the reverse).
    const key = cacheKey(environment, id);
    const cached = this.detailCache.get(key);
    if (cached && cached.until > now) return cached.view;
    const detail = await this.repo.findTrackDetail(id, environment);
    if (!detail) throw Errors.notFound('Track', id);
    const view = this.detailView(detail);
    if (this.cacheTtlMs > 0) {
      if (this.detailCache.size >= TRACK_CACHE_SIZE) this.detailCache.clear();
      this.detailCache.set(key, { view, until: now + this.cacheTtlMs });
    }
    return view;
  }

  private detailView({ track: row, credits, hasLyrics }: TrackDetailRow) {
    // Object.assign onto the summary, not a spread: in V8 a spread followed by new keys builds the object's
    // hidden class anew each time (about 1 µs a key, 20 µs for this view; bench/README.md, HTTP).
    return Object.assign(this.trackSummary(row), {
      lifestyle: row.lifestyle,
      energy: row.energy,
      audio: row.audioBlobKey
        ? { format: row.audioFormat, bitrate_kbps: row.audioBitrateKbps, size_bytes: row.audioSizeBytes, loudness_lufs: row.loudnessLufs }
        : null,
      waveform_url: this.link(row.waveformBlobKey),
      has_lyrics: hasLyrics,
      status: row.status,
      credits: credits.map((c) => ({ ...c, split_pct: Number(c.split_pct) })),
      created_at: row.createdAt.toISOString(),
    });
  }

  /**
   * A short-lived signed link to the audio, and a play event recorded for the listener with the device class
   * of their User-Agent. With `kbps`, the rendition at that bitrate when the track has one (uploads have 128,
   * 192 and 320); otherwise its audio. The sandbox records no plays: a test credential gets the link and
   * counts nothing. A listener's repeated requests within the track's length (at least 30 s) count one play
   * (play-window.ts): each still gets its link.
   */
  async streamTrack(
    id: string,
    listener: { userId: string | null; credentialId: string; environment: Environment; userAgent?: string },
    kbps?: number,
  ): Promise<string> {
    const row = await this.repo.findTrack(id, listener.environment);
    if (!row) throw Errors.notFound('Track', id);
    if (!row.audioBlobKey) throw Errors.notFound('Audio of track', id);
    let key = row.audioBlobKey;
    if (kbps !== undefined) {
      const rendition = renditionKey(row.audioBlobKey, row.audioBitrateKbps, kbps);
      if (rendition === key || (await this.blobs.stat(rendition))) key = rendition;
    }
    if (listener.environment === 'live' && (!this.plays || (await this.plays.counts(listener.userId ?? listener.credentialId, id, row.durationSec)))) {
      await this.repo.recordPlay({ trackId: id, userId: listener.userId, source: 'on_demand', deviceClass: deviceClassOf(listener.userAgent) });
      await this.onPlayRecorded();
    }
    return this.signer.sign(key, STREAM_LINK_TTL_SEC).url;
  }
}
