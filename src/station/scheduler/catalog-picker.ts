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
  return new Set(text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim().split(' ').filter(Boolean));
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
  const artistPenalty = artistIndex >= 0 && artistIndex < ARTIST_GAP ? 2 * (ARTIST_GAP - artistIndex) / ARTIST_GAP : 0;
  return 3 * genre + 1.5 * mood + tempo - artistPenalty;
}

export function pickCatalogTrack(
  candidates: CatalogCandidate[],
  context: MusicContext,
  recent: RecentPlays,
  random: () => number = Math.random,
): CatalogCandidate | null {
  if (candidates.length === 0) return null;
  const gap = Math.min(TRACK_GAP, candidates.length - 1);
  const blocked = new Set(recent.trackIds.slice(0, gap));
  const eligible = candidates.filter((c) => !blocked.has(c.id));
  const pool = eligible.length > 0 ? eligible : candidates;
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
