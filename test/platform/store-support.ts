/** Helpers of the store suites: users of each role, an artist with tracks and credits, a paid sandbox checkout. */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Station } from '../../src/app.js';
import type { Role } from '../../src/auth/scopes.js';
import { artists, songwriters, trackCredits, tracks } from '../../src/infra/db/schema/index.js';
import { randomClientIp } from '../foundation/support.js';

export interface User {
  token: string;
  csrf: string;
  userId: string;
}

export const headers = (user: User) => ({ authorization: `Bearer ${user.token}`, 'x-csrf-token': user.csrf });

export async function userWithRole(station: Station, role: Role): Promise<User> {
  const email = `${role}-${randomBytes(5).toString('hex')}@example.com`;
  const password = `${role}-password-1`;
  await station.auth.createUser({ email, password, role, displayName: `Test ${role}` });
  const response = await station.http.inject({ method: 'POST', url: '/v1/auth/login', remoteAddress: randomClientIp(), payload: { email, password } });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
  const body = response.json();
  return { token: body.token, csrf: body.csrf_token, userId: body.user?.id ?? (await idOf(station, email)) };
}

async function idOf(station: Station, email: string): Promise<string> {
  const { users } = await import('../../src/infra/db/schema/index.js');
  const { eq } = await import('drizzle-orm');
  const [row] = await station.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row.id;
}

export interface SeededArtist {
  id: string;
  slug: string;
  owner: User;
  /** Three published tracks: credits 50/30/20, credits 33.33/33.33/33.34, none. */
  trackIds: string[];
  writers: string[];
}

/** An artist owned by a new artist-role user, with tracks, audio and songwriter credits. */
export async function seedArtist(station: Station, name: string): Promise<SeededArtist> {
  const owner = await userWithRole(station, 'artist');
  const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${randomBytes(3).toString('hex')}`;
  const id = randomUUID();
  const { db } = station.database;
  await db.insert(artists).values({ id, slug, name, genre: 'Synthwave', ownerUserId: owner.userId });
  const trackIds = [randomUUID(), randomUUID(), randomUUID()];
  await db.insert(tracks).values(
    trackIds.map((trackId, i) => ({
      id: trackId,
      slug: `${slug}-track-${i}`,
      title: `${name} Track ${i + 1}`,
      artistId: id,
      genre: 'Synthwave',
      durationSec: 180 + i,
      audioBlobKey: `audio/${trackId}.mp3`,
      audioFormat: 'mp3',
    })),
  );
  for (const trackId of trackIds) await station.blobs.put(`audio/${trackId}.mp3`, Buffer.from(`audio of ${trackId}`));
  const writers = [randomUUID(), randomUUID(), randomUUID()];
  await db.insert(songwriters).values(writers.map((w, i) => ({ id: w, slug: `${slug}-writer-${i}`, name: `${name} Writer ${i + 1}` })));
  await db.insert(trackCredits).values([
    { trackId: trackIds[0], songwriterId: writers[0], role: 'composer', splitPct: 50 },
    { trackId: trackIds[0], songwriterId: writers[1], role: 'lyricist', splitPct: 30 },
    { trackId: trackIds[0], songwriterId: writers[2], role: 'producer', splitPct: 20 },
    { trackId: trackIds[1], songwriterId: writers[0], role: 'composer', splitPct: 33.33 },
    { trackId: trackIds[1], songwriterId: writers[1], role: 'composer', splitPct: 33.33 },
    { trackId: trackIds[1], songwriterId: writers[2], role: 'composer', splitPct: 33.34 },
  ]);
  return { id, slug, owner, trackIds, writers };
}

export async function createProduct(station: Station, artist: SeededArtist, payload: Record<string, unknown> = {}) {
  const response = await station.http.inject({
    method: 'POST',
    url: '/v1/store/products',
    headers: headers(artist.owner),
    payload: { title: 'Night Drive', type: 'album', price: 9.99, track_ids: artist.trackIds, ...payload },
  });
  if (response.statusCode !== 201) throw new Error(`product creation failed: ${response.statusCode} ${response.body}`);
  return response.json() as { id: string; price: number; price_cents: number; tracks: { id: string }[] };
}

/** Buys a product through the sandbox processor as a browser would: checkout, open the pay page, press Pay. */
export async function buyInSandbox(
  station: Station,
  buyer: { token: string; csrf: string; userId: string },
  product: { id: string; price: number },
  credential: Record<string, string> = {},
) {
  const session = await station.http.inject({
    method: 'POST',
    url: '/v1/checkout',
    headers: Object.keys(credential).length > 0 ? credential : headers(buyer),
    payload: { product_id: product.id, price: product.price, user_id: buyer.userId },
  });
  if (session.statusCode !== 200) throw new Error(`checkout failed: ${session.statusCode} ${session.body}`);
  const url = new URL(session.json().checkout_url);
  const page = await station.http.inject({ method: 'GET', url: url.pathname + url.search });
  const form = /<form method="post" action="([^"]+)"><input type="hidden" name="token" value="([^"]+)">/.exec(page.body);
  if (!form) throw new Error(`no pay form on the sandbox page: ${page.statusCode}`);
  const paid = await station.http.inject({
    method: 'POST',
    url: form[1],
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token: form[2] }).toString(),
  });
  if (paid.statusCode !== 200) throw new Error(`payment failed: ${paid.statusCode} ${paid.body}`);
}
