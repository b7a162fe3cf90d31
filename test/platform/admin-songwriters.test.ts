/**
 * Songwriter splits held at 100% by the database (a deferred check at commit), GET /v1/admin/songwriters with
 * ISRCs, splits and publishing rights, and POST/DELETE /v1/admin/artists/{id}/verify with `artist.verified`.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { artists, songwriters, trackCredits, tracks } from '../../src/infra/db/schema/index.js';
import { PLATFORM_EVENTS_CHANNEL, type PlatformEvent } from '../../src/platform/webhooks/platform-events.js';
import { authHeaders, stationForSuite, staffLogin, type Credentials } from '../helpers/station.js';
import { pollUntil } from '../helpers/poll.js';
import { expectEnvelope } from '../foundation/support.js';
import { bearer, loginAs, type Login } from './accounts-support.js';

let admin: Credentials;
let listener: Login;
const events: PlatformEvent[] = [];

const ARTIST = { id: randomUUID(), slug: 'marisol-velvet-hours', name: 'Marisol & the Velvet Hours' };
const OTHER = { id: randomUUID(), slug: 'slow-orbit-society', name: 'Slow Orbit Society' };
const W = { ines: randomUUID(), marco: randomUUID(), pat: randomUUID() };
const T = { velvet: randomUUID(), canela: randomUUID(), drift: randomUUID() };

/** The SQLSTATE and constraint of a failed statement, wherever the driver or Drizzle put them. */
async function failure(promise: Promise<unknown>): Promise<{ code?: string; constraint?: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
    return { code: e.code ?? e.cause?.code, constraint: e.constraint ?? e.cause?.constraint };
  }
  throw new Error('the statement was accepted');
}

const station = stationForSuite();
beforeAll(async () => {
  admin = await staffLogin(station);
  listener = await loginAs(station, 'listener');
  await station.bus.subscribe(PLATFORM_EVENTS_CHANNEL, (message) => events.push(message as PlatformEvent));
  const { db } = station.database;
  await db.insert(artists).values([
    { ...ARTIST, genre: 'jazz', platformOwned: true },
    { ...OTHER, genre: 'ambient' },
  ]);
  await db.insert(songwriters).values([
    { id: W.ines, slug: 'ines-marisol', name: 'Inés Marisol', ipi: '99999000001', platformOwned: true, artistId: ARTIST.id },
    { id: W.marco, slug: 'marco-vela', name: 'Marco Vela', ipi: '99999000002', publisher: 'Vela Songs', pro: 'SGAE', artistId: ARTIST.id },
    { id: W.pat, slug: 'pat-orbit', name: 'Pat Orbit', artistId: OTHER.id },
  ]);
  await db.insert(tracks).values([
    { id: T.velvet, slug: 'velvet-hour', title: 'Velvet Hour', artistId: ARTIST.id, genre: 'jazz', durationSec: 200, isrc: 'QZS7D1900001' },
    { id: T.canela, slug: 'canela', title: 'Canela', artistId: ARTIST.id, genre: 'jazz', durationSec: 200, isrc: 'QZS7D2600006' },
    { id: T.drift, slug: 'drift', title: 'Drift', artistId: OTHER.id, genre: 'ambient', durationSec: 200 },
  ]);
  await db.insert(trackCredits).values([
    { trackId: T.velvet, songwriterId: W.ines, role: 'composer', splitPct: 40 },
    { trackId: T.velvet, songwriterId: W.ines, role: 'lyricist', splitPct: 20 },
    { trackId: T.velvet, songwriterId: W.marco, role: 'composer', splitPct: 40 },
    { trackId: T.canela, songwriterId: W.marco, role: 'composer_lyricist', splitPct: 100 },
  ]);
});

describe('songwriter splits', () => {
  it('are refused at commit unless a track’s credits sum to 100%', async () => {
    const { db } = station.database;
    const short = await failure(db.insert(trackCredits).values([{ trackId: T.drift, songwriterId: W.pat, role: 'composer', splitPct: 90 }]));
    expect(short).toEqual({ code: '23514', constraint: 'track_credits_splits_total' });
    expect((await failure(db.update(trackCredits).set({ splitPct: 50 }).where(eq(trackCredits.trackId, T.canela)))).code).toBe('23514');
    expect((await failure(db.delete(trackCredits).where(and(eq(trackCredits.trackId, T.velvet), eq(trackCredits.songwriterId, W.marco))))).code).toBe('23514');
    const over = await failure(db.insert(trackCredits).values({ trackId: T.canela, songwriterId: W.ines, role: 'producer', splitPct: 1 }));
    expect(over.code).toBe('23514');
    // Nothing of the refused statements stayed.
    const canela = await db.select({ split: trackCredits.splitPct }).from(trackCredits).where(eq(trackCredits.trackId, T.canela));
    expect(canela).toEqual([{ split: 100 }]);
  });

  it('may pass through other totals inside a transaction that ends at 100%, and a track may have no credits', async () => {
    const { db } = station.database;
    await db.transaction(async (tx) => {
      await tx.update(trackCredits).set({ splitPct: 70 }).where(eq(trackCredits.trackId, T.canela));
      await tx.insert(trackCredits).values({ trackId: T.canela, songwriterId: W.ines, role: 'lyricist', splitPct: 30 });
    });
    await db.insert(trackCredits).values([
      { trackId: T.drift, songwriterId: W.pat, role: 'composer', splitPct: 33.33 },
      { trackId: T.drift, songwriterId: W.ines, role: 'producer', splitPct: 66.67 },
    ]);
    await db.delete(trackCredits).where(eq(trackCredits.trackId, T.drift));
    expect(await db.select().from(trackCredits).where(eq(trackCredits.trackId, T.drift))).toEqual([]);
  });
});

describe('GET /v1/admin/songwriters', () => {
  const list = async (query = '') => {
    const response = await station.http.inject({ method: 'GET', url: `/v1/admin/songwriters${query}`, headers: authHeaders(admin) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  it('lists songwriters with the ISRC, roles and split of each track, the track’s total, and publishing rights', async () => {
    const body = await list();
    expect(body).toMatchObject({ total: 3, page: 1, limit: 20 });
    const [ines, marco, pat] = body.data;
    expect(ines).toEqual({
      id: W.ines,
      slug: 'ines-marisol',
      name: 'Inés Marisol',
      ipi: '99999000001',
      platform_owned: true,
      artist: { id: ARTIST.id, slug: ARTIST.slug, name: ARTIST.name },
      publishing: { rights_holder: 'platform', publisher: null, pro: null },
      track_count: 2,
      tracks_with_invalid_splits: 0,
      tracks: [
        {
          track_id: T.canela,
          title: 'Canela',
          isrc: 'QZS7D2600006',
          status: 'published',
          roles: ['lyricist'],
          split_pct: 30,
          track_splits_total_pct: 100,
          splits_valid: true,
        },
        {
          track_id: T.velvet,
          title: 'Velvet Hour',
          isrc: 'QZS7D1900001',
          status: 'published',
          roles: ['composer', 'lyricist'],
          split_pct: 60,
          track_splits_total_pct: 100,
          splits_valid: true,
        },
      ],
    });
    expect(marco).toMatchObject({ publishing: { rights_holder: 'publisher', publisher: 'Vela Songs', pro: 'SGAE' }, track_count: 2 });
    expect(pat).toMatchObject({ publishing: { rights_holder: 'songwriter', publisher: null, pro: null }, track_count: 0, tracks: [] });
  });

  it('filters by name or IPI, by artist, and reports tracks whose splits are off (rows older than the rule)', async () => {
    expect((await list('?search=vela')).data.map((s: { id: string }) => s.id)).toEqual([W.marco]);
    expect((await list('?search=99999000001')).data.map((s: { id: string }) => s.id)).toEqual([W.ines]);
    expect((await list(`?artist=${OTHER.slug}`)).data.map((s: { id: string }) => s.id)).toEqual([W.pat]);
    expect((await list('?invalid_splits=true')).total).toBe(0);

    // A row written before the rule existed, simulated by writing around it.
    const { db } = station.database;
    await db.transaction(async (tx) => {
      await tx.execute(sql`alter table track_credits disable trigger track_credits_splits_total`);
      await tx
        .update(trackCredits)
        .set({ splitPct: 35 })
        .where(and(eq(trackCredits.trackId, T.velvet), eq(trackCredits.songwriterId, W.marco)));
      await tx.execute(sql`alter table track_credits enable trigger track_credits_splits_total`);
    });
    const off = await list('?invalid_splits=true');
    expect(off.data.map((s: { id: string }) => s.id)).toEqual([W.ines, W.marco]);
    expect(off.data[1]).toMatchObject({ tracks_with_invalid_splits: 1 });
    expect(off.data[1].tracks.find((t: { track_id: string }) => t.track_id === T.velvet)).toMatchObject({
      split_pct: 35,
      track_splits_total_pct: 95,
      splits_valid: false,
    });
    expect((await list('?invalid_splits=false')).data.map((s: { id: string }) => s.id)).toEqual([W.pat]);
    // Setting it right is an ordinary write.
    await db
      .update(trackCredits)
      .set({ splitPct: 40 })
      .where(and(eq(trackCredits.trackId, T.velvet), eq(trackCredits.songwriterId, W.marco)));
    expect((await list('?invalid_splits=true')).total).toBe(0);
  });

  it('is for admins only', async () => {
    const answer = await station.http.inject({ method: 'GET', url: '/v1/admin/songwriters', headers: bearer(listener) });
    expectEnvelope(answer, 403, 'PLATFORM_INSUFFICIENT_SCOPE');
    expectEnvelope(await station.http.inject({ method: 'GET', url: '/v1/admin/songwriters' }), 401, 'PLATFORM_AUTH_REQUIRED');
  });
});

describe('POST/DELETE /v1/admin/artists/{id}/verify', () => {
  const verify = (method: 'POST' | 'DELETE', ref: string, who: { token: string; csrf: string } = admin) =>
    station.http.inject({ method, url: `/v1/admin/artists/${ref}/verify`, headers: bearer(who) });
  const verifiedEvents = (artistId: string) => events.filter((e) => e.event === 'artist.verified' && e.data.artist_id === artistId);

  it('verifies by id or slug, records who and when, and sends artist.verified once', async () => {
    const first = await verify('POST', ARTIST.id);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ id: ARTIST.id, verified: true, verified_by: admin.userId });
    expect(new Date(first.json().verified_at).toISOString()).toBe(first.json().verified_at);
    expect((await verify('POST', ARTIST.slug)).json()).toEqual(first.json());
    const profile = await station.http.inject({ method: 'GET', url: `/v1/artists/${ARTIST.slug}`, headers: bearer(listener) });
    expect(profile.json()).toMatchObject({ verified: true, verified_at: first.json().verified_at });

    // Another verification after the repeat: once its event is in, the repeat would have been seen before it.
    await verify('POST', OTHER.slug);
    await pollUntil(
      'artist.verified for the second artist',
      () => verifiedEvents(OTHER.id).length,
      (n) => n === 1,
    );
    expect(verifiedEvents(ARTIST.id).map((e) => e.data)).toEqual([{ artist_id: ARTIST.id, verified_by: admin.userId }]);
  });

  it('withdraws a verification (no event), idempotently; verifying again sends the event again', async () => {
    const withdrawn = await verify('DELETE', OTHER.id);
    expect(withdrawn.json()).toMatchObject({ verified: false, verified_at: null, verified_by: null });
    expect((await verify('DELETE', OTHER.id)).json()).toEqual(withdrawn.json());
    await verify('POST', OTHER.id);
    await pollUntil(
      'artist.verified again',
      () => verifiedEvents(OTHER.id).length,
      (n) => n === 2,
    );
    expect(events.filter((e) => e.event === 'artist.verified')).toHaveLength(3);
  });

  it('is for admins only, with a CSRF token; an unknown artist is 404', async () => {
    expectEnvelope(await verify('POST', ARTIST.id, listener), 403, 'PLATFORM_INSUFFICIENT_SCOPE');
    const noCsrf = await station.http.inject({
      method: 'POST',
      url: `/v1/admin/artists/${ARTIST.id}/verify`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expectEnvelope(noCsrf, 403, 'PLATFORM_CSRF_INVALID');
    for (const ref of ['nobody', randomUUID()]) expectEnvelope(await verify('POST', ref), 404, 'PLATFORM_NOT_FOUND');
  });
});
