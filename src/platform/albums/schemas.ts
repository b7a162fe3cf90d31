/** The shapes of releases (albums, EPs, singles) as GET /v1/albums and artist profiles show them. */
import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../http/schemas.js';
import { TrackSummary } from '../catalog/schemas.js';

export const RELEASE_TYPES = ['album', 'ep', 'single'] as const;

export const AlbumSummary = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    title: Type.String(),
    type: StringEnum(RELEASE_TYPES),
    artist_id: Type.String(),
    artist_slug: Type.String(),
    artist: Type.String({ description: "the artist's name" }),
    artist_verified: Type.Boolean({ description: 'whether an admin verified the artist' }),
    genre: Type.String(),
    release_year: Nullable(Type.Integer()),
    track_count: Type.Integer({ description: 'published tracks on the release' }),
    duration: Type.Integer({ description: 'seconds, of those tracks' }),
    cover_art_url: Nullable(Type.String({ format: 'uri' })),
  },
  { title: 'AlbumSummary' },
);

/** A release with its published tracks in order (an artist profile's discography entry). */
export const Release = Type.Composite([AlbumSummary, Type.Object({ tracks: Type.Array(TrackSummary) })], { title: 'Release' });

export const AlbumDetail = Type.Composite(
  [
    Release,
    Type.Object({
      products: Type.Array(
        Type.Object({
          id: Type.String({ description: 'POST /v1/checkout with it' }),
          title: Type.String(),
          type: StringEnum(RELEASE_TYPES),
          price: Type.Number(),
          price_cents: Type.Integer(),
          currency: Type.String(),
        }),
        { description: 'the store products on sale that sell this release, cheapest first' },
      ),
    }),
  ],
  { title: 'AlbumDetail' },
);
