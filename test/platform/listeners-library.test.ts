/** GET/POST/DELETE /v1/users/me/library: the caller's saved tracks and releases, idempotent saves, and no path to another's. */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { albums, tracks } from '../../src/infra/db/schema/index.js';
import { stationForSuite } from '../helpers/station.js';
import { bearer, createKey, loginAs } from './accounts-support.js';
import { seedArtist, seedTracks } from './listeners-support.js';

describe('/v1/users/me/library', () => {
  let trackIds: string[];
  let artistId: string;

  const station = stationForSuite();
  beforeAll(async () => {
    const artist = await seedArtist(station);
    artistId = artist.id;
    trackIds = (await seedTracks(station, artist.id, 3)).map((t) => t.id);
  });

  it('saves tracks once, lists them newest first with paging, and removes them', async () => {
    const ada = await loginAs(station, 'listener');
    const save = (id: string) => station.http.inject({ method: 'POST', url: `/v1/users/me/library/${id}`, headers: bearer(ada) });

    const first = await save(trackIds[0]);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ type: 'track', track: { id: trackIds[0], title: 'Track 0', duration: 120, status: 'published' } });
    const again = await save(trackIds[0]);
    expect(again.statusCode).toBe(200);
    expect(again.json().saved_at).toBe(first.json().saved_at);
    expect((await save(trackIds[1])).statusCode).toBe(201);
    expect((await save(trackIds[2])).statusCode).toBe(201);

    const page1 = await station.http.inject({ url: '/v1/users/me/library?limit=2', headers: bearer(ada) });
    expect(page1.statusCode, page1.body).toBe(200);
    expect(page1.json()).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(page1.json().data).toHaveLength(2);
    const page2 = await station.http.inject({ url: '/v1/users/me/library?limit=2&page=2', headers: bearer(ada) });
    const listed = [...page1.json().data, ...page2.json().data].map((item: { track: { id: string } }) => item.track.id);
    expect(new Set(listed)).toEqual(new Set(trackIds));

    const removed = await station.http.inject({ method: 'DELETE', url: `/v1/users/me/library/${trackIds[1]}`, headers: bearer(ada) });
    expect(removed.statusCode).toBe(204);
    const repeat = await station.http.inject({ method: 'DELETE', url: `/v1/users/me/library/${trackIds[1]}`, headers: bearer(ada) });
    expect(repeat.statusCode).toBe(404);
    expect(repeat.json().error.code).toBe('PLATFORM_NOT_FOUND');
    expect((await station.http.inject({ url: '/v1/users/me/library', headers: bearer(ada) })).json().total).toBe(2);
  });

  it('answers 404 PLATFORM_NOT_FOUND for an unknown id of any shape or a removed track', async () => {
    const ada = await loginAs(station, 'listener');
    const [gone] = await seedTracks(station, (await seedArtist(station)).id, 1);
    await station.database.db.update(tracks).set({ status: 'removed' }).where(eq(tracks.id, gone.id));
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000', gone.id]) {
      const answer = await station.http.inject({ method: 'POST', url: `/v1/users/me/library/${id}`, headers: bearer(ada) });
      expect(answer.statusCode, id).toBe(404);
      expect(answer.json().error.code).toBe('PLATFORM_NOT_FOUND');
    }
  });

  it("keeps each user's library their own", async () => {
    const ada = await loginAs(station, 'listener');
    const bob = await loginAs(station, 'listener');
    await station.http.inject({ method: 'POST', url: `/v1/users/me/library/${trackIds[0]}`, headers: bearer(ada) });
    const bobs = await station.http.inject({ url: '/v1/users/me/library', headers: bearer(bob) });
    expect(bobs.json()).toMatchObject({ data: [], total: 0 });
    // Bob removing the track from "his" library cannot touch Ada's.
    expect((await station.http.inject({ method: 'DELETE', url: `/v1/users/me/library/${trackIds[0]}`, headers: bearer(bob) })).statusCode).toBe(404);
    expect((await station.http.inject({ url: '/v1/users/me/library', headers: bearer(ada) })).json().total).toBe(1);
  });

  it('needs a login session to change it and CSRF; a sandbox key sees no live library', async () => {
    const ada = await loginAs(station, 'listener');
    await station.http.inject({ method: 'POST', url: `/v1/users/me/library/${trackIds[0]}`, headers: bearer(ada) });
    const noCsrf = await station.http.inject({ method: 'POST', url: `/v1/users/me/library/${trackIds[1]}`, headers: { authorization: `Bearer ${ada.token}` } });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error.code).toBe('PLATFORM_CSRF_INVALID');

    const dev = await loginAs(station, 'developer');
    await station.http.inject({ method: 'POST', url: `/v1/users/me/library/${trackIds[0]}`, headers: bearer(dev) });
    const live = await createKey(station, dev, { scopes: ['users:read'], environment: 'live' });
    const test = await createKey(station, dev, { scopes: ['users:read'], environment: 'test' });
    expect((await station.http.inject({ url: '/v1/users/me/library', headers: { 'x-api-key': live.key } })).json().total).toBe(1);
    expect((await station.http.inject({ url: '/v1/users/me/library', headers: { 'x-api-key': test.key } })).json().total).toBe(0);
    const csrf = (await station.http.inject({ url: '/api/auth/csrf', headers: { 'x-api-key': live.key } })).json().csrf_token;
    const byKey = await station.http.inject({
      method: 'POST',
      url: `/v1/users/me/library/${trackIds[1]}`,
      headers: { 'x-api-key': live.key, 'x-csrf-token': csrf },
    });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error.code).toBe('PLATFORM_FORBIDDEN');
  });

  it('saves a release beside the tracks, in the same list, once, and removes it; an unknown id is 404', async () => {
    const [release] = await station.database.db
      .insert(albums)
      .values({ slug: `release-${Date.now()}`, artistId, title: 'Night Ferries', type: 'ep', releaseYear: 2026, genre: 'electronic' })
      .returning();
    const ben = await loginAs(station, 'listener');
    const save = (id: string) => station.http.inject({ method: 'POST', url: `/v1/users/me/library/${id}`, headers: bearer(ben) });
    expect((await save(trackIds[0])).statusCode).toBe(201);
    const saved = await save(release.id);
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json()).toMatchObject({
      type: 'album',
      album: { id: release.id, slug: release.slug, title: 'Night Ferries', type: 'ep', release_year: 2026, artist_id: artistId },
    });
    const again = await save(release.id);
    expect(again.statusCode).toBe(200);
    expect(again.json().saved_at).toBe(saved.json().saved_at);

    const listed = (await station.http.inject({ url: '/v1/users/me/library', headers: bearer(ben) })).json();
    expect(listed.total).toBe(2);
    // Newest first: the release was saved after the track.
    expect(listed.data.map((item: { type: string }) => item.type)).toEqual(['album', 'track']);
    expect(listed.data[0].album.id).toBe(release.id);
    expect(listed.data[1].track.id).toBe(trackIds[0]);

    expect((await station.http.inject({ method: 'DELETE', url: `/v1/users/me/library/${release.id}`, headers: bearer(ben) })).statusCode).toBe(204);
    expect((await station.http.inject({ method: 'DELETE', url: `/v1/users/me/library/${release.id}`, headers: bearer(ben) })).statusCode).toBe(404);
    expect((await station.http.inject({ url: '/v1/users/me/library', headers: bearer(ben) })).json().total).toBe(1);
    const unknown = await save('00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('PLATFORM_NOT_FOUND');
  });

  it('documents every listeners, library, playlist and capsule route in /openapi.json', async () => {
    const doc = (await station.http.inject({ url: '/openapi.json' })).json();
    const expected: Record<string, string[]> = {
      '/v1/users/me/library': ['get'],
      '/v1/users/me/library/{id}': ['post', 'delete'],
      '/v1/listeners/{id}': ['get'],
      '/v1/listeners/{id}/history': ['get'],
      '/v1/listeners/{id}/playlists': ['get'],
      '/v1/playlists': ['post'],
      '/v1/playlists/{id}': ['get', 'patch', 'delete'],
      '/v1/playlists/{id}/tracks': ['post', 'put'],
      '/v1/playlists/{id}/tracks/{trackId}': ['delete'],
      '/v1/artists/{slug}/follow': ['post', 'delete'],
      '/v1/capsules': ['get', 'post'],
      '/v1/capsules/{id}': ['get', 'patch'],
      '/v1/capsules/{id}/unlock': ['post'],
      '/v1/artists/{slug}/capsules': ['get'],
    };
    for (const [path, methods] of Object.entries(expected)) {
      for (const method of methods) {
        const operation = doc.paths[path]?.[method];
        expect(operation, `${method} ${path}`).toBeDefined();
        expect(operation.responses['200'] ?? operation.responses['201'] ?? operation.responses['204'], `${method} ${path}`).toBeDefined();
      }
    }
  });
});
