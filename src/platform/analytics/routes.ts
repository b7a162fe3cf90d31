/**
 * GET /v1/analytics/streams, /audience, /revenue, /top-tracks, /top-artists and /stream (Server-Sent Events),
 * scope analytics:read (developers and admins); GET /v1/artists/{slug}/analytics (scope artist: the artist's
 * own account or an admin); GET /v1/admin/analytics (platform:admin).
 */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { LiveAccess } from '../../auth/connection-guard.js';
import type { AnalyticsService } from './analytics.service.js';
import type { LiveFeed } from './live-feed.js';
import {
  ArtistReport,
  AudienceReport,
  PERIOD_NOTE,
  PeriodQuery,
  PlatformKpis,
  RangeQuery,
  RevenueReport,
  StreamsQuery,
  StreamsReport,
  TopArtists,
  TopQuery,
  TopTracks,
} from './schemas.js';

const STREAM_NOTE =
  'A text/event-stream that stays open. Frames: `snapshot` (id: the feed head; today’s counters `{day, plays, radio_plays, ' +
  'on_demand_plays, orders, revenue_cents{currency: cents}}` and the station’s `listeners`), then `play` and `order` as they ' +
  'are recorded (id: their feed number, monotonic and shared by every instance; data: the event and its UTC day’s counters ' +
  'after it), `listeners` (no id) when the station’s listener total changes, and a `: heartbeat` comment line every 15 s. ' +
  'Reconnect with `Last-Event-ID` (EventSource does) to get the missed events from a buffer of the last 10,000, on any ' +
  'instance; an id the buffer no longer covers gets a new `snapshot` with `reset` set. Sandbox credentials see only sandbox ' +
  'orders. The stream ends with a `close` frame when the credential is revoked, its user banned or demoted, or the server stops.';

export function analyticsRoutes(analytics: AnalyticsService, feed: LiveFeed, access: LiveAccess) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    // Open streams never end on their own: end them before the server waits for in-flight requests.
    app.addHook('preClose', async () => feed.closeAll('shutdown'));

    app.get(
      '/v1/analytics/streams',
      {
        config: { scope: 'analytics:read' },
        schema: {
          tags: ['analytics'],
          summary: 'Stream counts per period bucket',
          description: PERIOD_NOTE,
          querystring: StreamsQuery,
          response: { 200: StreamsReport },
        },
      },
      async (request) => analytics.streams(request.principal!, request.query),
    );

    app.get(
      '/v1/analytics/audience',
      {
        config: { scope: 'analytics:read' },
        schema: {
          tags: ['analytics'],
          summary: 'Daily and monthly active users, demographics, geography and device split',
          description: `${PERIOD_NOTE} Geography and devices cover listeners’ plays (a radio airing has no listener).`,
          querystring: PeriodQuery,
          response: { 200: AudienceReport },
        },
      },
      async (request) => analytics.audience(request.principal!, request.query),
    );

    app.get(
      '/v1/analytics/revenue',
      {
        config: { scope: 'analytics:read' },
        schema: {
          tags: ['analytics'],
          summary: 'Store revenue per period bucket and currency, with the 85/15 split',
          description: `${PERIOD_NOTE} Orders are completed store purchases; a test key sees sandbox orders only.`,
          querystring: PeriodQuery,
          response: { 200: RevenueReport },
        },
      },
      async (request) => analytics.revenue(request.principal!, request.query),
    );

    app.get(
      '/v1/analytics/top-tracks',
      {
        config: { scope: 'analytics:read' },
        schema: {
          tags: ['analytics'],
          summary: 'The most played tracks of the period',
          description: PERIOD_NOTE,
          querystring: TopQuery,
          response: { 200: TopTracks },
        },
      },
      async (request) => analytics.topTracks(request.principal!, request.query),
    );

    app.get(
      '/v1/analytics/top-artists',
      {
        config: { scope: 'analytics:read' },
        schema: {
          tags: ['analytics'],
          summary: 'The most played artists of the period',
          description: PERIOD_NOTE,
          querystring: TopQuery,
          response: { 200: TopArtists },
        },
      },
      async (request) => analytics.topArtists(request.principal!, request.query),
    );

    app.get(
      '/v1/analytics/stream',
      {
        config: { scope: 'analytics:read' },
        // A HEAD would open an endless response with no body to send.
        exposeHeadRoute: false,
        schema: {
          tags: ['analytics'],
          summary: 'Live counters (plays, listeners, revenue) over Server-Sent Events',
          description: STREAM_NOTE,
          headers: Type.Object({ 'last-event-id': Type.Optional(Type.String({ maxLength: 64, description: 'resume after this event id' })) }),
          response: { 200: Type.String({ description: 'text/event-stream' }) },
        },
      },
      async (request, reply) => {
        const principal = request.principal!;
        // One of the credential's event-stream slots (429 with Retry-After when they are all open), given back on close.
        const releaseSlot = await access.admit('sse', principal);
        // Registered and synced before the response starts, so a database failure is still an ordinary error answer.
        const connection = await feed.open(principal.environment, request.headers['last-event-id']).catch((error: unknown) => {
          releaseSlot();
          throw error;
        });
        connection.whenClosed(releaseSlot);
        connection.whenClosed(access.hold(principal, 'analytics:read', (reason) => connection.close(reason)));
        reply.hijack();
        const response = reply.raw;
        response.once('close', () => connection.end());
        // The client may have gone while the feed was read: its 'close' has passed already.
        if (response.destroyed || request.raw.socket?.destroyed) {
          connection.end();
          return;
        }
        // The headers hooks already set (the API key's quota) go out with the stream.
        const set = Object.entries(reply.getHeaders()).filter((entry): entry is [string, string | number | string[]] => entry[1] !== undefined);
        response.writeHead(200, {
          ...Object.fromEntries(set),
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-store',
          'x-accel-buffering': 'no',
          // The socket ends with the stream rather than idle on in the client's pool (and keep a closing server waiting).
          connection: 'close',
        });
        response.flushHeaders();
        response.socket?.setNoDelay(true);
        connection.attach(response);
      },
    );

    app.get(
      '/v1/artists/:slug/analytics',
      {
        config: { scope: 'artist' },
        schema: {
          tags: ['artists'],
          summary: 'An artist’s streams, audience, top tracks and sales',
          description:
            `The artist’s own account, or an admin: another account gets 403 PLATFORM_FORBIDDEN, an unknown artist 404 ` +
            `PLATFORM_NOT_FOUND. The path takes the slug (v2.1) or the id. ${PERIOD_NOTE}`,
          params: Type.Object({ slug: Type.String({ minLength: 1, description: 'artist slug or id' }) }),
          querystring: PeriodQuery,
          response: { 200: ArtistReport },
        },
      },
      async (request) => analytics.artistReport(request.principal!, request.params.slug, request.query),
    );

    app.get(
      '/v1/admin/analytics',
      {
        config: { scope: 'platform:admin' },
        schema: {
          tags: ['admin'],
          summary: 'Platform KPIs: daily and monthly active users, streams, revenue, new sign-ups',
          description: PERIOD_NOTE,
          querystring: RangeQuery,
          response: { 200: PlatformKpis },
        },
      },
      async (request) => analytics.platformKpis(request.principal!, request.query),
    );
  };
}
