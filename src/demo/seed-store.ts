/**
 * The demo store (issue #17): a store product for each demo release (albums, EPs, singles) at a price by its
 * kind, selling the release's tracks in order, so GET /v1/store/products is not empty on a fresh `npm start`.
 * Purchases go through the sandbox processor of the demo store (STATION_STORE_SANDBOX_LIVE, on under
 * STATION_DEMO): never live money. Idempotent and quick: only releases without a product get one, and the
 * release rows are locked while it looks, so two instances starting at once make one product each.
 */
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import { albums, artists, storeProducts, storeProductTracks, tracks } from '../infra/db/schema/index.js';
import { demoContent, type DemoContent } from './content/index.js';

/** The demo's prices, in cents, by kind of release. */
export const DEMO_PRICE_CENTS = { album: 999, ep: 499, single: 129 } as const;

/** Puts every demo release without a product on sale; answers how many products it made. */
export async function seedDemoStore(db: Db, content: DemoContent = demoContent): Promise<number> {
  const slugs = (content.releases ?? []).map((release) => release.slug);
  if (slugs.length === 0) return 0;
  return db.transaction(async (tx) => {
    const releases = await tx
      .select({ id: albums.id, title: albums.title, type: albums.type, artistId: albums.artistId })
      .from(albums)
      .innerJoin(artists, eq(artists.id, albums.artistId))
      .where(and(eq(artists.environment, 'live'), inArray(albums.slug, slugs)))
      .orderBy(asc(albums.slug))
      .for('update', { of: albums });
    if (releases.length === 0) return 0;
    const unsold = await tx
      .select({ id: albums.id })
      .from(albums)
      .leftJoin(storeProducts, eq(storeProducts.albumId, albums.id))
      .where(
        and(
          inArray(
            albums.id,
            releases.map((r) => r.id),
          ),
          isNull(storeProducts.id),
        ),
      );
    const todo = new Set(unsold.map((row) => row.id));
    let made = 0;
    for (const release of releases.filter((r) => todo.has(r.id))) {
      const trackRows = await tx
        .select({ id: tracks.id })
        .from(tracks)
        .where(and(eq(tracks.albumId, release.id), eq(tracks.status, 'published')))
        .orderBy(asc(tracks.trackNumber));
      if (trackRows.length === 0) continue;
      const [product] = await tx
        .insert(storeProducts)
        .values({
          artistId: release.artistId,
          albumId: release.id,
          type: release.type,
          title: release.title,
          priceCents: DEMO_PRICE_CENTS[release.type],
          currency: 'usd',
        })
        .returning({ id: storeProducts.id });
      await tx.insert(storeProductTracks).values(trackRows.map((track, position) => ({ productId: product.id, trackId: track.id, position })));
      made += 1;
    }
    return made;
  });
}
