/**
 * Security issue #16, item 5 for capsules unlocked by a purchase (rule `own`): without a payment processor the
 * purchase cannot be made for free (503), and a sandbox payment for a live product (a demo store's, left from
 * when the operator ran one) unlocks nothing; a live order paid for real does. With the demo store on, its
 * sandbox purchases unlock (capsules-own.test.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { stationForSuite } from '../helpers/station.js';
import { expectEnvelope } from '../foundation/support.js';
import { insertOrder } from './analytics-support.js';
import { createProduct, headers, seedArtist, userWithRole, type SeededArtist, type User } from './store-support.js';

let artist: SeededArtist;

const station = stationForSuite();
beforeAll(async () => {
  artist = await seedArtist(station, 'Locked Lighthouse');
});

const call = (who: User, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
  station.http.inject({ method, url, headers: headers(who), ...(payload ? { payload } : {}) });

async function capsule(body: Record<string, unknown>): Promise<string> {
  const created = await call(artist.owner, 'POST', '/v1/capsules', {
    title: 'Liner notes',
    teaser: 'For owners',
    content_text: 'the secret',
    unlock_rule: 'own',
    ...body,
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id;
}

describe('a capsule unlocked by a purchase, without a demo store', () => {
  it('cannot be bought open through the sandbox: checkout answers 503 and the capsule stays locked', async () => {
    const product = await createProduct(station, artist, { price: 2 });
    const id = await capsule({ unlock_product_id: product.id });
    const fan = await userWithRole(station, 'listener');
    const checkout = await call(fan, 'POST', '/v1/checkout', { product_id: product.id, price: 2, user_id: fan.userId });
    expectEnvelope(checkout, 503, 'PLATFORM_PAYMENTS_UNAVAILABLE');
    expectEnvelope(await call(fan, 'POST', `/v1/capsules/${id}/unlock`), 403, 'PLATFORM_FORBIDDEN');
  });

  it('opens for a live order paid for real, not for a sandbox payment of the live product', async () => {
    const sandboxBuyer = await userWithRole(station, 'listener');
    const { productId } = await insertOrder(station, {
      artistId: artist.id,
      userId: sandboxBuyer.userId,
      amountCents: 200,
      at: new Date().toISOString(),
      livemode: false,
      environment: 'live',
    });
    const id = await capsule({ unlock_product_id: productId });
    expectEnvelope(await call(sandboxBuyer, 'POST', `/v1/capsules/${id}/unlock`), 403, 'PLATFORM_FORBIDDEN');

    const payingBuyer = await userWithRole(station, 'listener');
    const paid = await insertOrder(station, { artistId: artist.id, userId: payingBuyer.userId, amountCents: 200, at: new Date().toISOString() });
    const paidCapsule = await capsule({ unlock_product_id: paid.productId });
    const unlocked = await call(payingBuyer, 'POST', `/v1/capsules/${paidCapsule}/unlock`);
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    expect(unlocked.json()).toMatchObject({ unlocked: true, content: { text: 'the secret' } });
  });
});
