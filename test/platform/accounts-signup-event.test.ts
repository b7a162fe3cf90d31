/**
 * Event user.signup: fired on sign-up through the platform webhook engine, signed with X-Platform-Signature,
 * and heard by admin-owned webhooks only (it carries the new user's e-mail): a developer asking for it gets
 * a 400 naming it, and a webhook whose owner is no longer an admin stops hearing it.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestStation, staffLogin, type TestStation } from '../helpers/station.js';
import { expectEnvelope } from '../foundation/support.js';
import { startReceiver, type Receiver } from '../webhooks/support.js';
import { clientAddress } from '../auth/support.js';
import { bearer, loginAs } from './accounts-support.js';

describe('user.signup', () => {
  let station: TestStation;
  let receiver: Receiver;
  let formerAdminReceiver: Receiver;

  beforeAll(async () => {
    station = await buildTestStation({ STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback' });
    receiver = await startReceiver();
    formerAdminReceiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await formerAdminReceiver?.close();
    await station?.destroy();
  });

  const signUp = async () => {
    const email = `new-${randomBytes(5).toString('hex')}@example.com`;
    const signup = await station.http.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      remoteAddress: clientAddress(),
      payload: { email, password: 'listener-password', display_name: 'Newcomer' },
    });
    expect(signup.statusCode).toBe(201);
    return { email, userId: signup.json().user.id as string };
  };

  it('is refused to a developer’s webhook: 400 naming the event', async () => {
    const developer = await loginAs(station, 'developer');
    const answer = await station.http.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: bearer(developer),
      payload: { url: receiver.url, events: ['track.published', 'user.signup'] },
    });
    expectEnvelope(answer, 400, 'PLATFORM_VALIDATION_FAILED');
    expect(answer.json().error.detail).toContain('user.signup');
    expect(answer.json().error.detail).not.toContain('track.published');
    const listed = await station.http.inject({ url: '/v1/webhooks', headers: bearer(developer) });
    expect(listed.json().total).toBe(0);
  });

  it('reaches an admin’s webhook with user_id, role, email and plan, signed; not one whose owner is no longer an admin', async () => {
    const admin = await staffLogin(station);
    const registered = await station.http.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: bearer(admin),
      payload: { url: receiver.url, events: ['user.signup'] },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const secret = registered.json().secret as string;

    // Another admin registers (with an admin key), and is then made a developer: the webhook stays, deaf to user.signup.
    const formerAdmin = await station.auth.createUser({
      email: `was-admin-${randomBytes(4).toString('hex')}@example.com`,
      password: 'admin-password-1',
      role: 'admin',
      displayName: 'Was Admin',
    });
    const { key } = await station.auth.createApiKey({
      name: 'hooks',
      scopes: ['webhooks:write', 'platform:admin'],
      environment: 'live',
      ownerUserId: formerAdmin.id,
    });
    const csrf = (await station.http.inject({ url: '/api/auth/csrf', headers: { 'x-api-key': key } })).json().csrf_token as string;
    const formerHook = await station.http.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: { 'x-api-key': key, 'x-csrf-token': csrf },
      payload: { url: formerAdminReceiver.url, events: ['user.signup'] },
    });
    expect(formerHook.statusCode, formerHook.body).toBe(201);
    const heard = await signUp();
    await formerAdminReceiver.waitFor(heard.email, 1);
    await station.auth.setUserRole(formerAdmin.id, 'developer');

    const { email, userId } = await signUp();
    const [delivery] = await receiver.waitFor(email, 1);
    const envelope = JSON.parse(delivery.body);
    expect(envelope).toMatchObject({ event: 'user.signup', data: { user_id: userId, role: 'listener', email, plan: 'free' } });
    expect(delivery.headers['x-platform-signature']).toBe(`sha256=${createHmac('sha256', secret).update(delivery.body).digest('hex')}`);
    expect(delivery.headers['x-station-signature']).toBeUndefined();
    // The rows of every webhook that hears an event are written in one insert, before any is sent: none now means none ever.
    const formerDeliveries = await station.http.inject({ url: `/v1/webhooks/${formerHook.json().id}/deliveries?limit=100`, headers: bearer(admin) });
    expect(formerDeliveries.json().data.map((d: { event: string }) => d.event)).toEqual(['user.signup']);
    expect(formerAdminReceiver.matching(email)).toEqual([]);
  });
});
