/**
 * Vowels and their transitions, the cues a listener (and a recogniser trained on speech) hears words by:
 * speech-like F1 on close vowels at high notes, formant transitions of speech length into and out of
 * consonants whatever the note's length, and F2 moving from a consonant's locus to the vowel on the
 * rendered stem (LPC).
 */
import { describe, expect, it } from 'vitest';
import { estimateFormants } from '../../../src/engine/audio/formants.js';
import type { VocalMelody } from '../../../src/engine/compose/vocal-melody.js';
import type { Consonant, Vowel } from '../../../src/engine/pronounce/phonemes.js';
import { OPEN_F1_RAISE, T, TRANSITION_SEC, buildTracks, tunedF1 } from '../../../src/engine/voice/articulation.js';
import { VOICES, renderVocalStem } from '../../../src/engine/voice/index.js';
import { midiToHz } from '../../../src/engine/voice/pitch-contour.js';
import { CONSONANT_TARGETS, VOWEL_TARGETS } from '../../../src/engine/voice/targets.js';
import { timeMelody } from '../../../src/engine/voice/timing.js';

const FS = 44100;
const BPM = 90;

/** One line of syllables, each on its own note of `beats` beats. */
function line(syllables: [Consonant[], Vowel, Consonant[]][], beats = 1, midi = 50): VocalMelody {
  const melody: VocalMelody = { range: [45, 72], notes: [], syllables: [], lines: [] };
  syllables.forEach(([onset, vowel, coda], i) => {
    melody.syllables.push({ onset, nucleus: [vowel], coda, stress: 1, text: vowel, line: 0, notes: [i] });
    melody.notes.push({ midi, startBeat: 1 + i * beats, durationBeats: beats, velocity: 100, syllable: i });
  });
  melody.lines.push({ section: 'test', text: 'test', startBeat: 1, endBeat: 1 + syllables.length * beats, firstSyllable: 0, syllableCount: syllables.length });
  return melody;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

describe('vowel targets at high notes', () => {
  it('keeps the speech F1 of close and mid vowels on a high note, and raises an open vowel by at most OPEN_F1_RAISE', () => {
    const voice = VOICES.alto;
    const c5 = midiToHz(72); // the alto's top note: 523 Hz, above every close vowel's F1
    const melody = line(
      [
        [[], 'IY', []],
        [[], 'UW', []],
        [[], 'EH', []],
        [[], 'AA', []],
      ],
      2,
      72,
    );
    const timeline = timeMelody(melody, BPM);
    const { tract } = buildTracks(timeline, voice);
    const row = new Float64Array(tract.width);
    const sungF1 = (vowel: Vowel, f0 = c5) => {
      const seg = timeline.segments.find((s) => s.phone === vowel)!;
      tract.read((seg.startSec + seg.endSec) / 2, row);
      return tunedF1(row[T.F1], row[T.F1_RAISE], f0);
    };
    for (const vowel of ['IY', 'UW', 'EH'] as const) {
      // Peterson & Barney's F1, scaled to the alto's tract, within 2 %.
      expect(sungF1(vowel) / (VOWEL_TARGETS[vowel].f[0] * voice.formantScale), vowel).toBeCloseTo(1, 1);
    }
    const aa = VOWEL_TARGETS.AA.f[0] * voice.formantScale;
    // /a/'s F1 (832 Hz here) is above C5 already; a pitch above it pulls F1 up, by OPEN_F1_RAISE at most.
    expect(sungF1('AA')).toBeCloseTo(aa, 6);
    expect(sungF1('AA', 850)).toBeCloseTo(850 * 1.05, 6);
    expect(sungF1('AA', 1200)).toBeCloseTo(aa * OPEN_F1_RAISE, 6);
    expect(sungF1('IY', 1200)).toBeCloseTo(VOWEL_TARGETS.IY.f[0] * voice.formantScale, 6);
    // On a low note nothing moves.
    expect(tunedF1(aa, OPEN_F1_RAISE, midiToHz(50))).toBe(aa);
  });
});

describe('formant transitions', () => {
  it('reaches the vowel target TRANSITION_SEC after a consonant on short and long notes alike', () => {
    for (const beats of [0.5, 3]) {
      const melody = line(
        [
          [[], 'AA', []],
          [['D'], 'IY', []],
          [['B'], 'AA', []],
        ],
        beats,
      );
      const timeline = timeMelody(melody, BPM);
      const { tract } = buildTracks(timeline, VOICES.tenor);
      const row = new Float64Array(tract.width);
      const iy = timeline.segments.find((s) => s.phone === 'IY')!;
      const target = VOWEL_TARGETS.IY.f[1] * VOICES.tenor.formantScale;
      tract.read(iy.startSec + TRANSITION_SEC, row);
      expect(row[T.F2] / target, `${beats} beats`).toBeCloseTo(1, 2);
      // Halfway through the transition F2 is still on its way up from /d/'s locus.
      tract.read(iy.startSec + TRANSITION_SEC / 2, row);
      expect(row[T.F2], `${beats} beats`).toBeLessThan(target - 100);
      // And it leaves the target TRANSITION_SEC before the vowel ends, for /b/'s low locus.
      tract.read(iy.endSec - TRANSITION_SEC, row);
      expect(row[T.F2] / target).toBeCloseTo(1, 2);
      tract.read(iy.endSec, row);
      expect(row[T.F2]).toBeLessThan(target - 200);
    }
  });

  it('moves F2 on the rendered stem from the locus of /w/ up into /i/ and from /d/ down into /u/', () => {
    const melody = line(
      [
        [[], 'AA', []],
        [['W'], 'IY', []],
        [['D'], 'UW', []],
      ],
      2,
    );
    const stem = renderVocalStem(melody, { bpm: BPM, voice: VOICES.tenor, seed: 4, durationSec: 6, sampleRate: FS });
    const frames = estimateFormants(stem.samples, FS);
    const f2 = (from: number, to: number) =>
      median(frames.filter((f) => f.timeSec >= from && f.timeSec <= to && f.formants.length > 1).map((f) => f.formants[1]));
    const vowel = (v: Vowel) => stem.timeline.segments.find((s) => s.phone === v)!;
    const iy = vowel('IY');
    const uw = vowel('UW');
    const steadyIy = f2(iy.startSec + 0.15, iy.endSec - 0.15);
    const steadyUw = f2(uw.startSec + 0.15, uw.endSec - 0.15);
    // The steady vowels sit near their targets (LPC within 10 %) ...
    expect(steadyIy / VOWEL_TARGETS.IY.f[1]).toBeGreaterThan(0.9);
    expect(Math.abs(steadyUw / VOWEL_TARGETS.UW.f[1] - 1)).toBeLessThan(0.1);
    // ... and the transitions are there: F2 at the vowel's first 20 ms is well away from the steady value,
    // towards the consonant's locus (/w/ low, /d/ about 1700 Hz).
    expect(f2(iy.startSec - 0.005, iy.startSec + 0.02)).toBeLessThan(steadyIy - 250);
    expect(f2(uw.startSec - 0.005, uw.startSec + 0.02)).toBeGreaterThan(steadyUw + 150);
    expect(CONSONANT_TARGETS.W.f[1]).toBeLessThan(CONSONANT_TARGETS.D.f[1]);
  });
});
