/**
 * The sandbox catalog (what test keys see: src/platform/developer/README.md): a copy of the demo catalog's artists
 * and tracks in environment 'test', with ids of their own and the same slugs and ISRCs, so an integrator's calls
 * answer on the same paths in the sandbox and in production. A copy shares its original's blobs (master, cover,
 * waveform): no audio is rendered or stored twice. Copies hold the demo's releases, credits and lyrics too, but no
 * features, plays or followers, and their artists are never platform-owned (a CHECK of migration 0026 insists),
 * so nothing of the sandbox can reach the radio, the training dataset or the live counters.
 *
 * Idempotent: rows already copied are left alone (unique (environment, slug)); the media columns follow the
 * original each time one of its masters is rendered (mirrorSandboxMedia), and at every start.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../infra/db/client.js';
import { demoContent, type DemoContent } from './content/index.js';

/** node-postgres and PGlite both answer `{ rows }`. */
function rowCount(result: unknown): number {
  return (result as { rows: unknown[] }).rows.length;
}

function slugList(slugs: readonly string[]) {
  return sql.join(
    slugs.map((slug) => sql`${slug}`),
    sql`, `,
  );
}

/** Copies the demo's live artists and tracks missing from the sandbox; returns how many tracks it copied. */
export async function seedSandboxCatalog(db: DbOrTx, content: DemoContent = demoContent): Promise<number> {
  if (content.artists.length === 0 || content.tracks.length === 0) return 0;
  return db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into artists (environment, slug, name, bio, genre, verified, platform_owned, formed_year)
      select 'test', a.slug, a.name, a.bio, a.genre, a.verified, false, a.formed_year
      from artists a
      where a.environment = 'live' and a.slug in (${slugList(content.artists.map((a) => a.slug))})
      on conflict (environment, slug) do nothing`);
    const inserted = await tx.execute(sql`
      insert into tracks (environment, slug, title, artist_id, genre, subgenre, mood, lifestyle, bpm, musical_key, mode, energy,
                          duration_sec, isrc, explicit, release_year, audio_blob_key, master_blob_key, audio_format, audio_bitrate_kbps,
                          audio_size_bytes, cover_blob_key, waveform_blob_key, loudness_lufs, status)
      select 'test', t.slug, t.title, sa.id, t.genre, t.subgenre, t.mood, t.lifestyle, t.bpm, t.musical_key, t.mode, t.energy,
             t.duration_sec, t.isrc, t.explicit, t.release_year, t.audio_blob_key, t.master_blob_key, t.audio_format, t.audio_bitrate_kbps,
             t.audio_size_bytes, t.cover_blob_key, t.waveform_blob_key, t.loudness_lufs, t.status
      from tracks t
      join artists la on la.id = t.artist_id
      join artists sa on sa.environment = 'test' and sa.slug = la.slug
      where t.environment = 'live' and t.slug in (${slugList(content.tracks.map((t) => t.slug))})
      on conflict (environment, slug) do nothing
      returning id`);
    await copyReleasesCreditsAndLyrics(tx, content);
    return rowCount(inserted);
  });
}

/**
 * The demo's releases (with their track order), credits and lyrics, for the sandbox copies: so an integrator
 * sees in the sandbox what a live call answers (discographies, album pages, credits, has_lyrics). The copied
 * lyrics are of sandbox artists, which are never platform-owned, so they never reach the lyrics dataset; their
 * slugs are prefixed because a lyric's slug is unique across environments. Each step skips what is there.
 */
async function copyReleasesCreditsAndLyrics(tx: DbOrTx, content: DemoContent): Promise<void> {
  const artistSlugs = slugList(content.artists.map((a) => a.slug));
  const trackSlugs = slugList(content.tracks.map((t) => t.slug));
  await tx.execute(sql`
    insert into albums (environment, slug, artist_id, title, type, release_year, genre, cover_blob_key)
    select 'test', al.slug, sa.id, al.title, al.type, al.release_year, al.genre, al.cover_blob_key
    from albums al
    join artists la on la.id = al.artist_id
    join artists sa on sa.environment = 'test' and sa.slug = la.slug
    where al.environment = 'live' and la.slug in (${artistSlugs})
    on conflict (environment, slug) do nothing`);
  await tx.execute(sql`
    update tracks s
    set album_id = sal.id, track_number = l.track_number
    from tracks l
    join albums lal on lal.id = l.album_id
    join albums sal on sal.environment = 'test' and sal.slug = lal.slug
    where s.environment = 'test' and l.environment = 'live' and l.slug = s.slug and s.album_id is null
      and s.slug in (${trackSlugs})`);
  await tx.execute(sql`
    insert into track_credits (track_id, songwriter_id, role, split_pct)
    select s.id, c.songwriter_id, c.role, c.split_pct
    from track_credits c
    join tracks l on l.id = c.track_id
    join tracks s on s.environment = 'test' and s.slug = l.slug
    where l.environment = 'live' and l.slug in (${trackSlugs})
    on conflict do nothing`);
  await tx.execute(sql`
    insert into lyrics (slug, track_id, artist_id, songwriter_id, title, language, mood, theme, sections)
    select 'sandbox-' || ly.slug, s.id, s.artist_id, ly.songwriter_id, ly.title, ly.language, ly.mood, ly.theme, ly.sections
    from lyrics ly
    join tracks l on l.id = ly.track_id
    join tracks s on s.environment = 'test' and s.slug = l.slug
    where l.environment = 'live' and l.slug in (${trackSlugs})
    on conflict (slug) do nothing`);
}

/**
 * Brings the sandbox copies' media (and what the render decided: length, tempo, key, mode) up to their live
 * originals': all demo tracks, or the one slug given. Returns how many copies changed.
 */
export async function mirrorSandboxMedia(db: DbOrTx, slug?: string, content: DemoContent = demoContent): Promise<number> {
  const slugs = slug === undefined ? content.tracks.map((t) => t.slug) : [slug];
  if (slugs.length === 0) return 0;
  const changed = await db.execute(sql`
    update tracks s
    set duration_sec = l.duration_sec, bpm = l.bpm, musical_key = l.musical_key, mode = l.mode,
        audio_blob_key = l.audio_blob_key, master_blob_key = l.master_blob_key, audio_format = l.audio_format, audio_bitrate_kbps = l.audio_bitrate_kbps,
        audio_size_bytes = l.audio_size_bytes, cover_blob_key = l.cover_blob_key, waveform_blob_key = l.waveform_blob_key,
        loudness_lufs = l.loudness_lufs
    from tracks l
    where s.environment = 'test' and l.environment = 'live' and l.slug = s.slug and s.slug in (${slugList(slugs)})
      and (s.audio_blob_key is distinct from l.audio_blob_key or s.duration_sec is distinct from l.duration_sec
           or s.cover_blob_key is distinct from l.cover_blob_key or s.loudness_lufs is distinct from l.loudness_lufs)
    returning s.id`);
  return rowCount(changed);
}
