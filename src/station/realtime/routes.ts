/**
 * The four WebSocket channels: /station/ws/{now-playing,listeners,generation-progress,training-progress}.
 *
 * Authentication happens before the upgrade, in the same onRequest hook as every HTTP route: a browser
 * cannot set Authorization on a WebSocket, so the token it sends as `?token=<JWT>` (or as the subprotocol
 * pair `Sec-WebSocket-Protocol: bearer, <JWT>`) is moved into the Authorization header when the upgrade
 * request arrives, and removed from the URL so it never reaches the request log. A missing, invalid,
 * expired or revoked token is then answered with HTTP 401 and the error envelope, a token without the
 * channel's scope with 403, and no WebSocket is opened. (An Authorization header or X-API-Key sent by a
 * non-browser client works as on any route.)
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import websocket from '@fastify/websocket';
import { Type } from '@sinclair/typebox';
import type { Scope } from '../../auth/scopes.js';
import { HttpError } from '../../http/errors.js';
import { SLOW_CONSUMER_CLOSE, type Channel } from './hub.js';
import type { StationRealtime } from './realtime.js';

export const WS_PREFIX = '/station/ws/';

const CHANNEL_SCOPES: Record<Channel, Scope> = {
  'now-playing': 'station:read',
  listeners: 'station:read',
  'generation-progress': 'station:admin',
  'training-progress': 'station:train',
};

const CHANNEL_MESSAGES: Record<Channel, string> = {
  'now-playing': '`{"event":"now_playing","data":<now-playing card>,"server_time_utc"}` on every track change, and the current card at once on connect.',
  listeners: '`{"event":"listener_count","count","peak_today"}` every STATION_LISTENER_BROADCAST_SEC seconds, and at once on connect.',
  'generation-progress': '`{"event":"generation_progress","generation_id","progress_pct","eta_seconds"}` for in-flight generations.',
  'training-progress': '`{"event":"training_epoch","job_id","epoch","loss","perplexity"}` after each training epoch.',
};

const CONNECTION_NOTES = [
  'WebSocket channel: open it with a WebSocket client (`ws://` or `wss://`); a plain GET answers 426.',
  'Token: `?token=<JWT>` or the subprotocol pair `Sec-WebSocket-Protocol: bearer, <JWT>` (the server answers `bearer`).',
  'A missing, invalid or expired token is refused with HTTP 401 before the upgrade, a token without the scope with 403,',
  'and a credential that already holds STATION_MAX_WEBSOCKETS_PER_CREDENTIAL (default 10) open WebSockets with 429 and Retry-After.',
  'An open client is closed with 4401 when its login is revoked or its user banned, and with 4403 when its role loses the scope.',
  'The server pings every 30 s and terminates a client that did not answer the previous ping; a client that stops',
  `reading is closed with ${SLOW_CONSUMER_CLOSE} (slow consumer). Reconnect with exponential backoff.`,
].join(' ');

/** Clients only answer pings; anything they send is ignored, so a small frame limit is enough. */
const MAX_INCOMING_BYTES = 4096;
const BEARER_PROTOCOL = 'bearer';

/** Subprotocol list `bearer, <token>` -> token. */
function protocolToken(header: string | undefined): string | null {
  if (!header) return null;
  const [first, second] = header.split(',').map((part) => part.trim());
  return first?.toLowerCase() === BEARER_PROTOCOL && second ? second : null;
}

/**
 * Runs on the raw upgrade request before Fastify routes it: token from the query (first) or from the
 * subprotocol list into `Authorization: Bearer`, unless the client sent an Authorization header itself.
 */
export function liftWebSocketToken(request: IncomingMessage): void {
  const url = request.url ?? '';
  if (!url.startsWith(WS_PREFIX)) return;
  const queryAt = url.indexOf('?');
  let token: string | null = null;
  if (queryAt >= 0) {
    const query = new URLSearchParams(url.slice(queryAt + 1));
    if (query.has('token')) {
      token = query.get('token');
      query.delete('token');
      const rest = query.toString();
      request.url = url.slice(0, queryAt) + (rest ? `?${rest}` : '');
    }
  }
  token ??= protocolToken(request.headers['sec-websocket-protocol']);
  // An empty token is still a presented (and invalid) credential: 401, not a silent fall-through.
  if (token !== null && request.headers.authorization === undefined) {
    request.headers.authorization = `Bearer ${token || '-'}`;
  }
}

export function realtimeRoutes(realtime: StationRealtime) {
  return async function register(app: FastifyInstance) {
    app.server.prependListener('upgrade', liftWebSocketToken);

    // Registered here, once for the whole app (the plugin listens on the server's upgrade event).
    await app.register(websocket, {
      options: {
        maxPayload: MAX_INCOMING_BYTES,
        perMessageDeflate: false,
        // The hub tracks clients; ws's own set would only duplicate it.
        clientTracking: false,
        handleProtocols: (protocols) => (protocols.has(BEARER_PROTOCOL) ? BEARER_PROTOCOL : false),
      },
      preClose(done) {
        realtime.hub.closeAll();
        done();
      },
    });

    for (const channel of Object.keys(CHANNEL_SCOPES) as Channel[]) {
      app.route({
        method: 'GET',
        url: `${WS_PREFIX}${channel}`,
        config: { scope: CHANNEL_SCOPES[channel] },
        // Only warnings and errors: a client reconnecting with backoff should not flood the info log.
        logLevel: 'warn',
        schema: {
          tags: ['station-realtime'],
          summary: `WebSocket channel ${channel}`,
          description: `${CHANNEL_MESSAGES[channel]}\n\n${CONNECTION_NOTES}`,
          querystring: Type.Object({ token: Type.Optional(Type.String({ description: 'access token (JWT)' })) }),
        },
        // The credential's WebSockets are counted before the upgrade: one too many is refused with 429 and Retry-After.
        preHandler: async (request) => {
          if (!request.headers.upgrade || !request.principal) return;
          const release = await realtime.admit(request.principal);
          request.raw.socket.once('close', release);
        },
        // A refused upgrade (401/403/429) has had its answer written: close the socket it came on.
        onResponse: async (request) => {
          if (request.headers.upgrade) request.raw.socket.destroy();
        },
        // Plain HTTP (no upgrade) lands here; `wsHandler` rather than `websocket: true` keeps the route documented.
        handler: async () => {
          throw new HttpError(426, 'UPGRADE_REQUIRED', 'This is a WebSocket channel', 'connect with a WebSocket client');
        },
        wsHandler: (socket, request) =>
          realtime.connect(channel, socket, request.principal ? { principal: request.principal, scope: CHANNEL_SCOPES[channel] } : null),
      });
    }
  };
}
