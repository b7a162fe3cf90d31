/** Module H (listener API) and the scheduler's catalog next-track endpoint. */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import { Errors } from '../../errors.js';
import { StringEnum } from '../../http/schemas.js';
import { clientKey } from '../../http/client-address.js';
import type { RadioPlanner } from '../scheduler/planning-cycle.js';
import type { RadioService } from './radio.service.js';
import { FeedbackAnswer, FeedbackBody, HistorySchema, NextTrackSchema, NowPlayingCardSchema, QueueSchema, StreamInfoSchema } from './schemas.js';

const TAGS = ['station-radio'];
const perUser = (request: { principal: { userId: string | null; credentialId: string } | null; ip: string }) =>
  request.principal?.userId ?? request.principal?.credentialId ?? request.ip;

export function radioRoutes(radio: RadioService, planner: Pick<RadioPlanner, 'suggestCatalogTrack'>, signer: UrlSigner) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/station/v1/radio/stream-info',
      {
        config: { scope: 'station:read' },
        schema: { tags: TAGS, summary: 'Stream URL, bitrate, listener count, station status, now playing', response: { 200: StreamInfoSchema } },
      },
      async (request) => radio.streamInfo(request.principal!),
    );

    app.get(
      '/station/v1/radio/now-playing',
      {
        config: { scope: 'station:read', rateLimit: { max: 1, timeWindow: 1000, keyGenerator: perUser } },
        schema: {
          tags: TAGS,
          summary: 'The now-playing card (polling fallback of the WebSocket; 1 request per second per user)',
          response: { 200: NowPlayingCardSchema },
        },
      },
      async () => radio.nowPlaying(),
    );

    app.get(
      '/station/v1/radio/queue',
      { config: { scope: 'station:read' }, schema: { tags: TAGS, summary: 'The next 5 tracks, each marked catalog or AI', response: { 200: QueueSchema } } },
      async () => radio.queue(),
    );

    app.get(
      '/station/v1/radio/history',
      {
        config: { scope: 'station:read' },
        schema: {
          tags: TAGS,
          summary: 'The last 20 played tracks, optionally of one radio session',
          querystring: Type.Object({ session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })) }, { additionalProperties: false }),
          response: { 200: HistorySchema },
        },
      },
      async (request) => radio.history(request.query.session_id),
    );

    app.post(
      '/station/v1/radio/feedback',
      {
        config: { scope: 'station:read', rateLimit: { max: 10, timeWindow: 60_000, keyGenerator: perUser } },
        schema: {
          tags: TAGS,
          summary: 'Rates a track; a flag puts an AI track in the safety review queue (10 per minute per user)',
          description:
            'flag_inappropriate on an AI track is a report. It counts (review queue, report_threshold) only from a listener who held a stream ticket or an open stream while the track was on air, and once per client address; otherwise the rating and flag are stored and count nothing.',
          body: FeedbackBody,
          response: { 201: FeedbackAnswer },
        },
      },
      async (request, reply) => reply.status(201).send(await radio.feedback(request.principal!, request.body, clientKey(request.ip))),
    );

    app.get(
      '/station/v1/scheduler/next-track',
      {
        config: { scope: 'station:generate' },
        schema: {
          tags: TAGS,
          summary: 'A catalog master fitting the live context, as a signed CDN link (the radio queue is not changed)',
          querystring: Type.Object({ source: StringEnum(['catalog']) }, { additionalProperties: false }),
          response: { 200: NextTrackSchema },
        },
      },
      async () => {
        const track = await planner.suggestCatalogTrack();
        if (!track?.audioBlobKey) throw Errors.notFound('Playable catalog track');
        const link = signer.sign(track.audioBlobKey, 3600);
        return {
          track_id: track.id,
          title: track.title,
          artist: track.artistName,
          genre: track.genre,
          duration_sec: Math.round(track.durationSec),
          stream_url: link.url,
          stream_url_expires: link.expiresAt.toISOString(),
        };
      },
    );
  };
}
