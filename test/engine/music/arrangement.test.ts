/**
 * Arrangements that move (issue 18): one locked loop per section in the key for the loop genres, ninths
 * where they belong, and sections that differ in level on the render.
 */
import { describe, expect, it } from 'vitest';
import { emptyAudioModel, type AudioModel } from '../../../src/engine/compose/audio-model.js';
import { composeCandidate, composeScore } from '../../../src/engine/compose/index.js';
import { realiseChord } from '../../../src/engine/compose/harmony.js';
import type { Score } from '../../../src/engine/compose/score.js';
import { genreFamily } from '../../../src/engine/compose/style.js';
import { songLengthSec } from '../../../src/engine/compose/structure.js';
import { chordIndex } from '../../../src/engine/compose/chord-vocabulary.js';
import { SAMPLE_RATE, TARGET_LUFS, renderScore } from '../../../src/engine/music/render.js';
import type { MusicContext } from '../../../src/engine/types.js';
import { LOFI_CONTEXT, SYNTHWAVE_CONTEXT } from './helpers.js';

const POP_CONTEXT: MusicContext = { ...SYNTHWAVE_CONTEXT, genre: 'pop', subgenre: 'dance pop', mood: ['happy'], key_preference: 'major' };

/** A trained model that learned nothing but noise: every chord equally likely after every chord (24 of them, most out of key). */
function chromaticModel(): AudioModel {
  return { ...emptyAudioModel(), transitionsObserved: 1000 };
}

const NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];
const FLATS: Record<string, string> = { Db: 'C#', Eb: 'D#', Gb: 'F#', Ab: 'G#', Bb: 'A#' };
const pc = (name: string) => NAMES.indexOf(FLATS[name] ?? name);
/** "root:minor" of a chord symbol, extensions ignored. */
const triad = (symbol: string) => {
  const m = /^([A-G][#b]?)(m(?!aj))?/.exec(symbol)!;
  return `${pc(m[1])}:${m[2] !== undefined}`;
};
function inKey(score: Score): Set<string> {
  const steps = score.mode === 'major' ? [0, 2, 4, 5, 7, 9, 11] : [0, 2, 3, 5, 7, 8, 10];
  const set = new Set(steps.map((d, i) => `${(pc(score.key) + d) % 12}:${(steps[(i + 2) % 7] - d + 12) % 12 === 3}`));
  if (score.mode === 'minor') set.add(`${(pc(score.key) + 7) % 12}:false`);
  return set;
}

describe('loop lock', () => {
  it.each([
    ['lo-fi', LOFI_CONTEXT],
    ['synthwave', SYNTHWAVE_CONTEXT],
    ['pop', POP_CONTEXT],
  ])('%s: one loop of 2-4 chords per section, the key plus at most two borrowed chords, even from a noisy chain', (_, context) => {
    for (let seed = 0; seed < 12; seed++) {
      const score = composeScore({ context, seed, maxDurationSec: 150, model: chromaticModel() });
      const key = inKey(score);
      const borrowed = new Set(score.chordsPerBar.map(triad).filter((t) => !key.has(t)));
      expect(borrowed.size).toBeLessThanOrEqual(2);
      for (const section of score.sections.filter((s) => s.name !== 'intro' && s.name !== 'outro')) {
        const bars = score.chordsPerBar.slice(section.startBar, section.startBar + section.bars);
        const last = section === score.sections.at(-1) ? bars.length - 2 : bars.length; // the final cadence
        for (let i = 4; i < last; i++) expect(bars[i]).toBe(bars[i - 4]);
        expect(new Set(bars.slice(0, 4)).size).toBeLessThanOrEqual(4);
      }
    }
  });

  it('leaves jazz its learned chain (no lock): the same noisy model reaches chords outside the key', () => {
    const context = { ...LOFI_CONTEXT, genre: 'jazz', subgenre: 'cool jazz' };
    let outside = 0;
    for (let seed = 0; seed < 6; seed++) {
      const score = composeScore({ context, seed, maxDurationSec: 150, model: chromaticModel() });
      const key = inKey(score);
      outside += new Set(score.chordsPerBar.map(triad).filter((t) => !key.has(t))).size;
    }
    expect(outside).toBeGreaterThan(12);
  });
});

describe('sevenths and ninths', () => {
  it('adds the ninth where it is in the key and names it', () => {
    expect(realiseChord(chordIndex({ degree: 0, minor: false }), 'C', true, 'major')).toMatchObject({ symbol: 'Cmaj9', tones: [0, 4, 7, 11, 14] });
    expect(realiseChord(chordIndex({ degree: 9, minor: true }), 'C', true, 'major')).toMatchObject({ symbol: 'Am9', tones: [0, 3, 7, 10, 14] });
    expect(realiseChord(chordIndex({ degree: 7, minor: false }), 'C', true, 'major')).toMatchObject({ symbol: 'G9', tones: [0, 4, 7, 10, 14] });
    // iii in major: its ninth would be the key's flat second, so it stays a seventh chord.
    expect(realiseChord(chordIndex({ degree: 4, minor: true }), 'C', true, 'major')).toMatchObject({ symbol: 'Em7', tones: [0, 3, 7, 10] });
    expect(realiseChord(chordIndex({ degree: 0, minor: false }), 'C', true)).toMatchObject({ symbol: 'Cmaj7', tones: [0, 4, 7, 11] });
  });
});

describe('section contrast on a render', () => {
  it('lo-fi: the first chorus 3-8 dB over the first verse, the bridge under the chorus, the intro built without a jump', async () => {
    const context = LOFI_CONTEXT;
    const score = composeScore({ context, seed: 42, maxDurationSec: 100, model: emptyAudioModel() });
    const mono: number[][] = [];
    await renderScore(score, {
      durationSec: songLengthSec(100, 42),
      family: genreFamily(context),
      seed: 42,
      targetLufs: TARGET_LUFS,
      vocal: null,
      onBlock(left, right) {
        const block = new Array<number>(left.length);
        for (let i = 0; i < left.length; i++) block[i] = (left[i] + right[i]) / 2;
        mono.push(block);
      },
    });
    const pcm = Float32Array.from(mono.flat());
    const barSamples = Math.round(((4 * 60) / score.bpm) * SAMPLE_RATE);
    const barDb = (bar: number) => {
      let sum = 0;
      for (let i = bar * barSamples; i < (bar + 1) * barSamples; i++) sum += pcm[i] ** 2;
      return 10 * Math.log10(sum / barSamples);
    };
    const sectionDb = (name: string, nth = 0) => {
      const s = score.sections.filter((x) => x.name === name)[nth];
      const bars = Array.from({ length: s.bars }, (_, i) => barDb(s.startBar + i));
      return bars.reduce((a, b) => a + b, 0) / bars.length;
    };
    const verse = sectionDb('verse');
    const chorus = sectionDb('chorus');
    expect(chorus - verse).toBeGreaterThanOrEqual(3);
    expect(chorus - verse).toBeLessThanOrEqual(8);
    expect(chorus - sectionDb('bridge')).toBeGreaterThanOrEqual(3);
    const intro = score.sections[0];
    for (let bar = 1; bar <= intro.bars; bar++) expect(barDb(bar) - barDb(bar - 1)).toBeLessThan(6);
  }, 120_000);
});

describe('form per song', () => {
  it('draws the form per song for a trained model, always filling the bars; an untrained model keeps the one form', () => {
    const trained: AudioModel = emptyAudioModel();
    const forms = new Set<string>();
    for (let seed = 0; seed < 12; seed++) {
      const score = composeCandidateWithPools(seed, trained);
      expect(score.sections.reduce((n, s) => n + s.bars, 0) * 4).toBe(score.totalBeats);
      forms.add(score.sections.map((s) => s.name).join(' '));
    }
    expect(forms.size).toBeGreaterThanOrEqual(3);
    const plain = new Set(
      Array.from({ length: 6 }, (_, seed) =>
        composeScore({ context: LOFI_CONTEXT, seed, maxDurationSec: 180, model: emptyAudioModel() })
          .sections.map((s) => s.name)
          .join(' '),
      ),
    );
    expect([...plain]).toEqual(['intro verse chorus verse chorus bridge chorus outro']);
  });
});

function composeCandidateWithPools(seed: number, model: AudioModel): Score {
  return composeCandidate({ context: LOFI_CONTEXT, seed, maxDurationSec: 180, model }, 0, true);
}
