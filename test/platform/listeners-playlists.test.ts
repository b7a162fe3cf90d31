/** Playlists and listener profiles: create, rename, add, remove, reorder, privacy, ownership, concurrent edits, history. */
import { beforeAll, describe, expect, it } from 'vitest';
import { playEvents } from '../../src/infra/db/schema/index.js';
import { stationForSuite, staffLogin } from '../helpers/station.js';
import { bearer, loginAs, type Login } from './accounts-support.js';
import { seedArtist, seedTracks } from './listeners-support.js';

describe('playlists and listeners', () => {
  let trackIds: string[];
  let admin: { token: string; csrf: string };

  const station = stationForSuite();
  beforeAll(async () => {
    const artist = await seedArtist(station);
    trackIds = (await seedTracks(station, artist.id, 30)).map((t) => t.id);
    admin = await staffLogin(station); // once: a TOTP code is accepted once
  });

  const call = (login: { token: string; csrf: string }, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    station.http.inject({ method, url, headers: bearer(login), ...(payload ? { payload } : {}) });
  const order = (body: { tracks: { position: number; track: { id: string } }[] }) => body.tracks.map((t) => t.track.id);
  const patchMe = (login: Login, payload: Record<string, unknown>) => call(login, 'PATCH', '/v1/users/me', payload);

  it('creates, renames, adds at a position, removes and reorders with contiguous positions', async () => {
    const ada = await loginAs(station, 'listener');
    const created = await call(ada, 'POST', '/v1/playlists', { name: '  Night drive ' });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    expect(created.json()).toMatchObject({ owner_id: ada.userId, name: 'Night drive', public: true, track_count: 0, tracks: [] });

    for (const trackId of trackIds.slice(0, 3)) expect((await call(ada, 'POST', `/v1/playlists/${id}/tracks`, { track_id: trackId })).statusCode).toBe(201);
    const inserted = await call(ada, 'POST', `/v1/playlists/${id}/tracks`, { track_id: trackIds[3], position: 1 });
    expect(order(inserted.json())).toEqual([trackIds[0], trackIds[3], trackIds[1], trackIds[2]]);
    expect(inserted.json().tracks.map((t: { position: number }) => t.position)).toEqual([0, 1, 2, 3]);

    const duplicate = await call(ada, 'POST', `/v1/playlists/${id}/tracks`, { track_id: trackIds[0] });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error.code).toBe('PLATFORM_CONFLICT');
    expect((await call(ada, 'POST', `/v1/playlists/${id}/tracks`, { track_id: 'no-such-track' })).statusCode).toBe(404);

    const removed = await call(ada, 'DELETE', `/v1/playlists/${id}/tracks/${trackIds[3]}`);
    expect(removed.statusCode).toBe(200);
    expect(order(removed.json())).toEqual([trackIds[0], trackIds[1], trackIds[2]]);
    expect(removed.json().tracks.map((t: { position: number }) => t.position)).toEqual([0, 1, 2]);
    expect((await call(ada, 'DELETE', `/v1/playlists/${id}/tracks/${trackIds[3]}`)).statusCode).toBe(404);

    const reordered = await call(ada, 'PUT', `/v1/playlists/${id}/tracks`, { track_ids: [trackIds[2], trackIds[0], trackIds[1]] });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect(order(reordered.json())).toEqual([trackIds[2], trackIds[0], trackIds[1]]);
    for (const bad of [
      [trackIds[2], trackIds[0]],
      [trackIds[2], trackIds[0], trackIds[0]],
      [trackIds[2], trackIds[0], trackIds[5]],
    ]) {
      const answer = await call(ada, 'PUT', `/v1/playlists/${id}/tracks`, { track_ids: bad });
      expect(answer.statusCode).toBe(409);
    }
    expect(order((await call(ada, 'GET', `/v1/playlists/${id}`)).json())).toEqual([trackIds[2], trackIds[0], trackIds[1]]);

    const renamed = await call(ada, 'PATCH', `/v1/playlists/${id}`, { name: 'Morning drive', public: false });
    expect(renamed.json()).toMatchObject({ name: 'Morning drive', public: false, track_count: 3 });
    expect((await call(ada, 'PATCH', `/v1/playlists/${id}`, { name: '   ' })).statusCode).toBe(400);

    expect((await call(ada, 'DELETE', `/v1/playlists/${id}`)).statusCode).toBe(204);
    expect((await call(ada, 'GET', `/v1/playlists/${id}`)).statusCode).toBe(404);
  });

  it('keeps positions unique and contiguous under concurrent adds', async () => {
    const ada = await loginAs(station, 'listener');
    const id = (await call(ada, 'POST', '/v1/playlists', { name: 'Race' })).json().id;
    const answers = await Promise.all(
      trackIds.slice(0, 20).map((trackId) => call(ada, 'POST', `/v1/playlists/${id}/tracks`, { track_id: trackId, position: 0 })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(201));
    const final = (await call(ada, 'GET', `/v1/playlists/${id}`)).json();
    expect(final.tracks.map((t: { position: number }) => t.position)).toEqual([...Array(20).keys()]);
    expect(new Set(order(final))).toEqual(new Set(trackIds.slice(0, 20)));
  });

  it('lets only the owner change a playlist, and hides private ones from others (404), not from admins', async () => {
    const ada = await loginAs(station, 'listener');
    const bob = await loginAs(station, 'listener');
    const open = (await call(ada, 'POST', '/v1/playlists', { name: 'Open' })).json().id;
    const hidden = (await call(ada, 'POST', '/v1/playlists', { name: 'Hidden', public: false })).json().id;
    await call(ada, 'POST', `/v1/playlists/${hidden}/tracks`, { track_id: trackIds[0] });

    expect((await call(bob, 'GET', `/v1/playlists/${open}`)).statusCode).toBe(200);
    const peek = await call(bob, 'GET', `/v1/playlists/${hidden}`);
    expect(peek.statusCode).toBe(404);
    expect(peek.json().error.code).toBe('PLATFORM_NOT_FOUND');
    // Changes by another user: 403 on what they can see, 404 on what they cannot; nothing changes.
    expect((await call(bob, 'PATCH', `/v1/playlists/${open}`, { name: 'Mine now' })).statusCode).toBe(403);
    expect((await call(bob, 'POST', `/v1/playlists/${open}/tracks`, { track_id: trackIds[1] })).statusCode).toBe(403);
    expect((await call(bob, 'DELETE', `/v1/playlists/${open}`)).statusCode).toBe(403);
    expect((await call(bob, 'PATCH', `/v1/playlists/${hidden}`, { public: true })).statusCode).toBe(404);
    expect((await call(bob, 'DELETE', `/v1/playlists/${hidden}/tracks/${trackIds[0]}`)).statusCode).toBe(404);
    expect((await call(bob, 'PUT', `/v1/playlists/${hidden}/tracks`, { track_ids: [] })).statusCode).toBe(404);
    expect((await call(ada, 'GET', `/v1/playlists/${open}`)).json().name).toBe('Open');
    expect((await call(ada, 'GET', `/v1/playlists/${hidden}`)).json()).toMatchObject({ public: false, track_count: 1 });

    expect((await call(admin, 'GET', `/v1/playlists/${hidden}`)).statusCode).toBe(200);
    const adminList = await call(admin, 'GET', `/v1/listeners/${ada.userId}/playlists`);
    expect(adminList.json().total).toBe(2);

    // Bob's listing of Ada's playlists shows the public one only; Ada's own shows both.
    expect((await call(bob, 'GET', `/v1/listeners/${ada.userId}/playlists`)).json().data.map((p: { id: string }) => p.id)).toEqual([open]);
    expect((await call(ada, 'GET', `/v1/listeners/${ada.userId}/playlists`)).json().total).toBe(2);

    // With playlists_public false on her profile, the listing is 403 to others and even her public playlist is hidden.
    await patchMe(ada, { playlists_public: false });
    const denied = await call(bob, 'GET', `/v1/listeners/${ada.userId}/playlists`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('PLATFORM_FORBIDDEN');
    expect((await call(bob, 'GET', `/v1/playlists/${open}`)).statusCode).toBe(404);
    expect((await call(ada, 'GET', `/v1/listeners/${ada.userId}/playlists`)).statusCode).toBe(200);
  });

  it('shows a profile with counts, and the play history to the owner and admins unless made public', async () => {
    const ada = await loginAs(station, 'listener');
    const bob = await loginAs(station, 'listener');
    await patchMe(ada, { country: 'FR', display_name: 'Ada' });
    const base = Date.UTC(2026, 0, 1);
    await station.database.db.insert(playEvents).values([
      { trackId: trackIds[0], userId: ada.userId, source: 'on_demand', playedAt: new Date(base) },
      { trackId: trackIds[1], userId: ada.userId, source: 'radio', playedAt: new Date(base + 60_000), secondsPlayed: 42 },
      { trackId: trackIds[2], userId: bob.userId, source: 'on_demand', playedAt: new Date(base) },
    ]);

    const own = await call(ada, 'GET', `/v1/listeners/${ada.userId}`);
    expect(own.json()).toMatchObject({
      id: ada.userId,
      display_name: 'Ada',
      country: 'FR',
      history_public: false,
      counts: { plays: 2, playlists: 0, following: 0 },
    });
    const seen = await call(bob, 'GET', `/v1/listeners/${ada.userId}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ display_name: 'Ada', country: null, counts: { plays: null, playlists: 0 } });
    expect(seen.json()).not.toHaveProperty('email');

    const history = await call(ada, 'GET', `/v1/listeners/${ada.userId}/history`);
    expect(history.statusCode).toBe(200);
    expect(history.json()).toMatchObject({ total: 2, page: 1, limit: 20 });
    expect(history.json().data.map((e: { track: { id: string }; source: string }) => [e.track.id, e.source])).toEqual([
      [trackIds[1], 'radio'],
      [trackIds[0], 'on_demand'],
    ]);
    const denied = await call(bob, 'GET', `/v1/listeners/${ada.userId}/history`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('PLATFORM_FORBIDDEN');
    expect((await call(admin, 'GET', `/v1/listeners/${ada.userId}/history`)).json().total).toBe(2);

    await patchMe(ada, { history_public: true });
    expect((await call(bob, 'GET', `/v1/listeners/${ada.userId}/history`)).json().total).toBe(2);
    expect((await call(bob, 'GET', `/v1/listeners/${ada.userId}`)).json().counts.plays).toBe(2);

    for (const id of ['nobody', '00000000-0000-4000-8000-000000000000']) {
      for (const suffix of ['', '/history', '/playlists']) {
        const answer = await call(bob, 'GET', `/v1/listeners/${id}${suffix}`);
        expect(answer.statusCode).toBe(404);
        expect(answer.json().error.code).toBe('PLATFORM_NOT_FOUND');
      }
    }
  });
});
