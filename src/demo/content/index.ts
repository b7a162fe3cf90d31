/**
 * The demo catalog's content: house artists, their songwriters, the catalog masters and the original
 * lyrics corpus. Plain typed data, no I/O; seeders and the training pipeline import it from here.
 */

import type { LyricsDocument } from '../../engine/types.js';
import { demoArtists } from './artists.js';
import { demoLyricsCorpus } from './lyrics/index.js';
import { demoSongwriters } from './songwriters.js';
import { demoReleases } from './releases.js';
import { demoTracks } from './tracks.js';
import type { DemoArtist, DemoRelease, DemoSongwriter, DemoTrack } from './types.js';

export type { CreditRole, DemoArtist, DemoCredit, DemoRelease, DemoSongwriter, DemoTrack } from './types.js';
export { demoArtists, demoLyricsCorpus, demoReleases, demoSongwriters, demoTracks };

export interface DemoContent {
  artists: DemoArtist[];
  songwriters: DemoSongwriter[];
  tracks: DemoTrack[];
  lyrics: LyricsDocument[];
  /** How the tracks are released (a content without it seeds no releases). */
  releases?: DemoRelease[];
}

export const demoContent: DemoContent = {
  artists: demoArtists,
  songwriters: demoSongwriters,
  tracks: demoTracks,
  lyrics: demoLyricsCorpus,
  releases: demoReleases,
};

/** Country QZ, a 3-character registrant, 2-digit year, 5-digit designation: `QZS7A2600001`. */
const ISRC_PATTERN = /^[A-Z]{2}[A-Z0-9]{3}\d{2}\d{5}$/;
const IPI_PATTERN = /^99999\d{4,6}$/;
const PITCH_CLASSES = new Set(['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B']);

function duplicatesOf(values: string[]): string[] {
  const seen = new Set<string>();
  const dupes = new Set<string>();
  for (const value of values) (seen.has(value) ? dupes : seen).add(value);
  return [...dupes];
}

/**
 * Checks the cross-references and invariants of the demo content and throws one error listing every
 * problem found: unknown artist/songwriter/lyrics references, splits not summing to 100, malformed or
 * duplicated ISRCs, lyrics whose songwriter is not credited on their track, songs without sections.
 */
export function validateDemoContent(content: DemoContent = demoContent): void {
  const problems: string[] = [];
  const artistSlugs = new Set(content.artists.map((a) => a.slug));
  const songwriterSlugs = new Set(content.songwriters.map((s) => s.slug));
  const lyricsById = new Map(content.lyrics.map((l) => [l.id, l]));

  for (const [kind, slugs] of [
    ['artist slug', content.artists.map((a) => a.slug)],
    ['songwriter slug', content.songwriters.map((s) => s.slug)],
    ['songwriter IPI', content.songwriters.map((s) => s.ipi)],
    ['track slug', content.tracks.map((t) => t.slug)],
    ['lyrics id', content.lyrics.map((l) => l.id)],
    ['ISRC', content.tracks.map((t) => t.isrc)],
  ] as const) {
    for (const dupe of duplicatesOf([...slugs])) problems.push(`duplicate ${kind}: ${dupe}`);
  }

  for (const writer of content.songwriters) {
    if (!artistSlugs.has(writer.artistSlug)) problems.push(`songwriter ${writer.slug}: unknown artist ${writer.artistSlug}`);
    if (!IPI_PATTERN.test(writer.ipi)) problems.push(`songwriter ${writer.slug}: IPI ${writer.ipi} is not in the 99999 test range`);
  }

  for (const track of content.tracks) {
    const where = `track ${track.slug}`;
    if (!artistSlugs.has(track.artistSlug)) problems.push(`${where}: unknown artist ${track.artistSlug}`);
    if (!ISRC_PATTERN.test(track.isrc)) problems.push(`${where}: malformed ISRC ${track.isrc}`);
    else if (track.isrc.slice(5, 7) !== String(track.releaseYear % 100).padStart(2, '0')) {
      problems.push(`${where}: ISRC year ${track.isrc.slice(5, 7)} does not match release year ${track.releaseYear}`);
    }
    if (!PITCH_CLASSES.has(track.key)) problems.push(`${where}: unknown key ${track.key}`);
    if (track.energy < 0 || track.energy > 1) problems.push(`${where}: energy ${track.energy} outside 0..1`);
    if (track.bpm < 40 || track.bpm > 220) problems.push(`${where}: implausible bpm ${track.bpm}`);
    if (track.credits.length === 0) problems.push(`${where}: no credits`);

    const splitTotal = track.credits.reduce((sum, c) => sum + c.splitPct, 0);
    if (splitTotal !== 100) problems.push(`${where}: splits sum to ${splitTotal}, not 100`);
    for (const credit of track.credits) {
      if (!songwriterSlugs.has(credit.songwriterSlug)) problems.push(`${where}: unknown songwriter ${credit.songwriterSlug}`);
      if (credit.splitPct <= 0) problems.push(`${where}: non-positive split for ${credit.songwriterSlug}`);
    }

    if (track.lyricsId === null) {
      if (track.credits.some((c) => c.role !== 'composer')) problems.push(`${where}: instrumental track credits a lyricist`);
      continue;
    }
    const lyrics = lyricsById.get(track.lyricsId);
    if (!lyrics) {
      problems.push(`${where}: unknown lyrics ${track.lyricsId}`);
      continue;
    }
    if (lyrics.artistId !== track.artistSlug) problems.push(`${where}: lyrics ${lyrics.id} belong to ${lyrics.artistId}`);
    const writesWords = track.credits.some((c) => c.songwriterSlug === lyrics.songwriterId && c.role !== 'composer');
    if (!writesWords) problems.push(`${where}: lyricist ${lyrics.songwriterId} of ${lyrics.id} is not credited for the words`);
  }

  for (const lyrics of content.lyrics) {
    const where = `lyrics ${lyrics.id}`;
    if (!artistSlugs.has(lyrics.artistId)) problems.push(`${where}: unknown artist ${lyrics.artistId}`);
    if (!songwriterSlugs.has(lyrics.songwriterId)) problems.push(`${where}: unknown songwriter ${lyrics.songwriterId}`);
    if (lyrics.sections.length === 0) problems.push(`${where}: no sections`);
    for (const section of lyrics.sections) {
      if (section.lines.length === 0 || section.lines.some((line) => line.trim() === '')) {
        problems.push(`${where}: section ${section.name} has empty lines`);
      }
    }
  }

  problems.push(...releaseProblems(content));

  if (problems.length > 0) {
    throw new Error(`Demo content is inconsistent:\n- ${problems.join('\n- ')}`);
  }
}

/** Releases: known artist, the artist's own tracks, each track on one release at most, singles of one track, dated no earlier than their tracks. */
function releaseProblems(content: DemoContent): string[] {
  const problems: string[] = [];
  const artistSlugs = new Set(content.artists.map((a) => a.slug));
  const tracksBySlug = new Map(content.tracks.map((t) => [t.slug, t]));
  const released = new Set<string>();
  const releases = content.releases ?? [];
  for (const dupe of duplicatesOf(releases.map((r) => r.slug))) problems.push(`duplicate release slug: ${dupe}`);
  for (const release of releases) {
    const where = `release ${release.slug}`;
    if (!artistSlugs.has(release.artistSlug)) problems.push(`${where}: unknown artist ${release.artistSlug}`);
    if (release.trackSlugs.length === 0) problems.push(`${where}: no tracks`);
    if (release.type === 'single' && release.trackSlugs.length !== 1) problems.push(`${where}: a single has one track`);
    for (const slug of release.trackSlugs) {
      const track = tracksBySlug.get(slug);
      if (!track) problems.push(`${where}: unknown track ${slug}`);
      else if (track.artistSlug !== release.artistSlug) problems.push(`${where}: track ${slug} is by ${track.artistSlug}`);
      else if (track.releaseYear > release.releaseYear) problems.push(`${where}: track ${slug} came out after the release`);
      if (released.has(slug)) problems.push(`${where}: track ${slug} is already on another release`);
      released.add(slug);
    }
  }
  return problems;
}
