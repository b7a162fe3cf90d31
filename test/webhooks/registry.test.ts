/**
 * The webhook registry over HTTP: validation, the secret shown once, scopes, ownership (someone else's
 * webhook is a 404), CSRF on POST and DELETE, pagination, and secrets encrypted at rest.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhooks } from '../../src/infra/db/schema/index.js';
import { buildTestStation, staffLogin, type TestStation } from '../helpers/station.js';
import { expectEnvelope, signUp } from '../foundation/support.js';
import { developer, headersOf, registerWebhook, type Caller } from './support.js';

let station: TestStation;
let dev: Caller;
let otherDev: Caller;
let admin: Caller;

beforeAll(async () => {
  // 127.0.0.1 URLs below are registered, never delivered to; loopback is outside the default policy.
  station = await buildTestStation({ STATION_WEBHOOK_ALLOWED_HOSTS: 'external,loopback' });
  dev = await developer(station);
  otherDev = await developer(station);
  admin = await staffLogin(station);
});

afterAll(async () => {
  await station?.destroy();
});

const post = (caller: Caller | null, payload: unknown, headers: Record<string, string> = caller ? headersOf(caller) : {}) =>
  station.http.inject({ method: 'POST', url: '/v1/webhooks', headers, payload: payload as Record<string, unknown> });

describe('POST /v1/webhooks', () => {
  it('registers an endpoint and answers the secret once', async () => {
    const response = await post(dev, { url: 'https://example.com/hooks/station', events: ['station.radio.enabled', 'track.published'] });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['events', 'id', 'secret', 'url']);
    expect(body.url).toBe('https://example.com/hooks/station');
    expect(body.events).toEqual(['station.radio.enabled', 'track.published']);
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{40,}$/);

    const list = await station.http.inject({ method: 'GET', url: '/v1/webhooks', headers: headersOf(dev) });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(body.secret);
    const item = list.json().data.find((w: { id: string }) => w.id === body.id);
    expect(item).toMatchObject({ id: body.id, url: body.url, events: body.events, active: true, owner_user_id: dev.userId });
    expect(item).not.toHaveProperty('secret');
  });

  it('keeps the secret encrypted at rest', async () => {
    const { id, secret } = await registerWebhook(station, dev, 'http://127.0.0.1:9/at-rest', ['track.published']);
    const [row] = await station.database.db.select().from(webhooks).where(eq(webhooks.id, id));
    expect(row.secretCiphertext).toMatch(/^v1\./);
    expect(row.secretCiphertext).not.toContain(secret);
    expect(row.secretCiphertext).not.toContain(secret.slice(6, 20));
  });

  it.each([
    ['a non-http URL', { url: 'ftp://example.com/hook', events: ['user.signup'] }],
    ['a javascript: URL', { url: 'javascript:alert(1)', events: ['user.signup'] }],
    ['a relative URL', { url: '/hook', events: ['user.signup'] }],
    ['a URL with credentials', { url: 'https://user:pass@example.com/hook', events: ['user.signup'] }],
    ['an unknown event', { url: 'https://example.com/hook', events: ['station.radio.exploded'] }],
    ['a near-miss event name', { url: 'https://example.com/hook', events: ['radio.enabled'] }],
    ['no events', { url: 'https://example.com/hook', events: [] }],
    ['events not an array', { url: 'https://example.com/hook', events: { name: 'user.signup' } }],
    ['an unknown event among known ones', { url: 'https://example.com/hook', events: ['user.signup', 'user.deleted'] }],
    ['a missing url', { events: ['user.signup'] }],
    ['an unknown field', { url: 'https://example.com/hook', events: ['user.signup'], secret: 'mine' }],
  ])('refuses %s with 400', async (_, payload) => {
    expectEnvelope(await post(dev, payload), 400, 'PLATFORM_VALIDATION_FAILED');
  });

  it('accepts every station and platform event name from an admin (who may hear them all)', async () => {
    const events = [
      'station.radio.enabled',
      'station.radio.disabled',
      'station.track.now_playing',
      'station.track.generation_complete',
      'station.track.generation_failed',
      'station.training.job_completed',
      'station.training.job_failed',
      'station.safety.flag_raised',
      'track.published',
      'track.removed',
      'user.signup',
      'user.subscribed',
      'payment.success',
      'artist.verified',
      'capsule.unlocked',
    ];
    const response = await post(admin, { url: 'http://127.0.0.1:9/all', events });
    expect(response.statusCode).toBe(201);
    expect(response.json().events).toEqual(events);
    // A developer may not hear the admin-only ones (test/webhooks/audience.test.ts has the whole policy).
    expectEnvelope(await post(dev, { url: 'http://127.0.0.1:9/all', events }), 400, 'PLATFORM_VALIDATION_FAILED');
  });

  it('needs webhooks:write: a listener gets 403, no credential 401', async () => {
    const listener = await signUp(station);
    expectEnvelope(await post(listener, { url: 'https://example.com/hook', events: ['user.signup'] }), 403, 'PLATFORM_INSUFFICIENT_SCOPE');
    const list = await station.http.inject({ method: 'GET', url: '/v1/webhooks', headers: headersOf(listener) });
    expectEnvelope(list, 403, 'PLATFORM_INSUFFICIENT_SCOPE');
    expectEnvelope(await post(null, { url: 'https://example.com/hook', events: ['user.signup'] }), 401, 'PLATFORM_AUTH_REQUIRED');
  });

  it('needs the CSRF token', async () => {
    const payload = { url: 'https://example.com/hook', events: ['user.signup'] };
    expectEnvelope(await post(dev, payload, { authorization: `Bearer ${dev.token}` }), 403, 'PLATFORM_CSRF_INVALID');
    expectEnvelope(await post(dev, payload, { authorization: `Bearer ${dev.token}`, 'x-csrf-token': otherDev.csrf }), 403, 'PLATFORM_CSRF_INVALID');
  });
});

describe('ownership', () => {
  it('lists only the caller’s own webhooks, and all of them for an admin', async () => {
    const mine = await registerWebhook(station, dev, 'https://example.com/mine', ['track.removed']);
    const theirs = await registerWebhook(station, otherDev, 'https://example.com/theirs', ['track.removed']);
    const ids = async (caller: Caller) => {
      const response = await station.http.inject({ method: 'GET', url: '/v1/webhooks?limit=100', headers: headersOf(caller) });
      expect(response.statusCode).toBe(200);
      return (response.json().data as { id: string }[]).map((w) => w.id);
    };
    expect(await ids(dev)).toContain(mine.id);
    expect(await ids(dev)).not.toContain(theirs.id);
    expect(await ids(otherDev)).toEqual([theirs.id]);
    expect(await ids(admin)).toEqual(expect.arrayContaining([mine.id, theirs.id]));
  });

  it('answers 404 for someone else’s webhook on delete and deliveries', async () => {
    const theirs = await registerWebhook(station, otherDev, 'https://example.com/private', ['payment.success']);
    const del = await station.http.inject({ method: 'DELETE', url: `/v1/webhooks/${theirs.id}`, headers: headersOf(dev) });
    expectEnvelope(del, 404, 'PLATFORM_NOT_FOUND');
    const deliveries = await station.http.inject({ method: 'GET', url: `/v1/webhooks/${theirs.id}/deliveries`, headers: headersOf(dev) });
    expectEnvelope(deliveries, 404, 'PLATFORM_NOT_FOUND');
    const own = await station.http.inject({ method: 'GET', url: `/v1/webhooks/${theirs.id}/deliveries`, headers: headersOf(otherDev) });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual({ data: [], total: 0, page: 1, limit: 20 });
  });

  it("keeps a test key's webhooks in the sandbox: registered, listed and read there only, never for station events", async () => {
    const { key } = await station.auth.createApiKey({
      name: 'sandbox hooks',
      scopes: ['webhooks:read', 'webhooks:write'],
      environment: 'test',
      ownerUserId: dev.userId,
    });
    const csrf = (await station.http.inject({ method: 'GET', url: '/api/auth/csrf', headers: { 'x-api-key': key } })).json().csrf_token;
    const testKey = { 'x-api-key': key, 'x-csrf-token': csrf };
    expectEnvelope(
      await post(null, { url: 'https://example.com/sandbox', events: ['station.track.now_playing', 'track.published'] }, testKey),
      400,
      'PLATFORM_VALIDATION_FAILED',
    );
    const created = await post(null, { url: 'https://example.com/sandbox', events: ['track.published', 'payment.success'] }, testKey);
    expect(created.statusCode, created.body).toBe(201);
    const sandboxHook = created.json();
    const live = await registerWebhook(station, dev, 'https://example.com/live', ['track.published']);
    const list = async (headers: Record<string, string>) =>
      (await station.http.inject({ method: 'GET', url: '/v1/webhooks?limit=100', headers })).json().data as { id: string; environment: string }[];
    const fromTestKey = await list(testKey);
    expect(fromTestKey).toEqual([expect.objectContaining({ id: sandboxHook.id, environment: 'test' })]);
    const fromLogin = await list(headersOf(dev));
    expect(fromLogin.map((w) => w.id)).toContain(live.id);
    expect(fromLogin.map((w) => w.id)).not.toContain(sandboxHook.id);
    expect(fromLogin.find((w) => w.id === live.id)?.environment).toBe('live');
    expect((await list(headersOf(admin))).map((w) => w.id)).not.toContain(sandboxHook.id);
    // The owner's own webhook of the other environment is a 404 from here, both ways.
    expectEnvelope(await station.http.inject({ method: 'GET', url: `/v1/webhooks/${live.id}/deliveries`, headers: testKey }), 404, 'PLATFORM_NOT_FOUND');
    expectEnvelope(await station.http.inject({ method: 'DELETE', url: `/v1/webhooks/${sandboxHook.id}`, headers: headersOf(dev) }), 404, 'PLATFORM_NOT_FOUND');
    expect((await station.http.inject({ method: 'DELETE', url: `/v1/webhooks/${sandboxHook.id}`, headers: testKey })).statusCode).toBe(204);
  });

  it('lets the owner delete (with CSRF), then answers 404', async () => {
    const hook = await registerWebhook(station, dev, 'https://example.com/short-lived', ['artist.verified']);
    const noCsrf = await station.http.inject({ method: 'DELETE', url: `/v1/webhooks/${hook.id}`, headers: { authorization: `Bearer ${dev.token}` } });
    expectEnvelope(noCsrf, 403, 'PLATFORM_CSRF_INVALID');
    const del = await station.http.inject({ method: 'DELETE', url: `/v1/webhooks/${hook.id}`, headers: headersOf(dev) });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    const again = await station.http.inject({ method: 'DELETE', url: `/v1/webhooks/${hook.id}`, headers: headersOf(dev) });
    expectEnvelope(again, 404, 'PLATFORM_NOT_FOUND');
  });

  it('lets an admin delete anyone’s webhook', async () => {
    const hook = await registerWebhook(station, otherDev, 'https://example.com/moderated', ['capsule.unlocked']);
    const del = await station.http.inject({ method: 'DELETE', url: `/v1/webhooks/${hook.id}`, headers: headersOf(admin) });
    expect(del.statusCode).toBe(204);
  });

  it('validates ids and pagination', async () => {
    const badId = await station.http.inject({ method: 'DELETE', url: '/v1/webhooks/not-a-uuid', headers: headersOf(dev) });
    expectEnvelope(badId, 404, 'PLATFORM_NOT_FOUND'); // ids are opaque: any shape that names nothing is a 404
    const badLimit = await station.http.inject({ method: 'GET', url: '/v1/webhooks?limit=101', headers: headersOf(dev) });
    expectEnvelope(badLimit, 400, 'PLATFORM_VALIDATION_FAILED');
    const page = await station.http.inject({ method: 'GET', url: '/v1/webhooks?page=1&limit=1', headers: headersOf(dev) });
    expect(page.statusCode).toBe(200);
    const body = page.json();
    expect(body.data).toHaveLength(1);
    expect(body.total).toBeGreaterThan(1);
    expect(body).toMatchObject({ page: 1, limit: 1 });
  });
});
