/**
 * Issue 18: copies disguised by more than re-encoding. The fingerprint comparison (safety/audio-duplicate.ts)
 * tries transpositions, time scales and offsets anywhere in the catalog track, so a copy transposed, played
 * faster or slower, low-passed or cut to an excerpt still aligns with its master; music with the same chords
 * and notes in another order does not, whichever of those it is read through. (A copy mixed under other music
 * at -6 dB is not caught by its fingerprint: the other music takes some of the three pitch classes a code
 * names; bench/README.md.)
 */
import { describe, expect, it } from 'vitest';
import { extractFeatures } from '../../../src/engine/features/extract.js';
import { Rng } from '../../../src/engine/random.js';
import { featureDistance, fingerprintAgreement, MAX_PRINT_SHIFT, similarityFromDistance } from '../../../src/engine/safety/audio-duplicate.js';
import { SAFETY_PLAYBACK_THRESHOLD, SafetyFilter } from '../../../src/engine/safety/index.js';
import type { AudioFeatures } from '../../../src/engine/types.js';
import { soundingElsewhere } from './sounding-elsewhere.js';

const RATE = 22050;
const hz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);

/**
 * A chord of three tones per bar under a melody of four notes per bar, `barSec` each, transposed by
 * `semitones`; a click on every melody note so the beat is heard.
 */
function song(bars: { chord: number[]; melody: number[] }[], barSec: number, semitones = 0): Float32Array {
  const noteLen = Math.round((barSec / 4) * RATE);
  const pcm = new Float32Array(noteLen * 4 * bars.length);
  bars.forEach(({ chord, melody }, b) => {
    for (let n = 0; n < 4; n++)
      for (let i = 0; i < noteLen; i++) {
        const t = (b * 4 * noteLen + n * noteLen + i) / RATE;
        let v = 0;
        for (const note of chord) v += (0.25 * Math.sin(2 * Math.PI * hz(note + semitones) * t)) / chord.length;
        v += 0.25 * Math.sin(2 * Math.PI * hz(melody[n] + semitones) * t) * Math.min(1, i / 100) * Math.exp(-i / noteLen);
        pcm[b * 4 * noteLen + n * noteLen + i] = v + (i < 40 ? 0.2 * (1 - i / 40) : 0);
      }
  });
  return pcm;
}

const C = [48, 52, 55];
const Am = [45, 48, 52];
const F = [41, 45, 48];
const G = [43, 47, 50];
const Dm = [50, 53, 57];
const Em = [52, 55, 59];
const BARS = [
  { chord: C, melody: [72, 74, 76, 79] },
  { chord: Am, melody: [76, 72, 69, 72] },
  { chord: F, melody: [77, 76, 74, 72] },
  { chord: G, melody: [74, 71, 67, 71] },
  { chord: Dm, melody: [69, 72, 74, 77] },
  { chord: Em, melody: [76, 79, 76, 71] },
  { chord: F, melody: [72, 69, 65, 69] },
  { chord: G, melody: [71, 74, 79, 74] },
];
/** The same chords and the same melody notes, each bar's melody played backwards and the bars in another order. */
const REORDERED = [3, 6, 1, 4, 7, 2, 5, 0].map((k) => ({ chord: BARS[k].chord, melody: [...BARS[k].melody].reverse() }));

const BAR_SEC = 1.6;
const master = song(BARS, BAR_SEC); // 12.8 s
const masterFeatures = extractFeatures(master, RATE);

const filter = new SafetyFilter({ catalogAudio: [{ id: 'master', features: masterFeatures }] });
const check = (pcm: Float32Array) => filter.checkAudio(soundingElsewhere(extractFeatures(pcm, RATE)));

/** Linear-interpolation resampling: the PCM played `ratio` times faster, pitch and tempo together. */
function varispeed(pcm: Float32Array, ratio: number): Float32Array {
  return Float32Array.from({ length: Math.floor(pcm.length / ratio) }, (_, i) => {
    const x = i * ratio;
    const k = Math.floor(x);
    return (pcm[k] ?? 0) * (1 - (x - k)) + (pcm[k + 1] ?? 0) * (x - k);
  });
}

/** A two-pole low-pass at `hz` (RBJ biquad, Q 0.707): the top of the spectrum taken away. */
function lowPass(pcm: Float32Array, cutoff: number): Float32Array {
  const w = (2 * Math.PI * cutoff) / RATE;
  const alpha = Math.sin(w) / (2 * Math.SQRT1_2);
  const cos = Math.cos(w);
  const [b0, b1, b2, a0, a1, a2] = [(1 - cos) / 2, 1 - cos, (1 - cos) / 2, 1 + alpha, -2 * cos, 1 - alpha];
  const out = new Float32Array(pcm.length);
  let [x1, x2, y1, y2] = [0, 0, 0, 0];
  for (let i = 0; i < pcm.length; i++) {
    const y = (b0 * pcm[i] + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2) / a0;
    [x2, x1, y2, y1] = [x1, pcm[i], y1, y];
    out[i] = y;
  }
  return out;
}

describe('copies disguised beyond re-encoding are still flagged', () => {
  it.each([
    ['transposed up 2 semitones', () => song(BARS, BAR_SEC, 2)],
    ['transposed down 3 semitones', () => song(BARS, BAR_SEC, -3)],
    ['played 8% faster (tempo only)', () => song(BARS, BAR_SEC / 1.08)],
    ['played 10% slower (tempo only)', () => song(BARS, BAR_SEC * 1.1)],
    ['sped up a semitone, pitch and tempo together', () => varispeed(master, 2 ** (1 / 12))],
    ['low-passed at 1 kHz', () => lowPass(master, 1000)],
    ['the middle half alone', () => master.slice(master.length / 4, (3 * master.length) / 4)],
  ])('%s', (_name, make) => {
    const r = check(make());
    expect(r.details.nearestId).toBe('master');
    expect(r.details.printAgreement).toBeGreaterThan(0.7);
    expect(r.flagged_categories).toEqual(['audio_duplicate']);
  });

  it('finds an excerpt taken from further into a long master than the offsets a trimmed copy needs', () => {
    const long = song([...BARS, ...REORDERED, ...BARS.slice(0, 4)], BAR_SEC); // 32 s
    const longFilter = new SafetyFilter({ catalogAudio: [{ id: 'long', features: extractFeatures(long, RATE) }] });
    const start = Math.round(16 * BAR_SEC * RATE); // 25.6 s in: far past MAX_PRINT_SHIFT codes
    expect(start / 1024).toBeGreaterThan(2 * MAX_PRINT_SHIFT);
    const r = longFilter.checkAudio(soundingElsewhere(extractFeatures(long.slice(start - Math.round(8 * BAR_SEC * RATE)), RATE)));
    expect(r.details.printAgreement).toBeGreaterThan(0.7);
    expect(r.playable).toBe(false);
  });
});

describe('music with the same chords and notes in another order is not a copy', () => {
  it.each([
    ['as it is', 0, 1],
    ['transposed up 2 semitones', 2, 1],
    ['8% faster', 0, 1.08],
  ])('%s', (_name, semitones, speed) => {
    const r = check(song(REORDERED, BAR_SEC / speed, semitones));
    expect(r.details.printAgreement).toBeLessThan(0.6);
    expect(r.playable).toBe(true);
  });

  it('random prints agree no more than before with transpositions and time scales tried', () => {
    const rng = new Rng(7);
    const print = () => Array.from({ length: 170 }, () => (1 << Math.floor(rng.next() * 12)) | (1 << Math.floor(rng.next() * 12)));
    for (let k = 0; k < 5; k++) expect(fingerprintAgreement(print(), print())).toBeLessThan(0.2);
  });
});

describe('short tracks (too few beat chords) are judged by their fingerprint, not their summary sound alone', () => {
  /** Another piece's features with the master's summary sound, 6 dB quieter, and too few beat chords. */
  const nearInSound = (f: AudioFeatures): AudioFeatures => ({
    ...masterFeatures,
    fingerprint: f.fingerprint,
    beatChords: f.beatChords.slice(0, 4),
    loudnessDb: masterFeatures.loudnessDb - 6,
    energy: masterFeatures.energy - 6 / 42,
  });
  const cut = Math.sqrt(1 - SAFETY_PLAYBACK_THRESHOLD);

  it('passes distinct music whose summary sound alone would have scored it a duplicate', () => {
    const other = nearInSound(extractFeatures(song(REORDERED, BAR_SEC), RATE));
    const soundAlone = similarityFromDistance(featureDistance(other, masterFeatures));
    expect(soundAlone).toBeGreaterThan(cut); // the rule before: flagged on sound alone
    expect(soundAlone).toBeLessThan(2 * cut); // ...but not so close that the sound is a copy's
    const r = filter.checkAudio(other);
    expect(r.details.printAgreement).toBeLessThan(0.5);
    expect(r.playable).toBe(true);
  });

  it('flags a copy with the same summary sound', () => {
    const r = filter.checkAudio(nearInSound(extractFeatures(master.subarray(RATE), RATE)));
    expect(r.details.printAgreement).toBeGreaterThan(0.7);
    expect(r.flagged_categories).toEqual(['audio_duplicate']);
  });
});
