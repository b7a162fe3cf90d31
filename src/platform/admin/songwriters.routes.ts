/** GET /v1/admin/songwriters (scope platform:admin): ISRCs, splits and publishing rights. */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Nullable, PageQuery, Paginated, StringEnum } from '../../http/schemas.js';
import { pageOf } from '../../pagination.js';
import { MAX_TRACKS_PER_SONGWRITER, type SongwritersService } from './songwriters.service.js';

const AdminSongwriter = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    name: Type.String(),
    ipi: Nullable(Type.String({ description: 'IPI name number' })),
    platform_owned: Type.Boolean({ description: "one of the platform's own songwriters (the only lyrics AI training may use)" }),
    artist: Type.Union([Type.Object({ id: Type.String(), slug: Type.String(), name: Type.String() }), Type.Null()], {
      description: 'the artist they write for',
    }),
    publishing: Type.Object(
      {
        rights_holder: StringEnum(['platform', 'publisher', 'songwriter'] as const, {
          description: 'who holds the publishing rights: the platform for its own songwriters, else the named publisher, else the songwriter (self-published)',
        }),
        publisher: Nullable(Type.String()),
        pro: Nullable(Type.String({ description: 'performing rights organisation' })),
      },
      { title: 'PublishingRights' },
    ),
    track_count: Type.Integer({ description: 'tracks credited to them' }),
    tracks_with_invalid_splits: Type.Integer({ description: 'of the tracks listed, those whose splits do not sum to 100%' }),
    tracks: Type.Array(
      Type.Object({
        track_id: Type.String(),
        title: Type.String(),
        isrc: Nullable(Type.String()),
        status: Type.String({ enum: ['published', 'removed'] }),
        roles: Type.Array(Type.String({ enum: ['composer', 'lyricist', 'composer_lyricist', 'producer'] })),
        split_pct: Type.Number({ description: "this songwriter's share of the track (the sum of their credits on it)" }),
        track_splits_total_pct: Type.Number({ description: 'the sum of every credit on the track' }),
        splits_valid: Type.Boolean({ description: 'whether that sum is 100' }),
      }),
      { description: `their credits by track title, at most ${MAX_TRACKS_PER_SONGWRITER}` },
    ),
  },
  { title: 'AdminSongwriter' },
);

export function songwritersRoutes(songwriters: SongwritersService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/v1/admin/songwriters',
      {
        config: { scope: 'platform:admin' },
        schema: {
          tags: ['admin'],
          summary: 'Lists songwriters by name with the ISRC and split of every track they are credited on, and their publishing rights',
          description:
            "The credits of a track must sum to 100% (or the track has none): the database refuses, at commit, any change that leaves a track's " +
            'credits at another total. `splits_valid` reports it per track (rows written before that rule was enforced could be off); ' +
            '`invalid_splits=true` lists only the songwriters with such a track.',
          querystring: Type.Composite(
            [
              PageQuery,
              Type.Object({
                search: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'part of the name, case-insensitive, or the exact IPI' })),
                artist: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "the artist's slug or id" })),
                invalid_splits: Type.Optional(Type.Boolean()),
              }),
            ],
            { additionalProperties: false },
          ),
          response: { 200: Paginated(AdminSongwriter, 'AdminSongwriterList') },
        },
      },
      async (request) => {
        const { search, artist, invalid_splits } = request.query;
        return songwriters.list({ search, artist, invalidSplits: invalid_splits }, pageOf(request.query));
      },
    );
  };
}
