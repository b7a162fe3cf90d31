/**
 * The platform API's shapes as the server publishes them (GET /openapi.json, generated into the client
 * library's schema.d.ts by `npm run client:generate`): a type-only import, so nothing reaches the bundle and
 * a change of a server schema shows up here as a type error rather than as a page reading a missing field.
 */
import type { paths } from '../../../clients/js/src/schema';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The JSON body of an operation's 200 (or 201) answer. */
type JsonOf<Operation> = Operation extends { responses: { 200: { content: { 'application/json': infer Body } } } }
  ? Body
  : Operation extends { responses: { 201: { content: { 'application/json': infer Body } } } }
    ? Body
    : never;

/** What `METHOD path` answers, e.g. `Answer<'/v1/artists/{slug}'>`. */
export type Answer<Path extends keyof paths, M extends Method = 'get'> = JsonOf<NonNullable<paths[Path][M]>>;

/** The JSON body an operation takes. */
export type BodyOf<Path extends keyof paths, M extends Method> =
  NonNullable<paths[Path][M]> extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : never;

export type Item<List> = List extends { data: Array<infer T> } ? T : never;

export type TrackSummary = Item<Answer<'/v1/tracks'>>;
export type TrackDetail = Answer<'/v1/tracks/{id}'>;
export type ArtistSummary = Item<Answer<'/v1/artists'>>;
export type ArtistProfile = Answer<'/v1/artists/{slug}'>;
export type AlbumSummary = Item<Answer<'/v1/albums'>>;
export type AlbumDetail = Answer<'/v1/albums/{id}'>;
export type CapsuleTeaser = Item<Answer<'/v1/artists/{slug}/capsules'>>;
export type Capsule = Answer<'/v1/capsules/{id}'>;
export type FollowState = Answer<'/v1/artists/{slug}/follow', 'post'>;
export type LibraryItem = Item<Answer<'/v1/users/me/library'>>;
export type PlaylistSummary = Item<Answer<'/v1/listeners/{id}/playlists'>>;
export type Playlist = Answer<'/v1/playlists/{id}'>;
export type HistoryEntry = Item<Answer<'/v1/listeners/{id}/history'>>;
export type Product = Item<Answer<'/v1/store/products'>>;
export type Order = Item<Answer<'/v1/store/orders'>>;
export type CheckoutSession = Answer<'/v1/checkout', 'post'>;
export type Download = Answer<'/v1/store/downloads/{id}'>;
export type Me = Answer<'/v1/users/me'>;
export type ProfileChange = BodyOf<'/v1/users/me', 'patch'>;
export type TotpEnrolment = Answer<'/v1/users/me/totp', 'post'>;
export type ConnectedApp = Item<Answer<'/v1/users/me/apps'>>;
