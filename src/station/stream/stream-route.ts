/**
 * GET <path>: the radio's stream_url. An endless audio/mpeg response, Icecast style: no Content-Length
 * (chunked on HTTP/1.1, until close on HTTP/1.0), never cached. The response is handed to the broadcaster
 * as one more listener and leaves it when the connection closes. A player that sends `Icy-MetaData: 1` gets
 * the current track title interleaved every `icy-metaint` bytes.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Errors } from '../../errors.js';
import type { StreamBroadcaster } from './broadcaster.js';
import { ICY_METAINT, IcyMetadataSink } from './icy-metadata.js';

/** What `authorize` may grant instead of plain true: a listener that must end when its access does. */
export interface StreamGrant {
  /** Called once the response started with the function that ends its stream; returns what to call when it closes. */
  hold(end: () => void): () => void;
}

export interface StreamRouteOptions {
  path: string;
  /** Sent as icy-name. */
  name?: string;
  /**
   * false answers 401 through the app's error handler (an <audio> element cannot send headers: use a query
   * token); a thrown domain error (429 when the credential's streams are all open) answers as usual.
   */
  authorize?(request: FastifyRequest): boolean | StreamGrant | Promise<boolean | StreamGrant>;
}

export function streamRoute(
  broadcaster: Pick<StreamBroadcaster, 'addListener' | 'bitrateKbps' | 'currentTitle'>,
  options: StreamRouteOptions,
): FastifyPluginAsync {
  const name = options.name ?? 'Station';
  return async (app) => {
    app.get(
      options.path,
      {
        // Authorised by options.authorize (a query ticket): an <audio> element cannot send an Authorization header.
        config: { public: true },
        schema: { tags: ['station-radio'], summary: 'The live radio stream (audio/mpeg, Icecast style); stream_url of stream-info' },
      },
      async (request, reply) => {
        const granted = options.authorize ? await options.authorize(request) : true;
        if (!granted) throw Errors.authRequired('the stream needs a listener token');
        const icy = request.headers['icy-metadata'] === '1';
        reply.hijack();
        const response = reply.raw;
        response.writeHead(200, {
          'Content-Type': 'audio/mpeg',
          'Cache-Control': 'no-cache, no-store',
          'X-Content-Type-Options': 'nosniff',
          'icy-br': String(broadcaster.bitrateKbps()),
          'icy-name': name,
          'icy-pub': '0',
          ...(icy ? { 'icy-metaint': String(ICY_METAINT) } : {}),
        });
        // Held from here, so that whatever the grant took (a connection slot) is given back when this response closes, a HEAD's included.
        if (typeof granted === 'object')
          response.once(
            'close',
            granted.hold(() => response.destroy()),
          );
        if (request.method === 'HEAD') {
          response.end();
          return;
        }
        response.flushHeaders();
        response.socket?.setNoDelay(true);
        broadcaster.addListener(icy ? new IcyMetadataSink(response, () => broadcaster.currentTitle() ?? name) : response);
      },
    );
  };
}
