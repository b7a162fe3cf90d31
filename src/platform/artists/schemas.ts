/** The shapes of artists as GET /v1/artists and the profile show them. */
import { Type } from '@sinclair/typebox';
import { Nullable } from '../../http/schemas.js';
import { Release } from '../albums/schemas.js';
import { TrackSummary } from '../catalog/schemas.js';

export const ArtistSummary = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    name: Type.String(),
    genre: Type.String(),
    verified: Type.Boolean(),
    platform_owned: Type.Boolean(),
    followers: Type.Integer(),
  },
  { title: 'ArtistSummary' },
);

const Songwriter = Type.Object({ id: Type.String(), slug: Type.String(), name: Type.String() }, { title: 'ArtistSongwriter' });

export const ArtistProfile = Type.Composite(
  [
    ArtistSummary,
    Type.Object({
      bio: Type.String(),
      formed_year: Nullable(Type.Integer()),
      country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2' })),
      verified_at: Nullable(Type.String({ format: 'date-time', description: 'when an admin verified the artist; null while unverified' })),
      following: Nullable(Type.Boolean({ description: 'whether the calling user follows the artist; null for a credential without a user' })),
      virtual_artist: Type.Union(
        [
          Type.Object({
            operated_by: Type.Literal('platform'),
            training_dataset: Type.String({
              enum: ['included', 'excluded'],
              description: "whether the station's AI training may learn from the artist's masters",
            }),
          }),
          Type.Null(),
        ],
        {
          description:
            "a platform-owned (virtual, house) artist: made and run by the platform, its catalog the only one AI training may use; null for artists' own accounts",
        },
      ),
      songwriters: Type.Array(Songwriter, { description: 'who writes for the artist' }),
      discography: Type.Array(Release, { description: 'releases, newest first (at most 100), each with its published tracks in order' }),
      other_tracks: Type.Array(TrackSummary, {
        description: 'published tracks on no release, most streamed first (at most 100; all tracks: GET /v1/artists/{slug}/tracks)',
      }),
    }),
  ],
  { title: 'ArtistProfile' },
);

/** An artist as its owner made or edited it (POST /v1/artists, PATCH /v1/artists/{slug}). */
export const OwnedArtist = Type.Composite([ArtistProfile, Type.Object({ owner_user_id: Nullable(Type.String()) })], { title: 'OwnedArtist' });

export const ArtistFields = {
  name: Type.String({ minLength: 1, maxLength: 120 }),
  genre: Type.String({ minLength: 1, maxLength: 80 }),
  bio: Type.String({ maxLength: 4000 }),
  country: Nullable(Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2, upper case' })),
};
