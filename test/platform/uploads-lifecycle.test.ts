/**
 * The life of an uploaded track: only its artist's owner or an admin changes or takes it down; a takedown
 * emits track.removed, hides the track from everyone but admins, takes it out of the radio's plan at once
 * and keeps its play history. An upload by a platform-owned artist joins the training dataset under module
 * B's rules; anyone else's upload never does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogTrackReads } from '../../src/platform/catalog/track-reads.js';
import { SlotsRepository } from '../../src/station/scheduler/slots.repository.js';
import { pollUntil } from '../helpers/poll.js';
import { buildTestStation, staffLogin, type TestStation } from '../helpers/station.js';
import { startReceiver, type Receiver } from '../webhooks/support.js';
import { bearer, loginAs, type Login } from './accounts-support.js';
import { artistFor, mp3Of, music, published, upload } from './uploads-support.js';

describe('track lifecycle', () => {
  let station: TestStation;
  let receiver: Receiver;
  let admin: { token: string; csrf: string };
  let owner: Login;
  let platformOwner: Login;
  let rival: Login;
  let listener: Login;
  let artist: { id: string; slug: string };
  let platformArtist: { id: string; slug: string };
  const ids: Record<'own' | 'second' | 'platform' | 'rival', string> = { own: '', second: '', platform: '', rival: '' };

  const call = (login: { token: string; csrf: string }, method: 'GET' | 'PATCH' | 'DELETE' | 'POST', url: string, payload?: Record<string, unknown>) =>
    station.http.inject({ method, url, headers: bearer(login), ...(payload ? { payload } : {}) });

  async function uploaded(login: Login, title: string, seconds: number) {
    const answer = await upload(station, login, { title, genre: 'Synthwave' }, { data: await mp3Of(music(seconds)) });
    expect(answer.statusCode, answer.body).toBe(202);
    return (await published(station, login, answer.json().id)).id as string;
  }

  beforeAll(async () => {
    // The scheduler cycles only when the test asks (an hour apart on its own).
    // The FakeEngine: an upload's renditions are the RenditionPool's; the engine only extracts its style features.
    station = await buildTestStation({ STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback', STATION_SCHEDULER_CYCLE_SEC: '3600' }, { fakeEngine: true });
    receiver = await startReceiver();
    admin = await staffLogin(station);
    const hook = await call(admin, 'POST', '/v1/webhooks', { url: receiver.url, events: ['track.removed'] });
    expect(hook.statusCode, hook.body).toBe(201);
    [owner, platformOwner, rival, listener] = await Promise.all([
      loginAs(station, 'artist'),
      loginAs(station, 'artist'),
      loginAs(station, 'artist'),
      loginAs(station, 'listener'),
    ]);
    artist = await artistFor(station, owner.userId);
    platformArtist = await artistFor(station, platformOwner.userId, true);
    await artistFor(station, rival.userId, false, true); // verified: its tracks go on air
    ids.own = await uploaded(owner, 'Own Song', 1.4);
    ids.second = await uploaded(owner, 'Second Song', 1.2);
    ids.platform = await uploaded(platformOwner, 'House Song', 1.4);
    ids.rival = await uploaded(rival, 'Rival Song', 1.2);
  }, 600_000); // four uploads processed one after another: minutes on a loaded CI machine
  afterAll(async () => {
    await receiver?.close();
    await station?.destroy();
  });

  it('lets only the owner or an admin change metadata; the catalog shows the change at once', async () => {
    const url = `/v1/tracks/${ids.own}`;
    expect((await call(listener, 'GET', url)).json().title).toBe('Own Song'); // now in the detail cache
    const byRival = await call(rival, 'PATCH', url, { title: 'Stolen' });
    expect(byRival.statusCode).toBe(403);
    expect(byRival.json().error.code).toBe('PLATFORM_FORBIDDEN');
    expect((await call(listener, 'PATCH', url, { title: 'Mine' })).json().error.code).toBe('PLATFORM_INSUFFICIENT_SCOPE');

    const changed = await call(owner, 'PATCH', url, { title: 'Own Song (Remastered)', mood: ['warm'], isrc: 'US-RC1-76-07839', album: 'Remasters' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ title: 'Own Song (Remastered)', mood: ['warm'], isrc: 'USRC17607839', album: 'Remasters', status: 'published' });
    expect((await call(listener, 'GET', url)).json()).toMatchObject({ title: 'Own Song (Remastered)', isrc: 'USRC17607839' });
    expect((await call(admin, 'PATCH', url, { explicit: true })).json()).toMatchObject({ explicit: true, title: 'Own Song (Remastered)' });

    const taken = await call(owner, 'PATCH', `/v1/tracks/${ids.second}`, { isrc: 'USRC17607839' });
    expect(taken.statusCode).toBe(409);
    expect((await call(owner, 'PATCH', url, {})).statusCode).toBe(400);
    expect((await call(rival, 'GET', `/v1/tracks/${ids.own}/upload`)).statusCode).toBe(404);
  });

  it("puts a platform-owned artist's upload in the training dataset, and never anyone else's", async () => {
    const snapshot = await call(admin, 'POST', '/station/v1/dataset/snapshot', { name: 'with uploads' });
    expect(snapshot.statusCode, snapshot.body).toBe(201);
    const detail = (await call(admin, 'GET', `/station/v1/dataset/snapshots/${snapshot.json().snapshot_id}`)).json();
    expect(detail.audio_track_ids).toContain(ids.platform);
    for (const id of [ids.own, ids.second, ids.rival]) expect(detail.audio_track_ids).not.toContain(id);
    const artists = (await call(admin, 'GET', '/station/v1/dataset/artists?limit=100')).json().data;
    expect(artists.find((a: { artist_id: string }) => a.artist_id === platformArtist.id)).toMatchObject({ status: 'included', eligible_masters: 1 });
    expect(artists.find((a: { artist_id: string }) => a.artist_id === artist.id)).toMatchObject({ status: 'excluded', eligible_masters: 0 });
  });

  it('takes a track down with a reason: track.removed, gone for all but admins, plays kept', async () => {
    const url = `/v1/tracks/${ids.own}`;
    expect((await call(listener, 'GET', `${url}/stream`)).statusCode).toBe(302); // a play in the listener's history
    expect((await call(rival, 'DELETE', url, { reason: 'mine now' })).statusCode).toBe(403);
    expect((await call(owner, 'DELETE', url)).statusCode).toBe(400); // a takedown says why

    const removed = await call(owner, 'DELETE', url, { reason: 'Rights dispute' });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ status: 'removed', removal: { reason: 'Rights dispute' } });
    const [delivery] = await receiver.waitFor(ids.own, 1);
    expect(JSON.parse(delivery.body)).toMatchObject({ event: 'track.removed', data: { track_id: ids.own, reason: 'Rights dispute' } });

    for (const who of [listener, owner, rival]) {
      expect((await call(who, 'GET', url)).statusCode).toBe(404);
      expect((await call(who, 'GET', `/v1/tracks?artist=${artist.slug}`)).json().data.map((t: { id: string }) => t.id)).toEqual([ids.second]);
    }
    expect((await call(listener, 'GET', `${url}/stream`)).statusCode).toBe(404);
    expect((await call(admin, 'GET', url)).json()).toMatchObject({ id: ids.own, status: 'removed' });
    const adminList = (await call(admin, 'GET', `/v1/tracks?artist=${artist.slug}`)).json();
    expect(adminList.data.map((t: { id: string }) => t.id).sort()).toEqual([ids.own, ids.second].sort());

    const history = (await call(listener, 'GET', `/v1/listeners/${listener.userId}/history`)).json();
    expect(history.data.find((entry: { track: { id: string } }) => entry.track.id === ids.own)?.track).toMatchObject({ status: 'removed' });
    // Taking it down again changes nothing (and sends no second event).
    expect((await call(owner, 'DELETE', url, { reason: 'again' })).json().removal.reason).toBe('Rights dispute');
  });

  it('takes a track out of the radio plan at once', async () => {
    const radio = station.station.radio;
    radio.broadcaster.stop(); // the plan alone: nothing pulls tracks onto the air behind the test's back
    await station.station.stationConfig.update({ radioEnabled: true, generationMode: 'catalog_only' });
    const slots = new SlotsRepository(station.database.db);
    const catalog = new CatalogTrackReads(station.database.db);
    await radio.scheduler.planner.cycle();
    const planned = async () => (await slots.planned()).map((slot) => slot.trackId);
    const playable = (await catalog.radioCandidates(true)).map((c) => c.id);
    expect(playable).toContain(ids.rival);
    expect((await planned()).sort()).toEqual(playable.sort()); // a handful of masters: each planned once

    expect((await call(admin, 'DELETE', `/v1/tracks/${ids.rival}`, { reason: 'Takedown notice' })).statusCode).toBe(200);
    await pollUntil('the removed track leaves the plan', planned, (trackIds) => !trackIds.includes(ids.rival), 10_000);
    expect((await catalog.radioCandidates(true)).map((c) => c.id)).not.toContain(ids.rival);
    for (let i = 0; i < 4; i++) {
      const next = await radio.scheduler.source.next();
      expect(next?.title).not.toBe('Rival Song');
    }
  });
});
