/** Helpers of the listeners and capsules suites: a small catalog written straight to the database. */
import { randomBytes } from 'node:crypto';
import type { Station } from '../../src/app.js';
import { artists, tracks } from '../../src/infra/db/schema/index.js';

export async function seedArtist(station: Station, options: { ownerUserId?: string | null; followers?: number } = {}) {
  const slug = `artist-${randomBytes(4).toString('hex')}`;
  const [artist] = await station.database.db
    .insert(artists)
    .values({ slug, name: `Artist ${slug}`, genre: 'electronic', ownerUserId: options.ownerUserId ?? null, followers: options.followers ?? 0 })
    .returning();
  return artist;
}

export async function seedTracks(station: Station, artistId: string, count: number) {
  const rows = Array.from({ length: count }, (_, i) => {
    const slug = `track-${randomBytes(4).toString('hex')}-${i}`;
    return { slug, title: `Track ${i}`, artistId, genre: 'electronic', durationSec: 120 + i };
  });
  return station.database.db.insert(tracks).values(rows).returning();
}
