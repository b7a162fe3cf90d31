/**
 * Issue #17's demo store: on a demo station every demo release (album, EP, single) is on sale at its kind's
 * price, selling the release's tracks in order, and seeding again makes nothing new.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { demoContent } from '../../src/demo/content/index.js';
import { seedDemoCatalog } from '../../src/demo/seed-catalog.js';
import { DEMO_PRICE_CENTS, seedDemoStore } from '../../src/demo/seed-store.js';
import { stationForSuite, signupListener, authHeaders } from '../helpers/station.js';

const station = stationForSuite();
beforeAll(async () => {
  expect(await seedDemoCatalog(station.database.db, { plannedSec: 30 })).toBe(true);
});

describe('the demo store', () => {
  it('puts every demo release on sale once, at its kind’s price, with its tracks in order', async () => {
    const releases = demoContent.releases ?? [];
    expect(releases.length).toBeGreaterThan(0);
    const [first, again] = [await seedDemoStore(station.database.db), await seedDemoStore(station.database.db)];
    expect(first).toBe(releases.length);
    expect(again).toBe(0);

    const listener = await signupListener(station);
    const answer = await station.http.inject({ method: 'GET', url: '/v1/store/products?limit=100', headers: authHeaders(listener) });
    expect(answer.statusCode, answer.body).toBe(200);
    const products = answer.json().data as {
      title: string;
      type: 'album' | 'ep' | 'single';
      price_cents: number;
      artist_slug: string;
      tracks: { title: string }[];
    }[];
    expect(products).toHaveLength(releases.length);
    const titleOf = new Map(demoContent.tracks.map((t) => [t.slug, t.title]));
    for (const release of releases) {
      const product = products.find((p) => p.title === release.title && p.artist_slug === release.artistSlug);
      expect(product, release.slug).toBeDefined();
      expect(product).toMatchObject({ type: release.type, price_cents: DEMO_PRICE_CENTS[release.type] });
      expect(product!.tracks.map((t) => t.title)).toEqual(release.trackSlugs.map((slug) => titleOf.get(slug)));
    }
  });
});
