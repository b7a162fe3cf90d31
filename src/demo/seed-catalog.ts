/**
 * Step 1 of the demo seed: the demo catalog's rows (artists, songwriters, tracks, credits, lyrics, releases), in one
 * transaction.
 */
import { and, count, eq, inArray } from 'drizzle-orm';
import type { Db, DbOrTx } from '../infra/db/client.js';
import { albums, artists, lyrics, songwriters, trackCredits, tracks } from '../infra/db/schema/index.js';
import { demoContent, validateDemoContent, type DemoContent } from './content/index.js';

/** True when the catalog was empty and the demo rows were inserted. */
/**
 * `plannedSec`: the length the demo's masters will be rendered at (STATION_DEMO_TRACK_SEC), which a track shows
 * until its master exists.
 */
export async function seedDemoCatalog(db: Db, options: { content?: DemoContent; plannedSec?: number } = {}): Promise<boolean> {
  const content = options.content ?? demoContent;
  validateDemoContent(content);
  return db.transaction(async (tx) => {
    const [{ existing }] = await tx.select({ existing: count() }).from(artists);
    if (existing > 0) return false;

    const artistRows = await tx
      .insert(artists)
      .values(
        content.artists.map((a) => ({
          slug: a.slug,
          name: a.name,
          bio: a.bio,
          genre: a.genre,
          verified: a.verified,
          platformOwned: a.platformOwned,
          formedYear: a.formedYear,
        })),
      )
      .returning({ id: artists.id, slug: artists.slug });
    const artistId = new Map(artistRows.map((r) => [r.slug, r.id]));

    const writerRows = await tx
      .insert(songwriters)
      .values(content.songwriters.map((s) => ({ slug: s.slug, name: s.name, ipi: s.ipi, platformOwned: true, artistId: artistId.get(s.artistSlug) ?? null })))
      .returning({ id: songwriters.id, slug: songwriters.slug });
    const writerId = new Map(writerRows.map((r) => [r.slug, r.id]));

    const trackRows = await tx
      .insert(tracks)
      .values(
        content.tracks.map((t) => ({
          slug: t.slug,
          title: t.title,
          artistId: artistId.get(t.artistSlug)!,
          genre: t.genre,
          subgenre: t.subgenre,
          mood: t.mood,
          lifestyle: t.lifestyle,
          bpm: t.bpm,
          musicalKey: t.key,
          mode: t.mode,
          energy: t.energy,
          // Until its master is rendered, a track shows the length it is planned at; the render sets the real one.
          durationSec: options.plannedSec ?? 150,
          isrc: t.isrc,
          explicit: t.explicit,
          releaseYear: t.releaseYear,
        })),
      )
      .returning({ id: tracks.id, slug: tracks.slug });
    const trackId = new Map(trackRows.map((r) => [r.slug, r.id]));

    await tx
      .insert(trackCredits)
      .values(
        content.tracks.flatMap((t) =>
          t.credits.map((c) => ({ trackId: trackId.get(t.slug)!, songwriterId: writerId.get(c.songwriterSlug)!, role: c.role, splitPct: c.splitPct })),
        ),
      );

    const trackOfLyric = new Map(content.tracks.filter((t) => t.lyricsId).map((t) => [t.lyricsId!, trackId.get(t.slug)!]));
    await tx.insert(lyrics).values(
      content.lyrics.map((doc) => ({
        slug: doc.id,
        trackId: trackOfLyric.get(doc.id) ?? null,
        artistId: artistId.get(doc.artistId)!,
        songwriterId: writerId.get(doc.songwriterId)!,
        title: doc.title,
        language: doc.language,
        mood: doc.mood,
        theme: doc.theme,
        sections: doc.sections,
      })),
    );
    await insertDemoReleases(tx, content);
    return true;
  });
}

/**
 * The demo's releases (albums, EPs, singles) and their tracks' places on them, once: a catalog seeded before
 * releases existed gets them at the next start. Nothing happens while any release exists, or when a demo track
 * is missing (a catalog that is not the demo's).
 */
export async function seedDemoReleases(db: Db, content: DemoContent = demoContent): Promise<boolean> {
  return db.transaction((tx) => insertDemoReleases(tx, content));
}

async function insertDemoReleases(tx: DbOrTx, content: DemoContent): Promise<boolean> {
  const releases = content.releases ?? [];
  if (releases.length === 0) return false;
  const [{ existing }] = await tx.select({ existing: count() }).from(albums).where(eq(albums.environment, 'live'));
  if (existing > 0) return false;
  const slugs = releases.flatMap((r) => r.trackSlugs);
  const trackRows = await tx
    .select({ id: tracks.id, slug: tracks.slug, artistId: tracks.artistId, genre: tracks.genre })
    .from(tracks)
    .where(and(eq(tracks.environment, 'live'), inArray(tracks.slug, slugs)));
  if (trackRows.length !== slugs.length) return false;
  const track = new Map(trackRows.map((row) => [row.slug, row]));
  for (const release of releases) {
    const first = track.get(release.trackSlugs[0])!;
    const [album] = await tx
      .insert(albums)
      .values({ slug: release.slug, title: release.title, artistId: first.artistId, type: release.type, releaseYear: release.releaseYear, genre: first.genre })
      .returning({ id: albums.id });
    for (const [index, slug] of release.trackSlugs.entries()) {
      const row = track.get(slug)!;
      await tx
        .update(tracks)
        .set({ albumId: album.id, trackNumber: index + 1 })
        .where(and(eq(tracks.id, row.id), eq(tracks.artistId, first.artistId)));
    }
  }
  return true;
}
