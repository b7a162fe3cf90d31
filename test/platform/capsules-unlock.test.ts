/** Sonic Capsules: artist-owned create/update, teasers for all, unlock rules, content only after unlock, capsule.unlocked once. */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestStation, staffLogin, type TestStation } from '../helpers/station.js';
import { startReceiver, type Receiver } from '../webhooks/support.js';
import { bearer, loginAs, type Login } from './accounts-support.js';
import { seedArtist, seedTracks } from './listeners-support.js';

describe('capsules', () => {
  let station: TestStation;
  let receiver: Receiver;
  let artistUser: Login;
  let artist: { id: string; slug: string };
  let trackId: string;
  let admin: { token: string; csrf: string };

  beforeAll(async () => {
    station = await buildTestStation({ STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback' });
    receiver = await startReceiver();
    artistUser = await loginAs(station, 'artist');
    artist = await seedArtist(station, { ownerUserId: artistUser.userId, followers: 10 });
    [{ id: trackId }] = await seedTracks(station, artist.id, 1);
    admin = await staffLogin(station);
  });
  afterAll(async () => {
    await receiver?.close();
    await station?.destroy();
  });

  const call = (login: { token: string; csrf: string }, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    station.http.inject({ method, url, headers: bearer(login), ...(payload ? { payload } : {}) });

  it('lets the owning artist create and update; teasers for all, content for owner, admins and unlockers only', async () => {
    const created = await call(artistUser, 'POST', '/v1/capsules', {
      title: 'Demo tape',
      teaser: 'Something from the vault',
      content_text: 'The secret lyrics',
      content_track_id: trackId,
    });
    expect(created.statusCode, created.body).toBe(201);
    const capsule = created.json();
    expect(capsule).toMatchObject({
      artist_id: artist.id,
      artist_slug: artist.slug,
      unlock_rule: 'none',
      content: { text: 'The secret lyrics', track: { id: trackId } },
    });

    const listener = await loginAs(station, 'listener');
    const list = await call(listener, 'GET', '/v1/capsules');
    expect(list.json().data.find((c: { id: string }) => c.id === capsule.id)).toMatchObject({
      title: 'Demo tape',
      teaser: 'Something from the vault',
      unlocked: false,
    });
    expect(list.json().data[0]).not.toHaveProperty('content');
    for (const ref of [artist.slug, artist.id]) {
      const byArtist = await call(listener, 'GET', `/v1/artists/${ref}/capsules`);
      expect(byArtist.statusCode).toBe(200);
      expect(byArtist.json()).toMatchObject({ total: 1, page: 1, limit: 20 });
    }
    expect((await call(listener, 'GET', '/v1/artists/no-such-artist/capsules')).statusCode).toBe(404);

    const hidden = await call(listener, 'GET', `/v1/capsules/${capsule.id}`);
    expect(hidden.json()).toMatchObject({ title: 'Demo tape', content: null, unlocked: false });
    expect(hidden.body).not.toContain('secret');
    expect((await call(admin, 'GET', `/v1/capsules/${capsule.id}`)).json().content.text).toBe('The secret lyrics');

    // Another artist may neither update this capsule nor create one for this artist.
    const rival = await loginAs(station, 'artist');
    await seedArtist(station, { ownerUserId: rival.userId });
    expect((await call(rival, 'PATCH', `/v1/capsules/${capsule.id}`, { title: 'Mine' })).statusCode).toBe(403);
    expect((await call(rival, 'POST', '/v1/capsules', { artist_id: artist.slug, title: 't', teaser: 't', content_text: 'x' })).statusCode).toBe(403);
    expect((await call(rival, 'GET', `/v1/capsules/${capsule.id}`)).json().content).toBeNull();
    // A listener has no artist scope.
    const noScope = await call(listener, 'POST', '/v1/capsules', { title: 't', teaser: 't', content_text: 'x' });
    expect(noScope.statusCode).toBe(403);
    expect(noScope.json().error.code).toBe('PLATFORM_INSUFFICIENT_SCOPE');

    const updated = await call(artistUser, 'PATCH', `/v1/capsules/${capsule.id}`, { teaser: 'Now with liner notes', content_track_id: null });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ teaser: 'Now with liner notes', content: { text: 'The secret lyrics', track: null } });
    expect((await call(artistUser, 'PATCH', `/v1/capsules/${capsule.id}`, { content_text: null })).statusCode).toBe(400);
    expect((await call(admin, 'PATCH', `/v1/capsules/${capsule.id}`, { title: 'Demo tape (1999)' })).json().title).toBe('Demo tape (1999)');

    expect((await call(artistUser, 'POST', '/v1/capsules', { title: 't', teaser: 't' })).statusCode).toBe(400);
    expect((await call(artistUser, 'POST', '/v1/capsules', { title: 't', teaser: 't', content_track_id: 'nope' })).statusCode).toBe(404);
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000']) {
      expect((await call(listener, 'GET', `/v1/capsules/${id}`)).json().error.code).toBe('PLATFORM_NOT_FOUND');
      expect((await call(listener, 'POST', `/v1/capsules/${id}/unlock`)).statusCode).toBe(404);
      expect((await call(artistUser, 'PATCH', `/v1/capsules/${id}`, { title: 'x' })).statusCode).toBe(404);
    }
  });

  it('unlocks by rule, idempotently, and sends capsule.unlocked once per user, signed', async () => {
    // The capsule's artist's owner and admins hear it; a developer's webhook (anyone may ask for it) does not.
    const registered = await call(admin, 'POST', '/v1/webhooks', { url: receiver.url, events: ['capsule.unlocked'] });
    expect(registered.statusCode, registered.body).toBe(201);
    const secret = registered.json().secret as string;
    const developer = await loginAs(station, 'developer');
    const deaf = await call(developer, 'POST', '/v1/webhooks', { url: `${receiver.url}?deaf`, events: ['capsule.unlocked'] });
    expect(deaf.statusCode, deaf.body).toBe(201);

    const followOnly = (
      await call(artistUser, 'POST', '/v1/capsules', {
        artist_id: artist.id,
        title: 'Fans only',
        teaser: 'Follow to hear',
        content_media_url: 'https://cdn.example.com/x.mp3',
        unlock_rule: 'follow',
      })
    ).json();
    const open = (await call(artistUser, 'POST', '/v1/capsules', { title: 'Open', teaser: 'Free', content_text: 'hello' })).json();

    const ada = await loginAs(station, 'listener');
    const refused = await call(ada, 'POST', `/v1/capsules/${followOnly.id}/unlock`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('PLATFORM_FORBIDDEN');
    expect((await call(ada, 'GET', `/v1/capsules/${followOnly.id}`)).json().content).toBeNull();

    const followed = await call(ada, 'POST', `/v1/artists/${artist.slug}/follow`);
    expect(followed.statusCode, followed.body).toBe(200);
    expect(followed.json()).toMatchObject({ artist_id: artist.id, following: true, followers: 11 });
    const unlocked = await call(ada, 'POST', `/v1/capsules/${followOnly.id}/unlock`);
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    expect(unlocked.json()).toMatchObject({ unlocked: true, content: { media_url: 'https://cdn.example.com/x.mp3', text: null, track: null } });
    expect((await call(ada, 'POST', `/v1/capsules/${followOnly.id}/unlock`)).statusCode).toBe(200);
    // Unfollowing later keeps what was unlocked.
    await call(ada, 'DELETE', `/v1/artists/${artist.id}/follow`);
    expect((await call(ada, 'GET', `/v1/capsules/${followOnly.id}`)).json()).toMatchObject({
      unlocked: true,
      content: { media_url: 'https://cdn.example.com/x.mp3' },
    });

    const [delivery] = await receiver.waitFor(followOnly.id, 1);
    expect(JSON.parse(delivery.body)).toMatchObject({
      event: 'capsule.unlocked',
      data: { capsule_id: followOnly.id, user_id: ada.userId, artist_id: artist.id },
    });
    expect(delivery.headers['x-platform-signature']).toBe(`sha256=${createHmac('sha256', secret).update(delivery.body).digest('hex')}`);

    // A later unlock's event arrives; the repeated unlock above sent none.
    expect((await call(ada, 'POST', `/v1/capsules/${open.id}/unlock`)).statusCode).toBe(200);
    await receiver.waitFor(open.id, 1);
    expect(receiver.received.filter((r) => r.body.includes(followOnly.id))).toHaveLength(1);
    expect(receiver.received.filter((r) => r.path.endsWith('?deaf'))).toEqual([]);

    // Another listener's unlock is theirs alone.
    const bob = await loginAs(station, 'listener');
    expect((await call(bob, 'GET', `/v1/capsules/${open.id}`)).json()).toMatchObject({ unlocked: false, content: null });
  });

  it('follows and unfollows idempotently with follower counts', async () => {
    const target = await seedArtist(station, { followers: 5 });
    const ada = await loginAs(station, 'listener');
    const follow = () => call(ada, 'POST', `/v1/artists/${target.slug}/follow`);
    expect((await follow()).json()).toMatchObject({ following: true, followers: 6 });
    expect((await follow()).json()).toMatchObject({ following: true, followers: 6 });
    const unfollow = () => call(ada, 'DELETE', `/v1/artists/${target.id}/follow`);
    expect((await unfollow()).json()).toMatchObject({ following: false, followers: 5 });
    expect((await unfollow()).json()).toMatchObject({ following: false, followers: 5 });
    expect((await call(ada, 'POST', '/v1/artists/no-such-artist/follow')).statusCode).toBe(404);
    await follow();
    expect((await call(ada, 'GET', `/v1/listeners/${ada.userId}`)).json().counts.following).toBe(1);
    expect((await call(ada, 'GET', `/v1/artists/${target.slug}`)).json().followers).toBe(6);
  });
});
