/**
 * Tonal match: the master EQ's per-song stage (issue 18's tonal balance per genre), after the family's EQ
 * and the song's colour (tonal-balance.ts masterEqBands) and before the master chain (music/render.ts).
 *
 * The family EQ removes what a family's songs share (its bias against the reference curve, genre-eq.ts);
 * what it leaves is each song's own spread around the curve, 3-7 dB per band. That spread is what makes
 * songs of one genre differ (bench/timbre.ts), but a few songs far out in some bands (a pad or drone
 * whose fundamentals land in one third octave by key, a pool instrument whose samples end at 8 kHz) drag
 * a family's mean spectrum off its curve. A mastering engineer's answer, as in tonal-balance "match"
 * tools: the song is rendered offline, so its whole long-term spectrum is known before it is mastered;
 * the stage measures it against the family's curve and pulls back only the part of each band's deviation
 * beyond a dead band (DEAD_BAND_DB), with broad bands only (an octave wide or shelves: it follows the
 * spectrum's shape, not its third-octave detail) of bounded gain (LIMIT_DB). A song inside the dead band
 * passes untouched; an outlier is brought to the dead band's edge, no further.
 *
 * The dead band was chosen from measurements (bench/README.md "A per-song match stage": 12 unseen songs
 * per family, and bench/timbre.ts). It is the knob between issue 18's two targets: at 5-7 dB, 6 or 7 of 7
 * family means within +-3 dB (4 of 7 without the stage) but the songs of one genre pressed together; at
 * 5-7 dB it also cut the chord-heavy low mids of the lo-fi seed-42 intro enough to make its second bar rise
 * 6 dB or more (test/engine/music/arrangement.test.ts) or moved a 12 s lo-fi track's heard key
 * (test/engine/features/generated-track.test.ts). At 9 dB, with the colour drawn wider in lo-fi and rock
 * (FAMILY_COLOUR_DB: the stage bounds it), the songs of lo-fi and rock stood 4.1-4.4 dB apart (main
 * 3.1-4.5) and the worst family mean went from 4.6 to 3.5 dB off its curve (4 of 7 within +-3 dB, as on main).
 * With a dead band per family (FAMILY_DEAD_BAND_DB: ambient 6, jazz 7, the rest 9) and rock's family EQ
 * refitted, 7 of 7 within +-3 dB with the lo-fi and rock spread kept over 4 dB.
 *
 * Deterministic: the measure reads a fixed set of frames and the fit is a pure function of it.
 */
import type { GenreFamily } from '../compose/style.js';
import { type Band, Biquad } from './biquad.js';
import { GENRE_EQ } from './genre-eq.js';
import { BAND_CENTRES, FAMILY_COLOUR_DB, balanceAgainst, chainResponseDb, correctiveEq, longTermSpectrum, songColour } from './tonal-balance.js';

/** Deviation from the family's curve (dB per third octave, level-normalised) a song keeps as its own. */
export const DEAD_BAND_DB = 9;
/**
 * Families whose songs are held closer (dB). At 9 dB the means of a dozen ambient and jazz songs stood
 * 3.5 dB (ambient, 100 Hz: drone and bass fundamentals, which land in one third octave or another by key)
 * and 3.1 dB (jazz, 1.6 kHz) off their curves; at 6 and 7 dB, 2.9 and 3.0 dB (bench/README.md, "A dead band
 * per family"). Lo-fi and rock keep 9 dB: their wide colours (FAMILY_COLOUR_DB) are what makes their songs
 * differ, and a closer dead band took their spread under 4 dB; lo-fi's also keeps seed 42's intro build
 * (test/engine/music/arrangement.test.ts) and the 12 s track's heard key (generated-track.test.ts). Jazz at
 * 6 dB changed the 8 s jazz demo renders that bench/timbre.ts trains its model on, and one of the five rock
 * songs that model wrote came out different (the five 3.5 dB apart instead of 4.3); at 7 dB they did not.
 */
export const FAMILY_DEAD_BAND_DB: Partial<Record<GenreFamily, number>> = { jazz: 7, ambient: 6 };

/** The dead band of a family's match stage (dB). */
export function deadBandOf(family: GenreFamily): number {
  return FAMILY_DEAD_BAND_DB[family] ?? DEAD_BAND_DB;
}
/** Largest boost or cut of the stage at any band centre (dB): a song is pulled towards the curve, not rebuilt. */
export const LIMIT_DB = 6;
/** At most this many bands: each is a biquad on both channels of the whole track (about 30 ms of CPU per 180 s). */
const MAX_BANDS = 6;
/** About this many analysis frames of 8192 samples spread over the track (about 0.1 s of CPU for 180 s). */
const MEASURE_FRAMES = 240;

/**
 * The stage's bands for a song whose deviation from its family's curve is `deviation` (balanceAgainst):
 * the excess beyond +-deadBandDb fitted with broad bands (correctiveEq, broadOnly); bands the fit placed
 * twice merged into one (where two neighbours fight, a hole beside a peak, it can stack them), each held
 * to +-LIMIT_DB, then all scaled down together if the chain's response still passes +-LIMIT_DB at a band
 * centre. Empty when the song is inside.
 */
export function matchBands(deviation: readonly number[], sampleRate: number, deadBandDb = DEAD_BAND_DB): Band[] {
  const fitted = correctiveEq(deviation, sampleRate, deadBandDb, { broadOnly: true, maxBands: MAX_BANDS, limitDb: LIMIT_DB });
  const bands: Band[] = [];
  for (const b of fitted) {
    const same = bands.find((m) => m.type === b.type && m.hz === b.hz && m.q === b.q);
    if (same) same.db = same.db! + b.db!;
    else bands.push({ ...b });
  }
  for (const b of bands) b.db = Math.round(Math.max(-LIMIT_DB, Math.min(LIMIT_DB, b.db!)) * 100) / 100;
  // Bands of one sign may overlap (a shelf and a peak beside it): bound what the chain does, not each band.
  for (let round = 0; round < 8; round++) {
    const peak = Math.max(0, ...BAND_CENTRES.map((hz) => Math.abs(chainResponseDb(bands, hz, sampleRate))));
    if (peak <= LIMIT_DB) break;
    const scale = (LIMIT_DB / peak) * 0.99;
    for (const b of bands) b.db = Math.round(b.db! * scale * 100) / 100;
  }
  return bands.filter((b) => b.db !== 0);
}

/** The bands of a song's matched master EQ, in the order they run. */
export interface MatchedMasterEq {
  /** The family's (genre-eq.ts). */
  family: Band[];
  /** The song's own colour (tonal-balance.ts songColour). */
  colour: Band[];
  /** The match stage's, fitted to the mix after the two (none when the song is inside the dead band). */
  match: Band[];
}

/**
 * The master EQ with the match stage (music/render.ts, before the master chain), in place: the family's
 * bands and the song's colour (as tonal-balance.ts applyGenreEq); then the mix is measured against the
 * family's curve, and the match's bands fitted to it run over it.
 */
export function applyMatchedMasterEq(
  left: Float32Array,
  right: Float32Array,
  family: GenreFamily,
  seed: number,
  sampleRate: number,
  blockSamples = 8192,
): MatchedMasterEq {
  const familyBands = [...GENRE_EQ[family]];
  const colour = songColour(seed, FAMILY_COLOUR_DB[family]);
  run(left, right, [...familyBands, ...colour], sampleRate, blockSamples);
  const match = measureMatch(left, right, family, sampleRate);
  run(left, right, match, sampleRate, blockSamples);
  return { family: familyBands, colour, match };
}

/** The match stage's bands for a mix as it stands (its long-term spectrum against the family's curve). */
export function measureMatch(left: Float32Array, right: Float32Array, family: GenreFamily, sampleRate: number): Band[] {
  const frames = Math.floor(left.length / 8192);
  if (frames === 0) return [];
  const spectrum = longTermSpectrum(left, right, sampleRate, { stride: Math.max(1, Math.floor(frames / MEASURE_FRAMES)) });
  // A silent render has nothing to match.
  if (spectrum.every((db) => db < -250)) return [];
  return matchBands(balanceAgainst(spectrum, family).deviation, sampleRate, deadBandOf(family));
}

function run(left: Float32Array, right: Float32Array, bands: readonly Band[], sampleRate: number, blockSamples: number): void {
  if (bands.length === 0) return;
  const filters = bands.map((b) => new Biquad(b, sampleRate));
  for (let at = 0; at < left.length; at += blockSamples) {
    const l = left.subarray(at, at + blockSamples);
    const r = right.subarray(at, at + blockSamples);
    for (const f of filters) f.processStereo(l, r, l.length);
  }
}
