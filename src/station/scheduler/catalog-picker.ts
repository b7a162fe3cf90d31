/**
 * Chooses the next catalog track for the live context: genre first, then mood and tempo, never a track
 * heard in the last plays and rarely the same artist twice in a row. Weighted-random among the best few,
 * so the radio does not play the same order every hour.
 */
import type { MusicContext } from '../../engine/types.js';

export interface CatalogCandidate {
  id: string;
  artistId: string;
  genre: string;
  subgenre: string;
  mood: string[];
  bpm: number | null;
  durationSec: number;
}

export interface RecentPlays {
  trackIds: string[]; // most recent first
  artistIds: string[]; // most recent first
}

/** A track is not repeated within this many plays (or within the catalog's size, if smaller). */
const TRACK_GAP = 12;
/** Same-artist plays are penalised within this many plays. */
const ARTIST_GAP = 3;
const SHORTLIST = 4;

function words(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim()
      .split(' ')
      .filter(Boolean),
  );
}

function overlap(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / Math.max(1, Math.min(a.size, b.size));
}

export function scoreCandidate(candidate: CatalogCandidate, context: MusicContext, recent: RecentPlays): number {
  const genre = overlap(words(`${candidate.genre} ${candidate.subgenre}`), words(`${context.genre} ${context.subgenre}`));
  const moods = new Set(context.mood.map((m) => m.toLowerCase()));
  const mood = candidate.mood.filter((m) => moods.has(m.toLowerCase())).length / Math.max(1, moods.size);
  const [low, high] = context.tempo_range;
  const bpm = candidate.bpm ?? (low + high) / 2;
  const tempo = bpm >= low && bpm <= high ? 1 : Math.max(0, 1 - Math.min(Math.abs(bpm - low), Math.abs(bpm - high)) / 30);
  const artistIndex = recent.artistIds.indexOf(candidate.artistId);
  const artistPenalty = artistIndex >= 0 && artistIndex < ARTIST_GAP ? (2 * (ARTIST_GAP - artistIndex)) / ARTIST_GAP : 0;
  return 3 * genre + 1.5 * mood + tempo - artistPenalty;
}

export interface PickOptions {
  /**
   * Tracks that must not be chosen: the neighbours of the slot being filled (never the same track back to
   * back) and, while planning, everything already planned (spread what there is).
   */
  exclude?: string[];
  /**
   * Planning: answer null rather than choose an excluded track (the queue stays shorter until more masters
   * are playable, or an AI slot takes the place). Otherwise an excluded track is chosen only when it is the
   * only one there is (a one-track catalog repeats rather than falls silent).
   */
  strict?: boolean;
}

export function pickCatalogTrack(
  candidates: CatalogCandidate[],
  context: MusicContext,
  recent: RecentPlays,
  random: () => number = Math.random,
  options: PickOptions = {},
): CatalogCandidate | null {
  if (candidates.length === 0) return null;
  const excluded = new Set(options.exclude ?? []);
  const allowed = candidates.filter((c) => !excluded.has(c.id));
  if (allowed.length === 0) {
    if (options.strict) return null;
    // Only excluded tracks exist: the one heard longest ago (or never).
    const age = (c: CatalogCandidate) => {
      const i = recent.trackIds.indexOf(c.id);
      return i < 0 ? Number.MAX_SAFE_INTEGER : i;
    };
    return [...candidates].sort((a, b) => age(b) - age(a) || (a.id < b.id ? -1 : 1))[0];
  }
  const gap = Math.min(TRACK_GAP, allowed.length - 1);
  const blocked = new Set(recent.trackIds.filter((id) => !excluded.has(id)).slice(0, gap));
  const eligible = allowed.filter((c) => !blocked.has(c.id));
  // Every allowed track was heard recently: the one heard longest ago, so what there is stays spread.
  if (eligible.length === 0) {
    const order = new Map(recent.trackIds.map((id, i) => [id, i] as const).reverse());
    return [...allowed].sort((a, b) => (order.get(b.id) ?? Infinity) - (order.get(a.id) ?? Infinity) || (a.id < b.id ? -1 : 1))[0];
  }
  const pool = eligible;
  const ranked = pool.map((c) => ({ c, score: scoreCandidate(c, context, recent) })).sort((a, b) => b.score - a.score || (a.c.id < b.c.id ? -1 : 1));
  const shortlist = ranked.slice(0, SHORTLIST);
  const floor = Math.min(...shortlist.map((s) => s.score));
  const weights = shortlist.map((s) => s.score - floor + 0.5);
  let r = random() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < shortlist.length; i++) {
    r -= weights[i];
    if (r < 0) return shortlist[i].c;
  }
  return shortlist[0].c;
}
