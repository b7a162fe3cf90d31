/**
 * Onboarding (contract.md, "Accounts and onboarding"): a developer account (POST /v1/developer/account) lets any
 * user with a verified address create keys and OAuth apps; an artist profile (POST /v1/artists) makes a listener
 * an artist, one per account, edited by its owner or an admin; until an admin verifies it, its tracks are public
 * but stay off the radio and out of the training dataset, and every track and release shows `artist_verified`.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { albums, artists, tracks, users } from '../../src/infra/db/schema/index.js';
import { loadAudioItems } from '../../src/station/dataset/training-data.js';
import { CatalogTrackReads } from '../../src/platform/catalog/track-reads.js';
import { expectEnvelope } from '../foundation/support.js';
import { pollUntil } from '../helpers/poll.js';
import { stationForSuite, signupListener, staffLogin, type Credentials } from '../helpers/station.js';
import { bearer, loginAs, type Login } from './accounts-support.js';

let admin: Credentials;

const station = stationForSuite();
beforeAll(async () => {
  admin = await staffLogin(station);
});

const call = (who: { token: string; csrf: string }, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  station.http.inject({ method, url, headers: bearer(who), ...(payload ? { payload } : {}) });

const REDIRECT_URI = 'https://integrator.example/callback';

describe('POST /v1/developer/account', () => {
  it('opens the account once (201, then 200 with the same body) with the sandbox base address', async () => {
    const listener = await loginAs(station, 'listener');
    const first = await call(listener, 'POST', '/v1/developer/account');
    expect(first.statusCode, first.body).toBe(201);
    const body = first.json();
    expect(body).toEqual({ developer_account: true, created_at: expect.any(String), sandbox_base_url: 'http://station.test/sandbox/v1' });
    const again = await call(listener, 'POST', '/v1/developer/account');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(body);
    expect((await call(listener, 'GET', '/v1/users/me')).json()).toMatchObject({ developer_account: true });
  });

  it('needs a verified address (403 PLATFORM_EMAIL_UNVERIFIED) and a login session', async () => {
    const unverified = await signupListener(station);
    expectEnvelope(await call(unverified, 'POST', '/v1/developer/account'), 403, 'PLATFORM_EMAIL_UNVERIFIED');
    expect((await call(unverified, 'GET', '/v1/users/me')).json()).toMatchObject({ developer_account: false });
    expectEnvelope(await station.http.inject({ method: 'POST', url: '/v1/developer/account' }), 401, 'PLATFORM_AUTH_REQUIRED');
  });

  it('lets a listener create keys and OAuth apps, with its own scopes only and no station scope it lacks', async () => {
    const listener = await loginAs(station, 'listener');
    const key = { name: 'integration', scopes: ['tracks:read'], environment: 'test' };
    const app = { name: 'Integrator', redirect_uris: [REDIRECT_URI], scopes: ['tracks:read'] };
    expectEnvelope(await call(listener, 'POST', '/v1/developer/keys', key), 403, 'PLATFORM_FORBIDDEN');
    expectEnvelope(await call(listener, 'POST', '/v1/developer/apps', app), 403, 'PLATFORM_FORBIDDEN');

    expect((await call(listener, 'POST', '/v1/developer/account')).statusCode).toBe(201);
    const created = await call(listener, 'POST', '/v1/developer/keys', key);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().key).toMatch(/^stn_test_/);
    expect((await call(listener, 'POST', '/v1/developer/apps', app)).statusCode).toBe(201);
    for (const scopes of [['station:train'], ['tracks:write'], ['station:admin']]) {
      expectEnvelope(await call(listener, 'POST', '/v1/developer/keys', { ...key, scopes }), 400, 'PLATFORM_VALIDATION_FAILED');
    }
    const [row] = await station.database.db.select({ role: users.role }).from(users).where(eq(users.id, listener.userId));
    expect(row.role).toBe('listener'); // the account grants no role
  });

  it('adds the webhook scopes to the session that opened it and to its keys, never a station scope', async () => {
    const listener = await loginAs(station, 'listener');
    const hook = { url: 'https://integrator.example/hooks', events: ['track.published', 'artist.verified'] };
    expectEnvelope(await call(listener, 'POST', '/v1/webhooks', hook), 403, 'PLATFORM_INSUFFICIENT_SCOPE');
    expect((await call(listener, 'POST', '/v1/developer/account')).statusCode).toBe(201);
    // The same login, at once: every instance dropped its cached view of the user's sessions.
    const registered = await call(listener, 'POST', '/v1/webhooks', hook);
    expect(registered.statusCode, registered.body).toBe(201);
    expect((await call(listener, 'GET', '/v1/webhooks')).json().data.map((w: { id: string }) => w.id)).toContain(registered.json().id);
    const me = (await call(listener, 'GET', '/v1/users/me')).json();
    expect(me.credential.scopes).toEqual(expect.arrayContaining(['webhooks:read', 'webhooks:write']));
    expect(me.credential.scopes.filter((scope: string) => scope.startsWith('station:') && scope !== 'station:read')).toEqual([]);
    const created = await call(listener, 'POST', '/v1/developer/keys', { name: 'hooks', scopes: ['webhooks:read', 'webhooks:write'], environment: 'live' });
    expect(created.statusCode, created.body).toBe(201);
    const viaKey = await station.http.inject({ method: 'GET', url: '/v1/webhooks', headers: { 'x-api-key': created.json().key } });
    expect(viaKey.statusCode, viaKey.body).toBe(200);
  });
});

describe('POST /v1/artists and PATCH /v1/artists/{slug}', () => {
  let owner: Login;
  let slug: string;
  let artistId: string;

  beforeAll(async () => {
    owner = await loginAs(station, 'listener');
  });

  it('creates an unverified profile owned by the caller, who becomes an artist', async () => {
    const answer = await call(owner, 'POST', '/v1/artists', { name: 'Lumen Tide', genre: 'electronic', bio: 'Night drives.', country: 'PT' });
    expect(answer.statusCode, answer.body).toBe(201);
    const artist = answer.json();
    expect(artist).toMatchObject({
      name: 'Lumen Tide',
      genre: 'electronic',
      bio: 'Night drives.',
      country: 'PT',
      verified: false,
      platform_owned: false,
      owner_user_id: owner.userId,
    });
    expect(artist.slug).toMatch(/^lumen-tide/);
    ({ slug, id: artistId } = artist);
    const [row] = await station.database.db.select({ role: users.role }).from(users).where(eq(users.id, owner.userId));
    expect(row.role).toBe('artist');
    // The same login now holds the artist scope: the new owner sees the artist's analytics and payouts.
    expect((await call(owner, 'GET', `/v1/artists/${slug}/analytics`)).statusCode).toBe(200);
    expect((await call(owner, 'GET', '/v1/payouts')).statusCode).toBe(200);
    const capsule = await call(owner, 'POST', '/v1/capsules', { title: 'First light', teaser: 'A demo', content_text: 'Hidden notes' });
    expect(capsule.statusCode, capsule.body).toBe(201);
    expect((await call(owner, 'GET', `/v1/artists/${slug}`)).json()).toMatchObject({ id: artistId, verified: false, country: 'PT' });
  });

  it('makes one profile per account (409), needs a verified address, and lets staff keep their role', async () => {
    expectEnvelope(await call(owner, 'POST', '/v1/artists', { name: 'Second Act', genre: 'rock' }), 409, 'PLATFORM_CONFLICT');
    const unverified = await signupListener(station);
    expectEnvelope(await call(unverified, 'POST', '/v1/artists', { name: 'Nobody Yet', genre: 'pop' }), 403, 'PLATFORM_EMAIL_UNVERIFIED');
    expectEnvelope(await call(owner, 'POST', '/v1/artists', { name: 'X', genre: 'pop', country: 'ZZ' }), 400, 'PLATFORM_VALIDATION_FAILED');

    const developer = await loginAs(station, 'developer');
    const staff = await call(developer, 'POST', '/v1/artists', { name: 'Lumen Tide', genre: 'ambient' });
    expect(staff.statusCode, staff.body).toBe(201);
    expect(staff.json().slug).not.toBe(slug); // the name's slug was taken: a suffixed one
    const [row] = await station.database.db.select({ role: users.role }).from(users).where(eq(users.id, developer.userId));
    expect(row.role).toBe('developer');
  });

  it('is edited by its owner or an admin only; the slug stays', async () => {
    const edited = await call(owner, 'PATCH', `/v1/artists/${slug}`, { bio: 'Night drives, remastered.', country: null });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ slug, bio: 'Night drives, remastered.', country: null });
    const stranger = await loginAs(station, 'artist');
    expectEnvelope(await call(stranger, 'PATCH', `/v1/artists/${slug}`, { name: 'Stolen' }), 403, 'PLATFORM_FORBIDDEN');
    expectEnvelope(await call(owner, 'PATCH', '/v1/artists/no-such-artist', { name: 'X' }), 404, 'PLATFORM_NOT_FOUND');
    const byAdmin = await call(admin, 'PATCH', `/v1/artists/${artistId}`, { name: 'Lumen Tide (Official)' });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(byAdmin.json()).toMatchObject({ slug, name: 'Lumen Tide (Official)', owner_user_id: owner.userId });
  });

  it("is not edited with the owner's key or app token that lacks the artist scope, and the refusal changes nothing", async () => {
    const keyHeaders = async (scopes: string[]) => {
      const { key } = await station.auth.createApiKey({ name: 'narrow', scopes: scopes as never, environment: 'live', ownerUserId: owner.userId });
      const csrf = (await station.http.inject({ url: '/api/auth/csrf', headers: { 'x-api-key': key } })).json().csrf_token as string;
      return { 'x-api-key': key, 'x-csrf-token': csrf };
    };
    const before = (await call(owner, 'GET', `/v1/artists/${slug}`)).json();
    const readOnly = await station.http.inject({
      method: 'PATCH',
      url: `/v1/artists/${slug}`,
      headers: await keyHeaders(['tracks:read', 'users:read']),
      payload: { name: 'Renamed By A Reader', bio: 'not yours to write' },
    });
    expectEnvelope(readOnly, 403, 'PLATFORM_FORBIDDEN');
    expect((await call(owner, 'GET', `/v1/artists/${slug}`)).json()).toMatchObject({ name: before.name, bio: before.bio });

    const withArtist = await station.http.inject({
      method: 'PATCH',
      url: `/v1/artists/${slug}`,
      headers: await keyHeaders(['artist']),
      payload: { bio: 'Edited with the artist scope.' },
    });
    expect(withArtist.statusCode, withArtist.body).toBe(200);
    expect(withArtist.json()).toMatchObject({ slug, bio: 'Edited with the artist scope.' });
  });
});

describe('unverified artists: public, but off the radio and out of the dataset', () => {
  it('keeps their tracks out of the radio candidates and training until an admin verifies them; refs show artist_verified', async () => {
    const owner = await loginAs(station, 'listener');
    const created = await call(owner, 'POST', '/v1/artists', { name: 'Quiet Harbour', genre: 'folk' });
    expect(created.statusCode, created.body).toBe(201);
    const artist = created.json();
    const trackId = randomUUID();
    const albumId = randomUUID();
    const { db } = station.database;
    await db
      .insert(albums)
      .values({ id: albumId, slug: `harbour-${trackId.slice(0, 8)}`, artistId: artist.id, title: 'Harbour', type: 'single', genre: 'folk' });
    await db.insert(tracks).values({
      id: trackId,
      slug: `harbour-light-${trackId.slice(0, 8)}`,
      title: 'Harbour Light',
      artistId: artist.id,
      genre: 'folk',
      durationSec: 180,
      audioBlobKey: `tracks/${trackId}.mp3`,
      albumId,
      trackNumber: 1,
    });
    const catalog = new CatalogTrackReads(db);
    const onAir = async () => (await catalog.radioCandidates(true)).map((candidate) => candidate.id);

    const listener = await loginAs(station, 'listener');
    const detail = await call(listener, 'GET', `/v1/tracks/${trackId}`);
    expect(detail.statusCode, detail.body).toBe(200); // public on the platform
    expect(detail.json()).toMatchObject({ artist_slug: artist.slug, artist_verified: false });
    const list = (await call(listener, 'GET', `/v1/tracks?artist=${artist.slug}`)).json();
    expect(list.data).toEqual([expect.objectContaining({ id: trackId, artist_verified: false })]);
    const search = (await call(listener, 'GET', `/v1/tracks?q=${encodeURIComponent('Harbour Light')}`)).json();
    expect(search.data.find((track: { id: string }) => track.id === trackId)).toMatchObject({ artist_verified: false });
    expect((await call(listener, 'GET', `/v1/albums/${albumId}`)).json()).toMatchObject({ artist_verified: false });
    expect(await onAir()).not.toContain(trackId);
    const inDataset = async () => {
      const page = await call(admin, 'GET', '/station/v1/dataset/artists?limit=100');
      expect(page.statusCode, page.body).toBe(200);
      return page.json().data.find((entry: { artist_id: string }) => entry.artist_id === artist.id);
    };
    expect(await inDataset()).toMatchObject({ status: 'excluded', tracks: 1, eligible_masters: 0 });

    const verified = await call(admin, 'POST', `/v1/admin/artists/${artist.id}/verify`);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(await onAir()).toContain(trackId);
    // Track detail is served from a few seconds' cache (catalog.service.ts); lists read the row at once.
    expect((await call(listener, 'GET', `/v1/tracks?artist=${artist.slug}`)).json().data[0]).toMatchObject({ artist_verified: true });
    await pollUntil(
      'the track shows its verified artist',
      async () => (await call(listener, 'GET', `/v1/tracks/${trackId}`)).json(),
      (track) => track.artist_verified === true,
      10_000,
    );
    expect((await call(listener, 'GET', `/v1/artists/${artist.slug}`)).json()).toMatchObject({ verified: true });
    // Verified but not platform-owned: still never training data (only the platform's own masters are).
    expect(await inDataset()).toMatchObject({ status: 'excluded', eligible_masters: 0 });
    expect((await loadAudioItems(new CatalogTrackReads(db))).map((item) => item.id)).not.toContain(trackId);
    const [row] = await db.select({ platformOwned: artists.platformOwned }).from(artists).where(eq(artists.id, artist.id));
    expect(row.platformOwned).toBe(false);
  });
});
