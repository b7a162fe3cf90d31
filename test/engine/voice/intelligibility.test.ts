/**
 * What makes the sung words understandable, where it can be exact: consonant length and noise band, onsets
 * before the beat, each song's tessitura inside its voice's range, a seeded drift (same seed, same samples),
 * and the mix's room for the voice (vocal-space.ts).
 */
import { describe, expect, it } from 'vitest';
import { songTessitura, type VocalMelody } from '../../../src/engine/compose/vocal-melody.js';
import { DEESS_MAX_DB, MAX_CUT_DB, VocalSpace } from '../../../src/engine/mix/vocal-space.js';
import type { Consonant, Vowel } from '../../../src/engine/pronounce/phonemes.js';
import { VOICES, renderVocalStem } from '../../../src/engine/voice/index.js';
import { PitchContour } from '../../../src/engine/voice/pitch-contour.js';
import { timeMelody } from '../../../src/engine/voice/timing.js';
import { bandPass } from './analysis.js';

const FS = 44100;
const BPM = 90;

/** One line of syllables, each on its own note of `beats` beats. */
function line(syllables: [Consonant[], Vowel, Consonant[]][], beats = 1, midi = 55): VocalMelody {
  const melody: VocalMelody = { range: [45, 72], notes: [], syllables: [], lines: [] };
  syllables.forEach(([onset, vowel, coda], i) => {
    melody.syllables.push({ onset, nucleus: [vowel], coda, stress: 1, text: vowel, line: 0, notes: [i] });
    melody.notes.push({ midi, startBeat: 1 + i * beats, durationBeats: beats, velocity: 100, syllable: i });
  });
  melody.lines.push({ section: 'test', text: 'test', startBeat: 1, endBeat: 1 + syllables.length * beats, firstSyllable: 0, syllableCount: syllables.length });
  return melody;
}

const energy = (x: ArrayLike<number>, from: number, to: number) => {
  let e = 0;
  for (let i = Math.round(from * FS); i < Math.round(to * FS); i++) e += x[i] * x[i];
  return e / Math.max(1, Math.round(to * FS) - Math.round(from * FS));
};
const db = (x: number) => 10 * Math.log10(x + 1e-20);

describe('consonants', () => {
  it('holds fricatives and nasals 60 ms or more, and sings a line-inner onset before the note so the vowel starts on it', () => {
    const melody = line([
      [[], 'AA', []],
      [['S'], 'AA', []],
      [['F'], 'IY', []],
      [['M'], 'AA', []],
      [['SH'], 'OW', []],
    ]);
    const timeline = timeMelody(melody, BPM);
    for (const seg of timeline.segments.filter((s) => s.role === 'onset')) {
      expect(seg.endSec - seg.startSec, seg.phone).toBeGreaterThanOrEqual(0.06);
      const note = timeline.notes[melody.syllables[seg.syllable].notes[0]];
      // The consonant ends, and the vowel starts, on the note's start.
      expect(Math.abs(seg.endSec - note.startSec) * 1000, seg.phone).toBeLessThan(0.5);
      const vowel = timeline.segments.find((s) => s.syllable === seg.syllable && s.role === 'nucleus')!;
      expect(Math.abs(vowel.startSec - note.startSec) * 1000).toBeLessThan(0.5);
    }
  });

  it('puts the frication of /s/ and the burst of /t/ at 4-9 kHz, above the vowel there', () => {
    const melody = line([
      [[], 'AA', []],
      [['S'], 'AA', []],
      [['T'], 'AA', []],
    ]);
    const stem = renderVocalStem(melody, { bpm: BPM, voice: VOICES.tenor, seed: 3, durationSec: 6, sampleRate: FS });
    const high = bandPass(stem.samples, FS, 4000, 9000);
    const vowel = stem.timeline.segments.find((s) => s.syllable === 0 && s.role === 'nucleus')!;
    const s = stem.timeline.segments.find((seg) => seg.phone === 'S')!;
    const t = stem.timeline.segments.find((seg) => seg.phone === 'T')!;
    const vowelHigh = db(energy(high, vowel.startSec + 0.05, vowel.endSec - 0.05));
    // /s/: most of its energy at 4-9 kHz, and 15 dB or more above the vowel's energy in that band.
    const sMiddle = [s.startSec + 0.02, s.endSec - 0.02] as const;
    expect(energy(high, ...sMiddle) / energy(stem.samples, ...sMiddle)).toBeGreaterThan(0.5);
    expect(db(energy(high, ...sMiddle)) - vowelHigh).toBeGreaterThan(15);
    // /t/: its release (burst and aspiration, the closure's second half) is 10 dB or more above the vowel at 4-9 kHz.
    expect(db(energy(high, (t.startSec + t.endSec) / 2, t.endSec)) - vowelHigh).toBeGreaterThan(10);
  });
});

describe('range and drift', () => {
  it('keeps every song inside its voice, an octave and a bit wide, placed by the seed; the alto tops out at C5', () => {
    expect(VOICES.alto.range[1]).toBeLessThanOrEqual(72);
    for (const voice of Object.values(VOICES)) {
      const bottoms = new Set<number>();
      for (let seed = 0; seed < 30; seed++) {
        const [low, high] = songTessitura(voice.range, seed);
        expect(low).toBeGreaterThanOrEqual(voice.range[0]);
        expect(high).toBeLessThanOrEqual(voice.range[1]);
        expect(high - low).toBeGreaterThanOrEqual(12);
        expect(high - low).toBeLessThanOrEqual(15);
        bottoms.add(low);
      }
      expect(bottoms.size, voice.id).toBeGreaterThanOrEqual(3);
      expect(songTessitura(voice.range, 9)).toEqual(songTessitura(voice.range, 9));
    }
  });

  it('lands each note a few cents off, seeded, and grows the vibrato over the note', () => {
    const melody = line(
      Array.from({ length: 12 }, () => [[], 'AA', []] as [Consonant[], Vowel, Consonant[]]),
      2,
    );
    const { notes } = timeMelody(melody, BPM);
    const voice = VOICES.tenor;
    const contour = new PitchContour(notes, voice, 5);
    // Before the vibrato starts, the pitch sits off the note by the note's detune (plus a few cents of wander).
    const offsets = notes.map((n) => (contour.midiAt(n.startSec + 0.1) - n.midi) * 100);
    for (const cents of offsets) expect(Math.abs(cents)).toBeLessThanOrEqual(16 + 4 + 1);
    const mean = offsets.reduce((a, b) => a + b, 0) / offsets.length;
    const sd = Math.sqrt(offsets.reduce((a, b) => a + (b - mean) ** 2, 0) / offsets.length);
    expect(sd).toBeGreaterThan(2);
    expect(new PitchContour(notes, voice, 5).midiAt(notes[3].startSec + 0.1)).toBe(contour.midiAt(notes[3].startSec + 0.1));
    // Vibrato: the swing over one cycle is small just after it starts and near full depth half a second on.
    const swing = (from: number) => {
      const c = new PitchContour(notes, voice, 5);
      let lo = Infinity;
      let hi = -Infinity;
      for (let t = from; t < from + 1 / voice.vibratoHz; t += 0.002) {
        const m = c.midiAt(t);
        lo = Math.min(lo, m);
        hi = Math.max(hi, m);
      }
      return (hi - lo) * 100;
    };
    const start = notes[4].startSec + voice.vibratoDelaySec;
    expect(swing(start)).toBeLessThan(swing(start + 0.55) * 0.5);
  });

  it('sings the same samples for the same seed, and another take for another seed', () => {
    const melody = line([
      [['S'], 'AA', ['T']],
      [['L'], 'IY', []],
      [['M'], 'OW', []],
    ]);
    const render = (seed: number) => renderVocalStem(melody, { bpm: BPM, voice: VOICES.alto, seed, durationSec: 4, sampleRate: FS }).samples;
    const a = render(8);
    expect(Buffer.from(a.buffer).equals(Buffer.from(render(8).buffer))).toBe(true);
    expect(Buffer.from(a.buffer).equals(Buffer.from(render(9).buffer))).toBe(false);
  });
});

describe('room for the voice in the mix', () => {
  const sine = (hz: number, amplitude: number, seconds = 1) =>
    Float32Array.from({ length: seconds * FS }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / FS));
  const run = (backing: Float32Array, vocal: Float32Array) => {
    const space = new VocalSpace(FS);
    const left = backing.slice();
    const right = backing.slice();
    const voice = vocal.slice();
    for (let start = 0; start < left.length; start += 1024) {
      const n = Math.min(1024, left.length - start);
      space.process(left.subarray(start, start + n), right.subarray(start, start + n), voice.subarray(start, start + n), n);
    }
    return { left, right, voice };
  };
  const tailDb = (x: Float32Array, reference: Float32Array) => db(energy(x, 0.5, 1) / energy(reference, 0.5, 1));

  it('cuts the backing at 1-5 kHz by up to MAX_CUT_DB while the voice sings there, and leaves the lows alone', () => {
    const silent = new Float32Array(FS);
    const key = sine(2200, 0.3);
    const mid = sine(2240, 0.2);
    const low = sine(100, 0.2);
    expect(tailDb(run(mid, key).left, mid)).toBeCloseTo(-MAX_CUT_DB, 0);
    expect(tailDb(run(mid, key).right, mid)).toBeCloseTo(-MAX_CUT_DB, 0);
    expect(Math.abs(tailDb(run(mid, silent).left, mid))).toBeLessThan(0.1);
    expect(Math.abs(tailDb(run(low, key).left, low))).toBeLessThan(0.3);
  });

  it('de-esses loud sibilance by at most DEESS_MAX_DB and leaves quiet sibilance and the vowel band alone', () => {
    const silent = new Float32Array(FS);
    const loud = sine(7100, 0.5);
    const quiet = sine(7100, 0.02);
    const vowel = sine(500, 0.5);
    const loudDb = tailDb(run(silent, loud).voice, loud);
    expect(loudDb).toBeLessThan(-3);
    expect(loudDb).toBeGreaterThanOrEqual(-DEESS_MAX_DB - 0.1);
    expect(Math.abs(tailDb(run(silent, quiet).voice, quiet))).toBeLessThan(0.1);
    expect(Math.abs(tailDb(run(silent, vowel).voice, vowel))).toBeLessThan(0.5);
  });
});
