/**
 * AI titles from a tiny grammar: mood- and genre-flavoured word pools, a handful of templates, all picked
 * with the seed. A lyrics model can later lend words (e.g. from its chorus) through `borrowedWords`.
 */
import { Rng } from '../random.js';
import type { MusicContext } from '../types.js';

const MOOD_WORDS: Record<string, { adjectives: string[]; nouns: string[] }> = {
  calm: { adjectives: ['Quiet', 'Still', 'Soft', 'Slow', 'Gentle'], nouns: ['Harbor', 'Morning', 'Tide', 'Window', 'Meadow'] },
  happy: { adjectives: ['Golden', 'Bright', 'Sunlit', 'Easy', 'Warm'], nouns: ['Afternoon', 'Parade', 'Summer', 'Kite', 'Balcony'] },
  melancholic: { adjectives: ['Faded', 'Grey', 'Distant', 'Rainy', 'Lonely'], nouns: ['Letters', 'Platform', 'Winter', 'Photograph', 'Streetlight'] },
  energetic: { adjectives: ['Electric', 'Restless', 'Wild', 'Racing', 'Neon'], nouns: ['Engine', 'Skyline', 'Pulse', 'Highway', 'Spark'] },
  dark: { adjectives: ['Midnight', 'Hollow', 'Silent', 'Shadow', 'Velvet'], nouns: ['Corridor', 'Moon', 'Static', 'Alley', 'Depths'] },
  dreamy: { adjectives: ['Floating', 'Hazy', 'Velvet', 'Drifting', 'Pastel'], nouns: ['Clouds', 'Lagoon', 'Orbit', 'Mirage', 'Lanterns'] },
  romantic: { adjectives: ['Tender', 'Rosy', 'Candlelit', 'Sweet', 'Secret'], nouns: ['Promise', 'Dance', 'Letter', 'Garden', 'Heartbeat'] },
};
const GENRE_NOUNS: [RegExp, string[]][] = [
  [/synth|electr|wave|house|techno/, ['Circuit', 'Grid', 'Laser', 'Arcade', 'Signal']],
  [/lo-?fi|hip ?hop|chill/, ['Tape', 'Notebook', 'Coffee', 'Rooftop', 'Cassette']],
  [/folk|acoustic|country/, ['River', 'Cabin', 'Road', 'Orchard', 'Fireside']],
  [/jazz|soul|blues/, ['Avenue', 'Lounge', 'Saxophone', 'Velvet Room', 'Blue Hour']],
  [/ambient|drone/, ['Horizon', 'Glacier', 'Breath', 'Nebula', 'Stillness']],
];
const FALLBACK = { adjectives: ['Open', 'New', 'Little', 'Endless', 'Paper'], nouns: ['Sky', 'Days', 'City', 'Light', 'Song'] };
const TEMPLATES = ['{adj} {noun}', '{noun} of {noun2}', 'The {adj} {noun}', '{adj} {noun} ({time})', '{noun} in {adj} {noun2}', '{adj}'];
const TIMES: Record<MusicContext['lifestyle'], string[]> = {
  focus: ['Study Mix', 'Deep Work', 'Notes'],
  party: ['Night Edit', 'Late Set', 'Club Mix'],
  chill: ['Sunday', 'Evening', 'Slow Version'],
  workout: ['Run', 'Rush', 'Overdrive'],
  sleep: ['Lullaby', '3 AM', 'Night Version'],
};

export function generateTitle(context: MusicContext, seed: number, borrowedWords: readonly string[] = []): string {
  const rng = Rng.derive(seed, 'title');
  const adjectives: string[] = [];
  const nouns: string[] = [];
  for (const mood of context.mood) {
    const pool = MOOD_WORDS[mood.trim().toLowerCase()];
    if (pool) {
      adjectives.push(...pool.adjectives);
      nouns.push(...pool.nouns);
    }
  }
  const genreText = `${context.genre} ${context.subgenre}`.toLowerCase();
  for (const [pattern, words] of GENRE_NOUNS) if (pattern.test(genreText)) nouns.push(...words);
  if (adjectives.length === 0) adjectives.push(...FALLBACK.adjectives);
  if (nouns.length === 0) nouns.push(...FALLBACK.nouns);
  // Borrowed words (e.g. from generated lyrics) are favoured: they tie the title to the song.
  const borrowed = borrowedWords.map(capitalise).filter((w) => /^[\p{L}' -]{2,24}$/u.test(w));
  const noun = borrowed.length > 0 && rng.next() < 0.7 ? rng.pick(borrowed) : rng.pick(nouns);
  const noun2 = rng.pick(nouns.filter((n) => n !== noun).concat(FALLBACK.nouns));
  const template = rng.pick(TEMPLATES);
  return template
    .replace('{adj}', rng.pick(adjectives))
    .replace('{noun}', noun)
    .replace('{noun2}', noun2)
    .replace('{time}', rng.pick(TIMES[context.lifestyle]));
}

function capitalise(word: string): string {
  const trimmed = word.trim();
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1).toLowerCase();
}
