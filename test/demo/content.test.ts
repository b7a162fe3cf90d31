import { describe, expect, it } from 'vitest';
import { demoArtists, demoContent, demoLyricsCorpus, demoReleases, demoSongwriters, demoTracks, validateDemoContent } from '../../src/demo/content/index.js';

const normalise = (line: string): string =>
  line
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9 ]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** Every distinct (normalised) line of a song: repeats inside one song are fine, choruses repeat. */
const linesOf = (songIndex: number): Set<string> => new Set(demoLyricsCorpus[songIndex].sections.flatMap((s) => s.lines.map(normalise)));

describe('demo content', () => {
  it('is internally consistent', () => {
    expect(() => validateDemoContent()).not.toThrow();
  });

  it('has the catalog sizes the demo needs', () => {
    expect(demoArtists.length).toBeGreaterThanOrEqual(5);
    expect(demoSongwriters.length).toBeGreaterThanOrEqual(8);
    expect(demoTracks.length).toBeGreaterThanOrEqual(30);
    expect(demoLyricsCorpus.length).toBeGreaterThanOrEqual(64);
    expect(demoLyricsCorpus.filter((l) => l.language === 'es').length).toBeGreaterThanOrEqual(10);
    expect(new Set(demoLyricsCorpus.map((l) => l.language))).toEqual(new Set(['en', 'es']));
    for (const artist of demoArtists) {
      expect(artist.platformOwned).toBe(true);
      expect(demoTracks.filter((t) => t.artistSlug === artist.slug).length).toBeGreaterThanOrEqual(6);
    }
  });

  it('spreads releases over 2019-2026 and links about two thirds of the tracks to lyrics', () => {
    const years = new Set(demoTracks.map((t) => t.releaseYear));
    for (let year = 2019; year <= 2026; year++) expect(years.has(year)).toBe(true);
    const withLyrics = demoTracks.filter((t) => t.lyricsId !== null).length / demoTracks.length;
    expect(withLyrics).toBeGreaterThan(0.55);
    expect(withLyrics).toBeLessThan(0.8);
  });

  it("credits each lyric's songwriter on the track that uses it", () => {
    const byId = new Map(demoLyricsCorpus.map((l) => [l.id, l]));
    for (const track of demoTracks.filter((t) => t.lyricsId !== null)) {
      const lyrics = byId.get(track.lyricsId as string);
      expect(lyrics, track.slug).toBeDefined();
      const credited = track.credits.map((c) => c.songwriterSlug);
      expect(credited, track.slug).toContain(lyrics?.songwriterId);
    }
  });

  it('gives every song a full shape: verses of 4-8 lines, a 4-line chorus', () => {
    for (const song of demoLyricsCorpus) {
      expect(song.title.length, song.id).toBeGreaterThan(0);
      expect(song.mood.length, song.id).toBeGreaterThan(0);
      expect(song.theme.length, song.id).toBeGreaterThan(0);
      const names = song.sections.map((s) => s.name);
      expect(names, song.id).toContain('verse_1');
      expect(names, song.id).toContain('chorus');
      for (const section of song.sections) {
        if (section.name.startsWith('verse')) {
          expect(section.lines.length, `${song.id}/${section.name}`).toBeGreaterThanOrEqual(4);
          expect(section.lines.length, `${song.id}/${section.name}`).toBeLessThanOrEqual(8);
        }
        if (section.name === 'chorus') expect(section.lines.length, song.id).toBe(4);
        for (const line of section.lines) {
          const words = line.split(/\s+/).length;
          expect(words, `${song.id}: "${line}"`).toBeGreaterThanOrEqual(2);
          expect(words, `${song.id}: "${line}"`).toBeLessThanOrEqual(12);
        }
      }
    }
  });

  it('varies its lines: no two songs share more than two identical lines, no line in three songs', () => {
    const sets = demoLyricsCorpus.map((_, i) => linesOf(i));
    for (let a = 0; a < sets.length; a++) {
      for (let b = a + 1; b < sets.length; b++) {
        const shared = [...sets[a]].filter((line) => sets[b].has(line));
        expect(shared.length, `${demoLyricsCorpus[a].id} / ${demoLyricsCorpus[b].id}: ${shared.join(' | ')}`).toBeLessThanOrEqual(2);
      }
    }
    const songsPerLine = new Map<string, number>();
    for (const set of sets) for (const line of set) songsPerLine.set(line, (songsPerLine.get(line) ?? 0) + 1);
    const overused = [...songsPerLine].filter(([, count]) => count > 2).map(([line]) => line);
    expect(overused).toEqual([]);
  });

  it('keeps the corpus clean for the safety filter', () => {
    const blocked = /\b(damn|hell|shit|fuck\w*|bitch|bastard|crap|mierda|joder|puta|coño|cabr[oó]n)\b/i;
    for (const song of demoContent.lyrics) {
      for (const line of song.sections.flatMap((s) => s.lines)) expect(line, song.id).not.toMatch(blocked);
    }
  });

  it('releases every track once, on albums, EPs and singles of its own artist', () => {
    const released = demoReleases.flatMap((r) => r.trackSlugs);
    expect([...released].sort()).toEqual(demoTracks.map((t) => t.slug).sort());
    expect(new Set(demoReleases.map((r) => r.type))).toEqual(new Set(['album', 'ep', 'single']));
    const [first, ...rest] = demoReleases;
    const stolen = { ...demoContent, releases: [{ ...first, trackSlugs: [...first.trackSlugs, 'chrome-horizon'] }, ...rest] };
    expect(() => validateDemoContent(stolen)).toThrow(/track chrome-horizon is by neon-tidewater[\s\S]*chrome-horizon is already on another release/);
  });

  it('reports a broken reference instead of passing silently', () => {
    const [first, ...rest] = demoTracks;
    const broken = { ...demoContent, tracks: [{ ...first, artistSlug: 'nobody', isrc: 'BAD' }, ...rest] };
    expect(() => validateDemoContent(broken)).toThrow(/unknown artist nobody[\s\S]*malformed ISRC BAD/);
  });
});
