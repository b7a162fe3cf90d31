/**
 * The capsule unlock rule `own`: only a buyer of the named store product, or with none named of any product
 * holding one of the artist's tracks, may unlock; purchases are real sandbox checkouts of a demo store
 * (STATION_STORE_SANDBOX_LIVE), and a sandbox (test key) purchase does not count for a live capsule. Without the
 * demo store: capsules-unlock-purchase.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { stationForSuite } from '../helpers/station.js';
import { expectEnvelope } from '../foundation/support.js';
import { buyInSandbox, createProduct, headers, seedArtist, userWithRole, type SeededArtist, type User } from './store-support.js';

let artist: SeededArtist;
let other: SeededArtist;
const products: Record<string, { id: string; price: number }> = {};

const station = stationForSuite({ STATION_STORE_SANDBOX_LIVE: 'true' });
beforeAll(async () => {
  artist = await seedArtist(station, 'Neon Tidewater');
  other = await seedArtist(station, 'Quiet Radiator');
  products.album = await createProduct(station, artist, { title: 'Harbour Nights', price: 9, track_ids: artist.trackIds.slice(0, 2) });
  products.single = await createProduct(station, artist, { title: 'Single', type: 'single', price: 1, track_ids: [artist.trackIds[2]] });
  products.others = await createProduct(station, other, { title: 'Elsewhere', price: 2 });
});

const call = (who: User, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>) =>
  station.http.inject({ method, url, headers: headers(who), ...(payload ? { payload } : {}) });

async function capsule(body: Record<string, unknown>) {
  const created = await call(artist.owner, 'POST', '/v1/capsules', {
    title: 'Liner notes',
    teaser: 'For owners',
    content_text: 'the secret',
    unlock_rule: 'own',
    ...body,
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as { id: string; unlock_rule: string; unlock_product_id: string | null };
}

describe('the unlock rule own', () => {
  it("without a named product: buyers of any product with one of the artist's tracks, not of another artist's", async () => {
    const anyPurchase = await capsule({});
    expect(anyPurchase).toMatchObject({ unlock_rule: 'own', unlock_product_id: null });

    const stranger = await userWithRole(station, 'listener');
    expectEnvelope(await call(stranger, 'POST', `/v1/capsules/${anyPurchase.id}/unlock`), 403, 'PLATFORM_FORBIDDEN');
    await buyInSandbox(station, stranger, products.others);
    expectEnvelope(await call(stranger, 'POST', `/v1/capsules/${anyPurchase.id}/unlock`), 403, 'PLATFORM_FORBIDDEN');

    const fan = await userWithRole(station, 'listener');
    await buyInSandbox(station, fan, products.single);
    const unlocked = await call(fan, 'POST', `/v1/capsules/${anyPurchase.id}/unlock`);
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    expect(unlocked.json()).toMatchObject({ unlocked: true, content: { text: 'the secret' } });
    expect((await call(stranger, 'GET', `/v1/capsules/${anyPurchase.id}`)).json().content).toBeNull();
  });

  it('with a named product: its buyers only', async () => {
    const named = await capsule({ unlock_product_id: products.album.id });
    expect(named.unlock_product_id).toBe(products.album.id);
    const singleBuyer = await userWithRole(station, 'listener');
    await buyInSandbox(station, singleBuyer, products.single);
    const refused = await call(singleBuyer, 'POST', `/v1/capsules/${named.id}/unlock`);
    expect(expectEnvelope(refused, 403, 'PLATFORM_FORBIDDEN').detail).toContain(products.album.id);

    const albumBuyer = await userWithRole(station, 'listener');
    await buyInSandbox(station, albumBuyer, products.album);
    expect((await call(albumBuyer, 'POST', `/v1/capsules/${named.id}/unlock`)).json()).toMatchObject({ unlocked: true });
  });

  it('a test key cannot buy the live product (the sandbox has its own store), so nothing unlocks a live capsule', async () => {
    const live = await capsule({});
    const buyer = await userWithRole(station, 'listener');
    const { key } = await station.auth.createApiKey({
      name: 'sandbox',
      scopes: ['tracks:read', 'store:orders'],
      environment: 'test',
      ownerUserId: buyer.userId,
    });
    const csrf = (await station.http.inject({ method: 'GET', url: '/api/auth/csrf', headers: { 'x-api-key': key } })).json().csrf_token;
    const checkout = await station.http.inject({
      method: 'POST',
      url: '/v1/checkout',
      headers: { 'x-api-key': key, 'x-csrf-token': csrf },
      payload: { product_id: products.single.id, price: products.single.price, user_id: buyer.userId },
    });
    expectEnvelope(checkout, 404, 'PLATFORM_NOT_FOUND');
    expectEnvelope(await call(buyer, 'POST', `/v1/capsules/${live.id}/unlock`), 403, 'PLATFORM_FORBIDDEN');
  });

  it("checks the named product: another artist's is 400, an unknown one 404, and another rule clears it", async () => {
    expectEnvelope(
      await call(artist.owner, 'POST', '/v1/capsules', {
        title: 't',
        teaser: 't',
        content_text: 'x',
        unlock_rule: 'own',
        unlock_product_id: products.others.id,
      }),
      400,
      'PLATFORM_VALIDATION_FAILED',
    );
    expectEnvelope(
      await call(artist.owner, 'POST', '/v1/capsules', { title: 't', teaser: 't', content_text: 'x', unlock_rule: 'own', unlock_product_id: 'nope' }),
      404,
      'PLATFORM_NOT_FOUND',
    );
    expectEnvelope(
      await call(artist.owner, 'POST', '/v1/capsules', {
        title: 't',
        teaser: 't',
        content_text: 'x',
        unlock_rule: 'follow',
        unlock_product_id: products.album.id,
      }),
      400,
      'PLATFORM_VALIDATION_FAILED',
    );

    const named = await capsule({ unlock_product_id: products.album.id });
    const followed = await call(artist.owner, 'PATCH', `/v1/capsules/${named.id}`, { unlock_rule: 'follow' });
    expect(followed.json()).toMatchObject({ unlock_rule: 'follow', unlock_product_id: null });
    const again = await call(artist.owner, 'PATCH', `/v1/capsules/${named.id}`, { unlock_rule: 'own', unlock_product_id: products.single.id });
    expect(again.json()).toMatchObject({ unlock_rule: 'own', unlock_product_id: products.single.id });
    // A later PATCH of something else keeps it.
    expect((await call(artist.owner, 'PATCH', `/v1/capsules/${named.id}`, { title: 'Renamed' })).json().unlock_product_id).toBe(products.single.id);
  });
});
