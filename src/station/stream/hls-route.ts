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
          playlist = await blobs.get(`${options.prefix}/${PLAYLIST_NAME}`);
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
          bytes = await blobs.get(`${options.prefix}/${segment}`);
        } catch (error) {
          if (isMissing(error)) throw Errors.notFound('HLS segment', segment);
          throw error;
        }
        return reply.header('Content-Type', 'audio/mpeg').header('Cache-Control', 'private, max-age=60').send(bytes);
      },
    );
  };
}
