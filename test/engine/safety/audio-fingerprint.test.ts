/**
 * Issue 18: at 8 seconds a catalog master holds too few beat chords to tell a copy, and its summary sound
 * moves when it is merely re-encoded, so near-duplicate copies passed the audio filter. The chroma fingerprint
 * (features/fingerprint.ts) is aligned in time against the catalog's (safety/audio-duplicate.ts): a copy
 * matches note for note at some offset whatever its summary features say; unrelated music does not.
 */
import { describe, expect, it } from 'vitest';
import { extractFeatures } from '../../../src/engine/features/extract.js';
import { Rng } from '../../../src/engine/random.js';
import { fingerprintAgreement, MAX_PRINT_SHIFT, MIN_PRINT_OVERLAP, similarityFromPrint } from '../../../src/engine/safety/audio-duplicate.js';
import { SafetyFilter, SAFETY_PLAYBACK_THRESHOLD } from '../../../src/engine/safety/index.js';
import { soundingElsewhere } from './sounding-elsewhere.js';

const RATE = 22050;
const hz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);

/** Chords of three sine tones, each held `beatSec`, with a click on each change. */
function chords(progression: number[][], beatSec: number): Float32Array {
  const per = Math.round(beatSec * RATE);
  const pcm = new Float32Array(per * progression.length);
  progression.forEach((notes, k) => {
    for (let i = 0; i < per; i++) {
      const t = i / RATE;
      let v = 0;
      for (const n of notes) v += Math.sin(2 * Math.PI * hz(n) * t) / notes.length;
      pcm[k * per + i] = 0.5 * v * Math.min(1, i / 200) + (i < 40 ? 0.3 * (1 - i / 40) : 0);
    }
  });
  return pcm;
}

/** A random 12-bit code sequence (distinct music), `silentShare` of it silent. */
function randomPrint(seed: number, length: number, silentShare = 0): number[] {
  const rng = new Rng(seed);
  return Array.from({ length }, () => (rng.next() < silentShare ? 0 : (1 << Math.floor(rng.next() * 12)) | (1 << Math.floor(rng.next() * 12))));
}

describe('chroma fingerprint', () => {
  it('names the pitch classes of what sounds, one code per 46 ms frame, and nothing for silence', () => {
    const cMajor = [60, 64, 67]; // C E G
    const pcm = new Float32Array(RATE * 3);
    pcm.set(chords([cMajor, cMajor], 1));
    const print = extractFeatures(pcm, RATE).fingerprint!;
    expect(print.length).toBe(60); // 63 frames of 46 ms, one code per window of 4
    const sounding = print.slice(5, 35);
    for (const code of sounding) expect(code).toBe((1 << 0) | (1 << 4) | (1 << 7));
    expect(print.slice(-10).every((code) => code === 0)).toBe(true);
  });

  it('agrees fully with itself, with a copy trimmed or padded within the offsets tried, and with a copy with a few codes changed', () => {
    const print = randomPrint(1, 170, 0.1);
    expect(fingerprintAgreement(print, print)).toBe(1);
    expect(fingerprintAgreement(print.slice(22), print)).toBe(1); // the first second trimmed
    expect(fingerprintAgreement([...new Array(MAX_PRINT_SHIFT).fill(0), ...print], print)).toBe(1);
    const noisy = print.map((code, i) => (i % 10 === 3 ? code ^ 0b100000000001 : code));
    expect(fingerprintAgreement(noisy, print)).toBeGreaterThan(0.7);
  });

  it('finds no agreement between unrelated prints, or beyond the offsets tried, and none on too little music', () => {
    const a = randomPrint(2, 170);
    const b = randomPrint(3, 170);
    expect(fingerprintAgreement(a, b)).toBeLessThan(0.2);
    expect(fingerprintAgreement([...new Array(MAX_PRINT_SHIFT + 40).fill(0), ...a], a)).toBeLessThan(0.2);
    expect(fingerprintAgreement(a.slice(0, MIN_PRINT_OVERLAP - 1), a)).toBe(0);
  });

  it('maps agreement 0.70 onto the playback cut', () => {
    const cut = Math.sqrt(1 - SAFETY_PLAYBACK_THRESHOLD);
    expect(similarityFromPrint(0.7)).toBeCloseTo(cut, 2);
    expect(similarityFromPrint(0.4)).toBe(0);
    expect(similarityFromPrint(1)).toBe(1);
  });
});

describe('audio filter with fingerprints', () => {
  const progression = [
    [60, 64, 67],
    [57, 60, 64],
    [65, 69, 72],
    [67, 71, 74],
    [62, 65, 69],
    [64, 67, 71],
    [60, 64, 67],
    [65, 69, 72],
  ];
  const master = extractFeatures(chords(progression, 1), RATE);
  const other = extractFeatures(chords([...progression].reverse(), 1), RATE);

  it('flags a copy whose summary sound moved, by its fingerprint, and names the master', () => {
    const filter = new SafetyFilter({ catalogAudio: [{ id: 'master', features: master }] });
    const copy = soundingElsewhere(extractFeatures(chords(progression, 1).subarray(RATE / 2), RATE));
    const r = filter.checkAudio(copy);
    expect(r.details.printAgreement).toBeGreaterThan(0.9);
    expect(r.details.nearestId).toBe('master');
    expect(r.flagged_categories).toEqual(['audio_duplicate']);
  });

  it('lets the same copy pass when the features carry no fingerprint (features from before it existed)', () => {
    const filter = new SafetyFilter({ catalogAudio: [{ id: 'master', features: { ...master, fingerprint: undefined } }] });
    const copy = soundingElsewhere(extractFeatures(chords(progression, 1).subarray(RATE / 2), RATE));
    const r = filter.checkAudio(copy);
    expect(r.details.printAgreement).toBeUndefined();
    expect(r.playable).toBe(true);
  });

  it('passes the same chords in another order, sounding elsewhere', () => {
    const filter = new SafetyFilter({ catalogAudio: [{ id: 'master', features: master }] });
    const r = filter.checkAudio(soundingElsewhere(other));
    expect(r.details.printAgreement).toBeLessThan(0.7);
    expect(r.playable).toBe(true);
  });
});
