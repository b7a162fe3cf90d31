/**
 * GET <base>/live.m3u8 and GET <base>/<sequence>.mp3: the HLS output (hls_url of stream-info), read from the
 * BlobStore where the leader's segmenter writes it (hls-segmenter.ts), so every instance answers the same.
 * Authorised like the continuous stream, by the listener's ticket in the query (hls.js and native players
 * cannot send an Authorization header); the playlist hands the ticket on to its segment URIs. A playlist is
 * cacheable for a second (it changes every segment), a segment for as long as it can exist.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type } from '@fastify/type-provider-typebox';
import { Errors } from '../../errors.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import { PLAYLIST_NAME } from './hls-segmenter.js';

/** The only names segments have; anything else names no blob (and never reaches the store as a key). */
const SEGMENT_NAME = /^[0-9]{1,15}\.mp3$/;

export const HLS_PLAYLIST_CONTENT_TYPE = 'application/vnd.apple.mpegurl';

export interface HlsRouteOptions {
  /** URL path of the rendition, e.g. /station/v1/radio/hls: the playlist is <base>/live.m3u8. */
  basePath: string;
  /** Blob key prefix the segmenter writes under. */
  prefix: string;
  /**
   * Resolves when the request may read the stream; throws the contract's 401/403 otherwise. `playlist`: a
   * playlist fetch (a player reloads it every few seconds: what counts the listener).
   */
  authorize(request: FastifyRequest, playlist: boolean): Promise<void>;
  /**
   * With presigned media links (STATION_MEDIA_LINKS=presigned): the link to a segment's blob, so players fetch
   * segments from the object store or a CDN in front of it, the same URL for every listener for a while
   * (cacheable), instead of from an instance with their ticket.
   */
  segmentLink?(key: string): string;
}

const TicketQuery = Type.Object({ ticket: Type.Optional(Type.String({ maxLength: 2048 })) }, { additionalProperties: true });

/** How long a playlist read is served again: its own Cache-Control allows a second; players reload every 2-4 s. */
const PLAYLIST_CACHE_MS = 500;
/** Segments kept in memory: the newest few are what every listener asks for (~64 KB each at 128 kbps). */
const SEGMENTS_CACHED = 8;

/**
 * Blob reads shared by every listener's requests: each request read the store (a file or an S3 GET) again,
 * most of an HLS request's cost. The playlist is read at most every PLAYLIST_CACHE_MS; a segment, once
 * written, never changes (a new leader continues the sequence, it never rewrites a written segment), so the
 * newest SEGMENTS_CACHED are kept by key. Misses are never cached: a segment not written yet is read again.
 */
export class HlsBlobCache {
  private playlist: { key: string; at: number; bytes: Promise<Buffer> } | null = null;
  private readonly segments = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly blobs: Pick<BlobStore, 'get'>,
    private readonly now: () => number = Date.now,
  ) {}

  playlistAt(key: string): Promise<Buffer> {
    const now = this.now();
    const cached = this.playlist;
    if (cached && cached.key === key && now - cached.at < PLAYLIST_CACHE_MS) return cached.bytes;
    const bytes = this.blobs.get(key);
    this.playlist = { key, at: now, bytes };
    bytes.catch(() => {
      if (this.playlist?.bytes === bytes) this.playlist = null;
    });
    return bytes;
  }

  segmentAt(key: string): Promise<Buffer> {
    const cached = this.segments.get(key);
    if (cached) {
      // Most recently used last: the oldest is the one dropped.
      this.segments.delete(key);
      this.segments.set(key, cached);
      return cached;
    }
    const bytes = this.blobs.get(key);
    this.segments.set(key, bytes);
    if (this.segments.size > SEGMENTS_CACHED) this.segments.delete(this.segments.keys().next().value!);
    bytes.catch(() => {
      if (this.segments.get(key) === bytes) this.segments.delete(key);
    });
    return bytes;
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

/** The playlist with each segment URI rewritten by `uri` (given the stored relative name, `<sequence>.mp3`). */
export function rewriteSegments(playlist: string, uri: (name: string) => string): string {
  return playlist
    .split('\n')
    .map((line) => (line.length > 0 && !line.startsWith('#') ? uri(line) : line))
    .join('\n');
}

export function hlsRoutes(blobs: Pick<BlobStore, 'get'>, options: HlsRouteOptions): FastifyPluginAsync {
  const cache = new HlsBlobCache(blobs);
  return async (app) => {
    app.get(
      `${options.basePath}/live.m3u8`,
      {
        // Authorised by options.authorize (a query ticket), as the continuous stream.
        config: { public: true },
        schema: { tags: ['station-radio'], summary: 'The live HLS media playlist (hls_url of stream-info)', querystring: TicketQuery },
      },
      async (request, reply) => {
        await options.authorize(request, true);
        let playlist: Buffer;
        try {
          playlist = await cache.playlistAt(`${options.prefix}/${PLAYLIST_NAME}`);
        } catch (error) {
          if (isMissing(error)) throw Errors.notFound('HLS playlist (the stream has not published a segment yet)');
          throw error;
        }
        const { ticket } = request.query as { ticket?: string };
        return reply
          .header('Content-Type', HLS_PLAYLIST_CONTENT_TYPE)
          .header('Cache-Control', 'private, max-age=1')
          .send(
            rewriteSegments(playlist.toString('utf8'), (name) =>
              // A relative URI does not inherit the playlist's query: the ticket is handed on to each segment.
              options.segmentLink ? options.segmentLink(`${options.prefix}/${name}`) : `${name}?ticket=${encodeURIComponent(ticket ?? '')}`,
            ),
          );
      },
    );

    app.get(
      `${options.basePath}/:segment`,
      {
        config: { public: true },
        schema: {
          tags: ['station-radio'],
          summary: 'A segment of the live HLS stream (MPEG audio with an ID3 timestamp)',
          // Names are opaque to clients (contract: any id of any shape that names nothing is a 404), so the shape
          // is checked in the handler rather than by the schema; only `<sequence>.mp3` ever names a blob.
          params: Type.Object({ segment: Type.String({ description: '`<sequence>.mp3`, as the playlist lists it' }) }),
          querystring: TicketQuery,
        },
      },
      async (request, reply) => {
        const { segment } = request.params as { segment: string };
        // First: a name of another shape names nothing for anyone (the rule is public), whatever the credential.
        if (!SEGMENT_NAME.test(segment)) throw Errors.notFound('HLS segment', segment);
        await options.authorize(request, false);
        let bytes: Buffer;
        try {
          bytes = await cache.segmentAt(`${options.prefix}/${segment}`);
        } catch (error) {
          if (isMissing(error)) throw Errors.notFound('HLS segment', segment);
          throw error;
        }
        return reply.header('Content-Type', 'audio/mpeg').header('Cache-Control', 'private, max-age=60').send(bytes);
      },
    );
  };
}
