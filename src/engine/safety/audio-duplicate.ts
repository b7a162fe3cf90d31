/**
 * Near-duplicate check of a generated track against the catalog: is it a copy of one catalog track?
 *
 * Two comparisons, both needed for a copy:
 *
 * 1. Global sound. Each summary feature is divided by a fixed tolerance (roughly the feature extractor's own
 *    run-to-run noise), so a distance of 1 means "different by about one measurement error everywhere".
 *    Groups (pitch, timbre, rhythm, level) weigh equally, whatever their number of dimensions:
 *
 *      d = sqrt(mean over groups of mean over the group's dims of (Δ / tolerance)²)
 *      soundSimilarity = 1 / (1 + (d / 2)²)        identical -> 1, d = 2 -> 0.5, d = 4 -> 0.2
 *
 *    Tempo is compared also at half and double speed (a tempo tracker's usual octave error).
 *
 * 2. The music in time: the per-beat chord sequences (AudioFeatures.beatChords), aligned at the best offset
 *    within ±MAX_BEAT_SHIFT beats (a trimmed or padded copy), scored as agreement above chance (Cohen's kappa:
 *    the share of beats with the same chord, less what two tracks with the same chord vocabulary would share
 *    by chance, clamped to 0..1).
 *
 *      similarity = soundSimilarity × sequenceAgreement
 *
 * Why both (bench/audio-duplicate-calibration.ts, bench/README.md): summary features alone describe a
 * genre's sound, not a piece. Measured on the demo catalog, 33 of 75 pairs of distinct same-genre masters
 * scored under the playback threshold against each other, and every AI generation of a catalog-trained
 * model did, while true copies (re-encoded, ±1 dB, trimmed 1 s, re-rendered) sit at d <= 0.52. Chord
 * sequences separate them cleanly: agreement above chance is >= 0.86 for copies, <= 0.34 for distinct masters,
 * <= 0.42 for generations; combined similarity >= 0.845 for copies, <= 0.21 / 0.23 for the others (cut:
 * 0.447). So the tolerances (the measured noise) are unchanged and the threshold too; the sequence supplies the evidence of copying that summary statistics cannot. When either track has fewer than
 * MIN_SEQUENCE_BEATS beats the sequence is no evidence either way and the sound comparison alone decides
 * (as before).
 *
 * 3. The fingerprint in time (issue 18): at 8 seconds a master holds 3-13 beat chords, so the sequence is
 *    rarely evidence, and its summary sound is unstable (re-encoding one 8 s master moved its sound similarity
 *    from 1 to 0.19: tempo and mode flip on so little audio), so copies passed. The chroma fingerprints
 *    (AudioFeatures.fingerprint, one 12-bit code per 46 ms) are aligned at the best offset within
 *    ±MAX_PRINT_SHIFT codes, each aligned pair scored by the Jaccard overlap of its pitch-class sets, and the
 *    mean taken above chance (the mean over every pair of codes of the two tracks; kappa as above):
 *
 *      printSimilarity = clamp((printAgreement − PRINT_FLOOR) / (1 − PRINT_FLOOR))    agreement 0.70 -> 0.447
 *      similarity = max(soundSimilarity × sequenceAgreement, printSimilarity)
 *
 *    A time-aligned match of the notes is a copy whatever the summary sound says. Measured on the 8 s demo
 *    catalog (bench/originality.ts, bench/README.md): copies agree at >= 0.73, 95 of 100 AI generations of a
 *    catalog-trained model at <= 0.54 against their nearest master, distinct masters at <= 0.48. Features
 *    without a fingerprint (extracted before it existed) are judged by 1 and 2 alone.
 *
 * 4. Disguised copies and short tracks (issue 18, second round). The fingerprint comparison also tries the
 *    query transposed (the two transpositions whose pitch-class histograms match best, besides none), played
 *    6% and 12% faster or slower (PRINT_SCALES), and at any offset inside a longer catalog track (an excerpt),
 *    an offset counting when half the shorter print's music lines up; agreement found only through a
 *    transposition or a time scale is weighed by TRANSFORMED_WEIGHT (0.93), since 15 readings raise what
 *    unrelated music reaches by chance. And where the chord sequences are too short to be evidence, the
 *    fingerprint stands in for them at half weight (SHORT_SEQUENCE_FLOOR) instead of the summary sound
 *    deciding alone. Measured on the 8 s demo catalog (bench/originality.ts, bench/README.md): copies
 *    transposed by a semitone or two are caught 27/30 each (21 and 23 before), played 6% faster or 8% slower
 *    30 and 29 of 30, sped up a semitone 27/30 (24); AI generations flagged 0 of 80 (19 before, by their summary
 *    sound) and distinct masters against each other 2 of 30 (23).
 */
import type { AudioFeatures } from '../types.js';

export interface CatalogAudio {
  id: string;
  features: AudioFeatures;
}

export interface AudioDuplicateResult {
  similarity: number;
  nearestId: string | null;
  /** Summary-feature distance to the nearest item (see above). */
  distance: number;
  /** Chord-sequence agreement above chance with the nearest item, 0..1; 1 when the sequences are too short to tell. */
  sequenceAgreement?: number;
  /** Fingerprint agreement above chance with the nearest item, 0..1, when both have a fingerprint. */
  printAgreement?: number;
}

/** Beats a chord sequence needs before it counts as evidence (shorter: the sound comparison alone decides). */
export const MIN_SEQUENCE_BEATS = 8;
/**
 * When either chord sequence is under MIN_SEQUENCE_BEATS and both tracks have a fingerprint, the sound's
 * similarity is weighed by SHORT_SEQUENCE_FLOOR + (1 − SHORT_SEQUENCE_FLOOR) × fingerprint agreement.
 */
export const SHORT_SEQUENCE_FLOOR = 0.5;
/** Alignment offsets tried, in beats each way: a copy trimmed or padded by a few seconds still lines up. */
export const MAX_BEAT_SHIFT = 16;

const TOLERANCE = {
  chroma: 0.02,
  mfccMean: 2,
  mfccStd: 1,
  tempoBpm: 3,
  onsetRate: 0.3,
  loudnessDb: 2,
  energy: 0.05,
  spectralCentroidHz: 150,
};

function meanSquared(a: readonly number[], b: readonly number[], tolerance: number): number {
  const n = Math.max(a.length, b.length);
  if (n === 0) return 0;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += (((a[i] ?? 0) - (b[i] ?? 0)) / tolerance) ** 2;
  return sum / n;
}

export function featureDistance(a: AudioFeatures, b: AudioFeatures): number {
  const tempoDiff = Math.min(...[b.tempoBpm, b.tempoBpm * 2, b.tempoBpm / 2].map((t) => Math.abs(a.tempoBpm - t)));
  const groups = [
    meanSquared(a.chroma, b.chroma, TOLERANCE.chroma) + (a.mode === b.mode ? 0 : 1),
    (meanSquared(a.mfccMean, b.mfccMean, TOLERANCE.mfccMean) +
      meanSquared(a.mfccStd, b.mfccStd, TOLERANCE.mfccStd) +
      ((a.spectralCentroidHz - b.spectralCentroidHz) / TOLERANCE.spectralCentroidHz) ** 2) /
      3,
    ((tempoDiff / TOLERANCE.tempoBpm) ** 2 + ((a.onsetRate - b.onsetRate) / TOLERANCE.onsetRate) ** 2) / 2,
    (((a.loudnessDb - b.loudnessDb) / TOLERANCE.loudnessDb) ** 2 + ((a.energy - b.energy) / TOLERANCE.energy) ** 2) / 2,
  ];
  return Math.sqrt(groups.reduce((s, g) => s + g, 0) / groups.length);
}

/** Fingerprint codes each way tried for the alignment (120 x 46 ms: 5.6 s, a trim or a pad of a few seconds). */
export const MAX_PRINT_SHIFT = 120;
/** Aligned non-silent code pairs an offset needs before it counts (40 x 46 ms: 1.9 s of music). */
export const MIN_PRINT_OVERLAP = 40;
/** Fingerprint agreement mapped to similarity 0 (see above): 0.70 lands on the playback cut (0.447). */
export const PRINT_FLOOR = 0.457;
/**
 * Time scales tried for a copy played faster or slower (a tempo change, or pitch and tempo together): the
 * query's codes are stretched by each factor before the alignment. Neighbouring factors are 6% apart; one
 * factor holds a copy within about ±3% of it (a 3% drift moves the codes at the ends of an 8 s print by 2-3
 * frames, inside the 4-frame window a code spans).
 */
export const PRINT_SCALES = [1, 1.06, 1 / 1.06, 1.12, 1 / 1.12] as const;
/** Transpositions tried besides none: those whose pitch-class histogram matches the catalog track's best. */
export const PRINT_ROTATIONS_TRIED = 2;
/**
 * Agreement found only through a transposition or a time scale is weighed down by this factor (it needs 0.75
 * where an untransformed alignment needs 0.70 to reach the cut): trying 15 readings instead of one raises the
 * best agreement unrelated music reaches by chance.
 */
export const TRANSFORMED_WEIGHT = 0.93;
/** A transposition is tried only when the two histograms agree this well at it (cosine): a pruning. */
export const ROTATION_MIN_COSINE = 0.8;

const BITS = Uint8Array.from({ length: 4096 }, (_, x) => {
  let n = 0;
  for (let v = x; v; v >>= 1) n += v & 1;
  return n;
});
const jaccard = (a: number, b: number) => BITS[a & b] / BITS[a | b];
/** The code transposed up by r semitones (bit k moves to bit (k + r) mod 12). */
const rotate = (code: number, r: number) => ((code << r) | (code >> (12 - r))) & 0xfff;

/** What the comparison needs of one fingerprint, computed once per print. */
export interface PrintProfile {
  codes: readonly number[];
  /** Non-silent codes and how often each occurs. */
  counts: Map<number, number>;
  sounding: number;
  /** How often each pitch class is named, over the non-silent codes. */
  histogram: Float64Array;
}

export function printProfile(codes: readonly number[]): PrintProfile {
  const counts = new Map<number, number>();
  const histogram = new Float64Array(12);
  let sounding = 0;
  for (const code of codes)
    if (code !== 0) {
      counts.set(code, (counts.get(code) ?? 0) + 1);
      sounding++;
      for (let k = 0; k < 12; k++) if (code & (1 << k)) histogram[k]++;
    }
  return { codes, counts, sounding, histogram };
}

/** Transpositions worth trying (0 always, then the best-matching others by pitch-class histogram). */
function rotationsToTry(a: PrintProfile, b: PrintProfile): number[] {
  const norm = (h: Float64Array) => Math.sqrt(h.reduce((s, x) => s + x * x, 0)) || 1;
  const na = norm(a.histogram);
  const nb = norm(b.histogram);
  const cosines: [number, number][] = [];
  for (let r = 1; r < 12; r++) {
    let dot = 0;
    for (let k = 0; k < 12; k++) dot += a.histogram[k] * b.histogram[(k + r) % 12];
    cosines.push([r, dot / (na * nb)]);
  }
  cosines.sort((x, y) => y[1] - x[1] || x[0] - y[0]);
  return [
    0,
    ...cosines
      .filter(([, c]) => c >= ROTATION_MIN_COSINE)
      .slice(0, PRINT_ROTATIONS_TRIED)
      .map(([r]) => r),
  ];
}

/** Mean Jaccard overlap of every pair of non-silent codes, the query transposed by r: agreement by chance. */
function chanceAgreement(a: PrintProfile, b: PrintProfile, r: number): number {
  let chance = 0;
  for (const [x, nx] of a.counts) {
    const xr = rotate(x, r);
    for (const [y, ny] of b.counts) chance += nx * ny * jaccard(xr, y);
  }
  return chance / (a.sounding * b.sounding);
}

/** The query's codes stretched in time by `scale` (nearest code), so a copy played faster lines up again. */
function stretch(codes: readonly number[], scale: number): number[] {
  if (scale === 1) return [...codes];
  const n = Math.round(codes.length * scale);
  return Array.from({ length: n }, (_, j) => codes[Math.min(codes.length - 1, Math.round(j / scale))]);
}

/**
 * Best agreement above chance of `a` against `b` over offsets: from MAX_PRINT_SHIFT before b's start to
 * MAX_PRINT_SHIFT past the point where a's end meets b's end, so a shorter a (an excerpt) is looked for
 * anywhere in b. An offset counts when it aligns at least `minPairs` non-silent pairs.
 */
function bestAlignment(a: readonly number[], b: readonly number[], chance: number, minPairs: number): number {
  const last = Math.max(0, b.length - a.length) + MAX_PRINT_SHIFT;
  let best = 0;
  for (let shift = -MAX_PRINT_SHIFT; shift <= last; shift++) {
    let sum = 0;
    let pairs = 0;
    const end = Math.min(a.length, b.length - shift);
    for (let i = Math.max(0, -shift); i < end; i++) {
      const x = a[i];
      const y = b[i + shift];
      if (x === 0 || y === 0) continue;
      sum += BITS[x & y] / BITS[x | y];
      pairs++;
    }
    if (pairs >= minPairs) best = Math.max(best, (sum / pairs - chance) / (1 - chance));
  }
  return best;
}

/**
 * Agreement above chance of two fingerprints at their best alignment: max over offsets, time scales
 * (PRINT_SCALES) and transpositions (rotationsToTry) of (observed − chance) / (1 − chance), observed the mean
 * Jaccard overlap of the aligned non-silent codes, chance the mean over all pairs of non-silent codes (from
 * each print's code counts, the query transposed alike). Clamped to 0..1; 0 when either print has fewer than
 * MIN_PRINT_OVERLAP non-silent codes.
 */
export function fingerprintAgreement(a: readonly number[] | PrintProfile, b: readonly number[] | PrintProfile): number {
  const pa = 'codes' in a ? a : printProfile(a);
  const pb = 'codes' in b ? b : printProfile(b);
  if (Math.min(pa.sounding, pb.sounding) < MIN_PRINT_OVERLAP) return 0;
  // Half the shorter print's music must line up: more offsets are tried than before (an excerpt anywhere), and
  // an alignment of a few seconds at the edge of a long print would be too little to judge.
  const minPairs = Math.max(MIN_PRINT_OVERLAP, Math.floor(Math.min(pa.sounding, pb.sounding) / 2));
  let best = 0;
  for (const r of rotationsToTry(pa, pb)) {
    const chance = chanceAgreement(pa, pb, r);
    if (chance >= 1 - 1e-9) return 1;
    const rotated = r === 0 ? pa.codes : pa.codes.map((code) => rotate(code, r));
    for (const scale of PRINT_SCALES) {
      const weight = r === 0 && scale === 1 ? 1 : TRANSFORMED_WEIGHT;
      best = Math.max(best, weight * bestAlignment(stretch(rotated, scale), pb.codes, chance, minPairs));
    }
  }
  return Math.max(0, Math.min(1, best));
}

export function similarityFromPrint(agreement: number): number {
  return Math.max(0, Math.min(1, (agreement - PRINT_FLOOR) / (1 - PRINT_FLOOR)));
}

export function similarityFromDistance(distance: number): number {
  return 1 / (1 + (distance / 2) ** 2);
}

/**
 * Agreement above chance of two per-beat chord sequences at their best alignment: max over offsets of
 * (observed − chance) / (1 − chance), where observed is the share of the shorter sequence's beats matched and
 * chance = Σ_chord p_a(chord)·p_b(chord) from each sequence's chord frequencies. Clamped to 0..1. 1 when a
 * sequence has fewer than MIN_SEQUENCE_BEATS beats or when chance alone explains everything (both tracks
 * hold one and the same chord), i.e. no evidence against a copy. b is also read at double and half its beat
 * rate (a tempo octave error between the two analyses).
 */
export function sequenceAgreement(a: readonly string[], b: readonly string[]): number {
  if (Math.min(a.length, b.length) < MIN_SEQUENCE_BEATS) return 1;
  // A beat tracker may lock onto half or double the tempo of the other reading (the octave error the tempo
  // comparison allows for too): b is also read with each beat doubled, and with every other beat.
  const readings = [b, b.flatMap((c) => [c, c]), b.filter((_, i) => i % 2 === 0), b.filter((_, i) => i % 2 === 1)];
  return Math.max(...readings.map((r) => alignedAgreement(a, r)));
}

function alignedAgreement(a: readonly string[], b: readonly string[]): number {
  const shorter = Math.min(a.length, b.length);
  if (shorter < MIN_SEQUENCE_BEATS) return 0; // a half-rate reading of a short sequence: no alignment to judge
  const freq = (seq: readonly string[]) => {
    const counts = new Map<string, number>();
    for (const c of seq) counts.set(c, (counts.get(c) ?? 0) + 1);
    return counts;
  };
  const fa = freq(a);
  const fb = freq(b);
  let chance = 0;
  for (const [chord, n] of fa) chance += (n / a.length) * ((fb.get(chord) ?? 0) / b.length);
  if (chance >= 1 - 1e-9) return 1;
  let observed = 0;
  for (let shift = -MAX_BEAT_SHIFT; shift <= MAX_BEAT_SHIFT; shift++) {
    let matches = 0;
    for (let i = Math.max(0, -shift); i < a.length && i + shift < b.length; i++) if (a[i] === b[i + shift]) matches++;
    observed = Math.max(observed, matches / shorter);
  }
  return Math.max(0, Math.min(1, (observed - chance) / (1 - chance)));
}

export class AudioDuplicateIndex {
  /** Each catalog print's profile, computed once (the index lives as long as its filter). */
  private readonly profiles: (PrintProfile | undefined)[];

  constructor(private readonly catalog: readonly CatalogAudio[]) {
    this.profiles = catalog.map((item) => (item.features.fingerprint ? printProfile(item.features.fingerprint) : undefined));
  }

  get size(): number {
    return this.catalog.length;
  }

  nearest(features: AudioFeatures): AudioDuplicateResult {
    let best: AudioDuplicateResult = { similarity: 0, nearestId: null, distance: Number.POSITIVE_INFINITY };
    const query = features.fingerprint ? printProfile(features.fingerprint) : undefined;
    for (let k = 0; k < this.catalog.length; k++) {
      const item = this.catalog[k];
      const distance = featureDistance(features, item.features);
      const soundSimilarity = similarityFromDistance(distance);
      const profile = this.profiles[k];
      const printAgreement = query && profile ? fingerprintAgreement(query, profile) : undefined;
      const printSimilarity = similarityFromPrint(printAgreement ?? 0);
      // The product can only be higher than the best so far when the sound alone is.
      const soundCanWin = soundSimilarity > best.similarity || (soundSimilarity === best.similarity && distance < best.distance);
      if (!soundCanWin && printSimilarity <= best.similarity) continue;
      const a = features.beatChords ?? [];
      const b = item.features.beatChords ?? [];
      // Too few beat chords are no evidence either way; where both have a fingerprint it stands in for them (half
      // weight: the summary sound alone must then be a copy's, d <= 0.69), so a short track is not judged by its
      // summary sound alone (which flagged 23 of the 30 distinct 8 s demo masters against each other).
      const agreement =
        Math.min(a.length, b.length) < MIN_SEQUENCE_BEATS && printAgreement !== undefined
          ? SHORT_SEQUENCE_FLOOR + (1 - SHORT_SEQUENCE_FLOOR) * printAgreement
          : sequenceAgreement(a, b);
      const similarity = Math.max(soundSimilarity * agreement, printSimilarity);
      if (similarity > best.similarity || (similarity === best.similarity && distance < best.distance)) {
        best = { similarity, nearestId: item.id, distance, sequenceAgreement: agreement, ...(printAgreement !== undefined ? { printAgreement } : {}) };
      }
    }
    return best;
  }
}
