/**
 * Security issue #16, item 11: the buyer's store routes (checkout, orders, downloads) need a login session or the
 * explicit scope store:orders, and answer within the caller's environment: an app granted only tracks:read, or a
 * key without the scope, gets 403; a test key never sees live orders, nor a live credential sandbox ones.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { stationForSuite } from '../helpers/station.js';
import { expectEnvelope } from '../foundation/support.js';
import { loginAs, type Login } from './accounts-support.js';
import { appBearer, codeFor, redeem, registerApp } from './oauth-support.js';
import { insertOrder } from './analytics-support.js';
import { buyInSandbox, createProduct, headers, seedArtist, type SeededArtist } from './store-support.js';

let artist: SeededArtist;
let buyer: Login;
let product: { id: string; price: number };
let liveOrderId: string;
let sandboxOrderId: string;

const station = stationForSuite({ STATION_STORE_SANDBOX_LIVE: 'true' });
beforeAll(async () => {
  artist = await seedArtist(station, 'Scoped Pier');
  buyer = await loginAs(station, 'developer');
  product = await createProduct(station, artist, { price: 3 });
  await buyInSandbox(station, buyer, product);
  // A live order paid for real, and one of the sandbox's data space.
  liveOrderId = (await insertOrder(station, { artistId: artist.id, userId: buyer.userId, amountCents: 300, at: new Date().toISOString() })).orderId;
  sandboxOrderId = (await insertOrder(station, { artistId: artist.id, userId: buyer.userId, amountCents: 300, at: new Date().toISOString(), livemode: false }))
    .orderId;
  // A station, two password logins (argon2) and a purchase: slow on a loaded two-core machine.
}, 300_000);

async function keyHeaders(scopes: string[], environment: 'live' | 'test') {
  const { key } = await station.auth.createApiKey({ name: 'k', scopes: scopes as never, environment, ownerUserId: buyer.userId });
  const csrf = (await station.http.inject({ method: 'GET', url: '/api/auth/csrf', headers: { 'x-api-key': key } })).json().csrf_token;
  return { 'x-api-key': key, 'x-csrf-token': csrf };
}

const ordersWith = (credential: Record<string, string>) => station.http.inject({ method: 'GET', url: '/v1/store/orders', headers: credential });
const idsOf = (answer: { json: () => { data: { id: string }[] } }) =>
  answer
    .json()
    .data.map((o) => o.id)
    .sort();

describe('the buyer’s store routes', () => {
  it('refuse an app token granted only tracks:read', async () => {
    const app = await registerApp(station, buyer, { scopes: ['tracks:read', 'store:orders'] });
    const { code, verifier } = await codeFor(station, buyer, app, { scope: 'tracks:read' });
    const tokens = (await redeem(station, app, code, verifier)).json();
    expect(tokens.scope).toBe('tracks:read');
    const credential = appBearer(tokens);
    expectEnvelope(await ordersWith(credential), 403, 'PLATFORM_INSUFFICIENT_SCOPE');
    expectEnvelope(
      await station.http.inject({ method: 'GET', url: `/v1/store/downloads/${artist.trackIds[0]}`, headers: credential }),
      403,
      'PLATFORM_INSUFFICIENT_SCOPE',
    );
    const checkout = await station.http.inject({
      method: 'POST',
      url: '/v1/checkout',
      headers: credential,
      payload: { product_id: product.id, price: 3, user_id: buyer.userId },
    });
    expectEnvelope(checkout, 403, 'PLATFORM_INSUFFICIENT_SCOPE');

    // Granted store:orders, the same app lists the user's live orders.
    const granted = await codeFor(station, buyer, app, { scope: 'tracks:read store:orders' });
    const full = appBearer((await redeem(station, app, granted.code, granted.verifier)).json());
    const listed = await ordersWith(full);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(idsOf(listed)).toContain(liveOrderId);
  });

  it('refuse an API key without store:orders', async () => {
    const credential = await keyHeaders(['tracks:read'], 'live');
    expectEnvelope(await ordersWith(credential), 403, 'PLATFORM_INSUFFICIENT_SCOPE');
    expectEnvelope(
      await station.http.inject({ method: 'GET', url: `/v1/store/downloads/${artist.trackIds[0]}`, headers: credential }),
      403,
      'PLATFORM_INSUFFICIENT_SCOPE',
    );
  });

  it('answer within the caller’s environment: a test key never lists live orders, a live credential never sandbox ones', async () => {
    const session = await ordersWith(headers(buyer));
    expect(session.statusCode).toBe(200);
    const live = idsOf(session);
    expect(live).toContain(liveOrderId);
    expect(live).not.toContain(sandboxOrderId);
    expect(idsOf(await ordersWith(await keyHeaders(['store:orders'], 'live')))).toEqual(live);

    const sandbox = await ordersWith(await keyHeaders(['store:orders'], 'test'));
    expect(sandbox.statusCode).toBe(200);
    expect(idsOf(sandbox)).toEqual([sandboxOrderId]);
    // Nor does a test key download what was bought live.
    const testKey = await keyHeaders(['store:orders'], 'test');
    expectEnvelope(await station.http.inject({ method: 'GET', url: `/v1/store/downloads/${artist.trackIds[0]}`, headers: testKey }), 404, 'PLATFORM_NOT_FOUND');
  });
});
