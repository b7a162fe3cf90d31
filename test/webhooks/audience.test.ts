/**
 * Who hears what (src/platform/webhooks/event-audience.ts), at registration and again at dispatch:
 * admin-only events are a 400 naming them for anyone else; payment.success and capsule.unlocked may be asked
 * for by anyone but reach only the owner of what they are about (named by the publisher beside the event,
 * never in the body) and admins; station events need a station scope.
 */
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { webhookDeliveries, webhooks } from '../../src/infra/db/schema/index.js';
import { PLATFORM_EVENTS_CHANNEL, PlatformEvents } from '../../src/platform/webhooks/platform-events.js';
import { StationEvents } from '../../src/station/events/station-events.js';
import { buildTestStation, staffLogin, type TestStation } from '../helpers/station.js';
import { expectEnvelope } from '../foundation/support.js';
import { seedArtist } from '../platform/listeners-support.js';
import { developer, headersOf, nonce, registerWebhook, startReceiver, type Caller, type Receiver } from './support.js';

let station: TestStation;
let owner: Caller;
let stranger: Caller;
let admin: Caller;
const receivers: Receiver[] = [];

beforeAll(async () => {
  station = await buildTestStation({ STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback' });
  owner = await developer(station);
  stranger = await developer(station);
  admin = await staffLogin(station);
});

afterAll(async () => {
  await station?.destroy();
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

const post = (headers: Record<string, string>, events: string[]) =>
  station.http.inject({ method: 'POST', url: '/v1/webhooks', headers, payload: { url: 'http://127.0.0.1:9/audience', events } });

/** The webhooks that got a delivery row of the event carrying `marker` (all rows of one event are inserted at once). */
async function hooksThatHeard(marker: string): Promise<string[]> {
  const rows = await station.database.db
    .select({ webhookId: webhookDeliveries.webhookId })
    .from(webhookDeliveries)
    .where(like(webhookDeliveries.payload, `%${marker}%`));
  return [...new Set(rows.map((row) => row.webhookId))].sort();
}

describe('registration', () => {
  it('refuses user.signup and user.subscribed to a non-admin with a 400 naming each; resource-owner and public events are open', async () => {
    const refused = await post(headersOf(owner), ['user.subscribed', 'payment.success', 'user.signup']);
    expectEnvelope(refused, 400, 'PLATFORM_VALIDATION_FAILED');
    const { detail } = refused.json().error as { detail: string };
    expect(detail).toContain('user.subscribed');
    expect(detail).toContain('user.signup');
    expect(detail).not.toContain('payment.success');

    const open = ['track.published', 'track.removed', 'artist.verified', 'payment.success', 'capsule.unlocked', 'station.radio.enabled'];
    expect((await post(headersOf(owner), open)).statusCode).toBe(201);
    expect((await post(headersOf(admin), ['user.signup', 'user.subscribed'])).statusCode).toBe(201);
  });

  it('needs a station scope for station events', async () => {
    const keyHeaders = async (scopes: string[]) => {
      const { key } = await station.auth.createApiKey({ name: 'hooks', scopes: scopes as never, environment: 'live', ownerUserId: owner.userId });
      const csrf = (await station.http.inject({ url: '/api/auth/csrf', headers: { 'x-api-key': key } })).json().csrf_token as string;
      return { 'x-api-key': key, 'x-csrf-token': csrf };
    };
    const webhooksOnly = await keyHeaders(['webhooks:write']);
    const refused = await post(webhooksOnly, ['track.published', 'station.track.now_playing']);
    expectEnvelope(refused, 400, 'PLATFORM_VALIDATION_FAILED');
    expect(refused.json().error.detail).toContain('station.track.now_playing');
    expect(refused.json().error.detail).not.toContain('track.published (');
    expect((await post(webhooksOnly, ['track.published'])).statusCode).toBe(201);
    expect((await post(await keyHeaders(['webhooks:write', 'station:read']), ['station.track.now_playing'])).statusCode).toBe(201);
  });

  it("needs, for each station event, the scope that reads what it tells: station:read alone hears the radio's public events only", async () => {
    // A developer's password login holds station:read (station:train needs TOTP), as every listener's does.
    const refused = await post(headersOf(owner), [
      'station.track.now_playing',
      'station.track.generation_complete',
      'station.track.generation_failed',
      'station.training.job_completed',
      'station.training.job_failed',
      'station.safety.flag_raised',
    ]);
    expectEnvelope(refused, 400, 'PLATFORM_VALIDATION_FAILED');
    const { detail } = refused.json().error as { detail: string };
    for (const event of ['generation_complete (', 'generation_failed (', 'job_completed (', 'job_failed (', 'flag_raised (']) expect(detail).toContain(event);
    expect(detail).not.toContain('now_playing (');
    for (const events of [['station.radio.enabled'], ['station.radio.disabled'], ['station.track.now_playing']]) {
      expect((await post(headersOf(owner), events)).statusCode).toBe(201);
    }
    const all = ['station.track.generation_complete', 'station.training.job_failed', 'station.safety.flag_raised'];
    expect((await post(headersOf(admin), all)).statusCode).toBe(201);
  });
});

describe('dispatch', () => {
  // Each test counts which webhooks heard its event: none registered before it may blur the count.
  beforeEach(async () => {
    const listed = await station.http.inject({ url: '/v1/webhooks?limit=100', headers: headersOf(admin) });
    for (const { id } of listed.json().data as { id: string }[]) {
      expect((await station.http.inject({ method: 'DELETE', url: `/v1/webhooks/${id}`, headers: headersOf(admin) })).statusCode).toBe(204);
    }
  });

  it("sends payment.success to the owner the publisher names and to admins, never to another developer; the owner's id stays out of the body", async () => {
    const [ownerReceiver, strangerReceiver, adminReceiver] = [await receiver(), await receiver(), await receiver()];
    const ownerHook = await registerWebhook(station, owner, ownerReceiver.url, ['payment.success']);
    await registerWebhook(station, stranger, strangerReceiver.url, ['payment.success']);
    const adminHook = await registerWebhook(station, admin, adminReceiver.url, ['payment.success']);
    const events = new PlatformEvents(station.bus, station.clock);

    const marker = nonce();
    await events.emit('payment.success', { order_id: marker, user_id: 'buyer-1', product_id: 'p-1', amount: 2 }, 'live', { ownerUserId: owner.userId });
    const [delivered] = await ownerReceiver.waitFor(marker, 1);
    await adminReceiver.waitFor(marker, 1);
    expect(await hooksThatHeard(marker)).toEqual([ownerHook.id, adminHook.id].sort());
    expect(strangerReceiver.matching(marker)).toEqual([]);
    expect(Object.keys(JSON.parse(delivered.body))).toEqual(['event', 'data', 'timestamp']);
    expect(delivered.body).not.toContain(owner.userId);
    expect(delivered.body).not.toContain('audience');

    // An event whose publisher names no owner (or a malformed one) reaches admins only.
    for (const audience of [undefined, { ownerUserId: 42 }]) {
      const unowned = nonce();
      await station.bus.publish(PLATFORM_EVENTS_CHANNEL, {
        event: 'payment.success',
        data: { order_id: unowned },
        timestamp: new Date().toISOString(),
        ...(audience ? { audience } : {}),
      });
      await adminReceiver.waitFor(unowned, 1);
      expect(await hooksThatHeard(unowned)).toEqual([adminHook.id]);
    }
  });

  it("sends capsule.unlocked of a real unlock to the capsule's artist's owner and admins only", async () => {
    const [ownerReceiver, strangerReceiver, adminReceiver] = [await receiver(), await receiver(), await receiver()];
    const ownerHook = await registerWebhook(station, owner, ownerReceiver.url, ['capsule.unlocked']);
    await registerWebhook(station, stranger, strangerReceiver.url, ['capsule.unlocked']);
    const adminHook = await registerWebhook(station, admin, adminReceiver.url, ['capsule.unlocked']);
    const artist = await seedArtist(station, { ownerUserId: owner.userId });
    const created = await station.http.inject({
      method: 'POST',
      url: '/v1/capsules',
      headers: headersOf(admin),
      payload: { artist_id: artist.id, title: 'Vault', teaser: 'Open me', content_text: 'inside' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const capsule = created.json() as { id: string };

    const unlocked = await station.http.inject({ method: 'POST', url: `/v1/capsules/${capsule.id}/unlock`, headers: headersOf(stranger) });
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    const [delivered] = await ownerReceiver.waitFor(capsule.id, 1);
    await adminReceiver.waitFor(capsule.id, 1);
    expect(JSON.parse(delivered.body)).toMatchObject({
      event: 'capsule.unlocked',
      data: { capsule_id: capsule.id, user_id: stranger.userId, artist_id: artist.id },
    });
    expect(await hooksThatHeard(capsule.id)).toEqual([ownerHook.id, adminHook.id].sort());
    expect(strangerReceiver.matching(capsule.id)).toEqual([]);
  });
  it('stops hearing anything once its owner is banned, and hears again once restored', async () => {
    const banned = await developer(station);
    const [bannedReceiver, adminReceiver] = [await receiver(), await receiver()];
    const bannedHook = await registerWebhook(station, banned, bannedReceiver.url, ['track.published', 'payment.success']);
    const adminHook = await registerWebhook(station, admin, adminReceiver.url, ['track.published', 'payment.success']);
    const setStatus = (status: string) =>
      station.http.inject({ method: 'PATCH', url: `/v1/admin/users/${banned.userId}/status`, headers: headersOf(admin), payload: { status } });
    const events = new PlatformEvents(station.bus, station.clock);
    expect((await setStatus('banned')).statusCode).toBe(200);

    const published = nonce();
    await events.emit('track.published', { track_id: published, artist_id: 'a-1', title: 'T', genre: 'pop' }, 'live');
    const paid = nonce();
    await events.emit('payment.success', { order_id: paid, user_id: 'buyer-1', product_id: 'p-1', amount: 2 }, 'live', { ownerUserId: banned.userId });
    await adminReceiver.waitFor(published, 1);
    await adminReceiver.waitFor(paid, 1);
    expect(await hooksThatHeard(published)).toEqual([adminHook.id]);
    expect(await hooksThatHeard(paid)).toEqual([adminHook.id]);

    expect((await setStatus('active')).statusCode).toBe(200);
    const again = nonce();
    await events.emit('track.published', { track_id: again, artist_id: 'a-1', title: 'T', genre: 'pop' }, 'live');
    await bannedReceiver.waitFor(again, 1);
    expect(await hooksThatHeard(again)).toEqual([bannedHook.id, adminHook.id].sort());
  });
  it('stops sending a station event to an owner whose role no longer holds its scope', async () => {
    const staff = await developer(station);
    const promote = (role: string) =>
      station.http.inject({ method: 'PATCH', url: `/v1/admin/users/${staff.userId}/role`, headers: headersOf(admin), payload: { role } });
    // Registered while the owner was an admin (rows written as the registry does, past the login's TOTP step).
    const r = await receiver();
    const hook = await registerWebhook(station, admin, r.url, ['station.safety.flag_raised', 'station.track.now_playing']);
    await station.database.db.update(webhooks).set({ ownerUserId: staff.userId }).where(eq(webhooks.id, hook.id));
    expect((await promote('admin')).statusCode).toBe(200);
    const emitter = new StationEvents(station.bus, station.clock);
    const flagged = nonce();
    await emitter.emit('station.safety.flag_raised', { station_track_id: flagged, flag_type: 'explicit', safety_score: 0.9 });
    await r.waitFor(flagged, 1);

    expect((await promote('listener')).statusCode).toBe(200);
    const hidden = nonce();
    await emitter.emit('station.safety.flag_raised', { station_track_id: hidden, flag_type: 'explicit', safety_score: 0.9 });
    const playing = nonce();
    await emitter.emit('station.track.now_playing', { station_track_id: playing });
    await r.waitFor(playing, 1);
    expect(await hooksThatHeard(hidden)).toEqual([]);
  });
});
