/** Event user.signup: fired on sign-up through the platform webhook engine, signed with X-Platform-Signature. */
import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestStation, type TestStation } from '../helpers/station.js';
import { startReceiver, type Receiver } from '../webhooks/support.js';
import { clientAddress } from '../auth/support.js';
import { bearer, loginAs } from './accounts-support.js';

describe('user.signup', () => {
  let station: TestStation;
  let receiver: Receiver;

  beforeAll(async () => {
    station = await buildTestStation({ STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await station?.destroy();
  });

  it('reaches a registered webhook with user_id, role, email and plan, signed', async () => {
    const developer = await loginAs(station, 'developer');
    const registered = await station.http.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: bearer(developer),
      payload: { url: receiver.url, events: ['user.signup'] },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const secret = registered.json().secret as string;

    const email = `new-${randomBytes(5).toString('hex')}@example.com`;
    const signup = await station.http.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      remoteAddress: clientAddress(),
      payload: { email, password: 'listener-password', display_name: 'Newcomer' },
    });
    expect(signup.statusCode).toBe(201);
    const userId = signup.json().user.id as string;

    const [delivery] = await receiver.waitFor(email, 1);
    const envelope = JSON.parse(delivery.body);
    expect(envelope).toMatchObject({ event: 'user.signup', data: { user_id: userId, role: 'listener', email, plan: 'free' } });
    expect(delivery.headers['x-platform-signature']).toBe(`sha256=${createHmac('sha256', secret).update(delivery.body).digest('hex')}`);
    expect(delivery.headers['x-station-signature']).toBeUndefined();
  });
});
