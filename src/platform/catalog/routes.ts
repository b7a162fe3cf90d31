/** GET /v1/tracks, /v1/tracks/{id}, /v1/tracks/{id}/stream (artists and albums: src/platform/artists, src/platform/albums). */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, PageQuery, Paginated, StringEnum } from '../../http/schemas.js';
import { pageOf } from '../../pagination.js';
import { isAdmin } from '../../auth/principal.js';
import type { CatalogService } from './catalog.service.js';
import { TrackDetail, TrackSummary } from './schemas.js';
import { MAX_SEARCH_RESULTS } from './track-search.js';

const SearchText = Type.String({ minLength: 1, maxLength: 200, description: 'words to search for (see the description)' });

const SEARCH =
  '`q` (or `search`) searches titles, artist names, release titles and genres by word: every word must appear, whole, and the ' +
  'last one, from two characters on, also as the start of a word, as it may still be being typed ("paper radi" finds Paper Lantern ' +
  'by Quiet Radiator); case and accents do not matter; ' +
  'punctuation only separates words, so a query without letters or digits finds nothing. Ranking: first the tracks whose ' +
  'title has every word, then those whose title, artist name or release title has every word, then the others (prefixes, ' +
  `genre); within each, the most streamed first. A search yields at most its ${MAX_SEARCH_RESULTS} best matches: \`total\` ` +
  `is exact up to ${MAX_SEARCH_RESULTS} and says ${MAX_SEARCH_RESULTS} beyond, and pages past them are empty. Other filters combine with it.`;
/** Said on every catalog route: the environment rule (src/platform/developer/README.md). */
export const ENVIRONMENT_NOTE =
  'A test key reads the sandbox catalog (a copy of the demo catalog with its own ids and the same slugs), every other credential the live catalog; an id of the other one answers 404 PLATFORM_NOT_FOUND.';
const QUALITIES = ['128kbps', '192kbps', '320kbps', '128', '192', '320'] as const;

export function catalogRoutes(catalog: CatalogService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/v1/tracks',
      {
        config: { scope: 'tracks:read' },
        schema: {
          tags: ['tracks'],
          summary: 'Lists published tracks, most streamed first (admins: every track, taken down ones too), or searches them (q or search), best match first',
          description: `${SEARCH} ${ENVIRONMENT_NOTE}`,
          querystring: Type.Composite(
            [
              PageQuery,
              Type.Object({
                q: Type.Optional(SearchText),
                search: Type.Optional(SearchText),
                genre: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
                artist: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "the artist's slug, id or name" })),
              }),
            ],
            { additionalProperties: false },
          ),
          response: { 200: Paginated(TrackSummary, 'TrackList') },
        },
      },
      async (request) => {
        const { page, limit, offset } = pageOf(request.query);
        const { q, search, genre, artist } = request.query;
        const principal = request.principal!;
        const filter = { environment: principal.environment, search: q ?? search, genre, artist, anyStatus: isAdmin(principal) };
        const result = await catalog.listTracks(filter, limit, offset);
        return { ...result, page, limit };
      },
    );

    app.get(
      '/v1/tracks/:id',
      {
        config: { scope: 'tracks:read' },
        schema: {
          tags: ['tracks'],
          summary: 'Track detail with credits',
          description: `A track taken down (or still processing) answers 404, except to admins. ${ENVIRONMENT_NOTE}`,
          params: IdParams('id'),
          response: { 200: TrackDetail },
        },
      },
      async (request) => catalog.getTrack(request.params.id, request.principal!.environment, { anyStatus: isAdmin(request.principal!) }),
    );

    app.get(
      '/v1/tracks/:id/stream',
      {
        config: { scope: 'streams:read' },
        schema: {
          tags: ['tracks'],
          summary: 'Redirects to a signed, expiring link to the audio (which answers Range requests with 206)',
          description: `quality picks a stream rendition (uploaded tracks have 128, 192 and 320 kbps, each an MP3 of exact Content-Length); a track without that rendition streams its own audio. A test key's stream records no play; a listener's requests for one track within its length (at least 30 s) record one. ${ENVIRONMENT_NOTE}`,
          params: IdParams('id'),
          querystring: Type.Object(
            { quality: Type.Optional(StringEnum(QUALITIES, { description: 'bitrate of the rendition' })) },
            { additionalProperties: false },
          ),
          response: { 302: Type.Null({ description: 'Location: the signed audio URL' }) },
        },
      },
      async (request, reply) => {
        const principal = request.principal!;
        const { quality } = request.query;
        const url = await catalog.streamTrack(
          request.params.id,
          { userId: principal.userId, credentialId: principal.credentialId, environment: principal.environment, userAgent: request.headers['user-agent'] },
          quality ? Number.parseInt(quality, 10) : undefined,
        );
        return reply.header('Cache-Control', 'no-store').redirect(url, 302);
      },
    );
  };
}
