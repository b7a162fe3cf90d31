/** The API shapes the studio reads, from the client library's generated types. */
import type { Answer, BodyOf, ItemOf } from '../shared/api-types';

export type Me = Answer<'/v1/users/me', 'get'>;
export type Artist = Answer<'/v1/users/me/artist', 'get'>;
export type ArtistInput = BodyOf<'/v1/artists', 'post'>;
export type ManagedTrack = Answer<'/v1/tracks/{id}/upload', 'get'>;
export type TrackPatch = BodyOf<'/v1/tracks/{id}', 'patch'>;
export type Release = ItemOf<'/v1/albums'>;
export type Product = ItemOf<'/v1/store/products'>;
export type ProductInput = BodyOf<'/v1/store/products', 'post'>;
export type ProductPatch = BodyOf<'/v1/store/products/{id}', 'patch'>;
export type CapsuleItem = ItemOf<'/v1/artists/{slug}/capsules'>;
export type Capsule = Answer<'/v1/capsules/{id}', 'get'>;
export type CapsuleInput = BodyOf<'/v1/capsules', 'post'>;
export type ArtistReport = Answer<'/v1/artists/{slug}/analytics', 'get'>;
export type Payout = ItemOf<'/v1/payouts'>;
export type OnboardingLink = Answer<'/api/connect/onboard', 'post'>;
/** A published track as the artist's profile lists it. */
export type CatalogTrack = Artist['other_tracks'][number];
