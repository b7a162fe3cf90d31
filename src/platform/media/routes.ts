/**
 * The embedded "CDN": serves blobs at signed, expiring URLs (/media/<key>?exp&sig) with HTTP Range
 * support, so browsers can seek in audio. An altered or expired link answers 403.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import { contentTypeOf } from '../../infra/blobs/content-types.js';
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import { Errors } from '../../errors.js';
import { HttpError } from '../../http/errors.js';

const linkInvalid = () => new HttpError(403, 'MEDIA_LINK_INVALID', 'This media link is invalid or has expired');

/** Parses a single-range "bytes=a-b" header; null when absent, 'unsatisfiable' when it cannot be served. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return 'unsatisfiable';
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

export function mediaRoutes(blobs: BlobStore, signer: UrlSigner) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/media/*',
      {
        config: { public: true },
        schema: {
          tags: ['operations'],
          summary: 'Signed media links (audio, waveforms, cover art); supports Range',
          querystring: Type.Object({ exp: Type.Optional(Type.String()), sig: Type.Optional(Type.String()) }),
        },
      },
      async (request, reply) => {
        // The router has decoded the path once already; decoding again would turn "%25" into a bad escape.
        const key = (request.params as { '*': string })['*'];
        if (!signer.verify(key, request.query.exp, request.query.sig)) throw linkInvalid();
        const info = await blobs.stat(key);
        if (!info) throw Errors.notFound('Media');
        reply
          .header('Content-Type', contentTypeOf(key))
          // A valid signed link is a capability: whoever holds it may read it, from any page (the player opened at
          // 127.0.0.1 fetches waveforms from PUBLIC_BASE_URL's localhost). No credentials ride on it, so `*` is safe.
          .header('Access-Control-Allow-Origin', '*')
          .header('Access-Control-Expose-Headers', 'Content-Range, Content-Length, Accept-Ranges')
          .header('Accept-Ranges', 'bytes')
          .header('Cache-Control', 'private, max-age=3600');
        const range = parseRange(request.headers.range, info.size);
        if (range === 'unsatisfiable') {
          reply.header('Content-Range', `bytes */${info.size}`);
          throw new HttpError(416, 'RANGE_NOT_SATISFIABLE', 'The requested range cannot be served');
        }
        if (range === null) {
          reply.header('Content-Length', info.size);
          return reply.send(blobs.stream(key));
        }
        reply
          .status(206)
          .header('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`)
          .header('Content-Length', range.end - range.start + 1);
        return reply.send(blobs.stream(key, range));
      },
    );
  };
}
