/**
 * The sung vocal, measured on rendered stems: pitch against the melody (YIN), syllables and line timing,
 * vowel formants (LPC) against published ranges, and the melody's fit to the score.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { centsBetween } from '../../../src/engine/audio/pitch.js';
import { estimateFormants } from '../../../src/engine/audio/formants.js';
import { emptyAudioModel } from '../../../src/engine/compose/audio-model.js';
import { composeScore } from '../../../src/engine/compose/index.js';
import type { Score } from '../../../src/engine/compose/score.js';
import { createPronouncer } from '../../../src/engine/pronounce/index.js';
import { VOICES, chooseVoice, prepareVocals, renderVocalStem, type VocalStem } from '../../../src/engine/voice/index.js';
import { midiToHz } from '../../../src/engine/voice/pitch-contour.js';
import { isVowel } from '../../../src/engine/pronounce/phonemes.js';
import { lineOnsetsSec, trackPitch } from './analysis.js';
import { ENGLISH_LYRICS, POP_CONTEXT, SPANISH_LYRICS, sustainedVowels } from './fixtures.js';

const FS = 44100;
const DURATION_SEC = 80;

/** Published F1/F2 ranges (Hz) for men's and women's voices together: Peterson & Barney (1952) and
 *  Hillenbrand et al. (1995) means, widened by about two standard deviations. */
const VOWEL_RANGES = {
  AA: { f1: [600, 1100], f2: [900, 1600] }, // /ɑ/ "hod": PB 730/1090 (m) 850/1220 (w); H95 768/1333, 936/1551
  IY: { f1: [200, 500], f2: [1900, 3300] }, // /i/ "heed": PB 270/2290, 310/2790; H95 342/2322, 437/2761
  UW: { f1: [230, 520], f2: [650, 1400] }, // /u/ "who'd": PB 300/870, 370/950; H95 378/997, 459/1105
} as const;

describe('sung vocals (English, 80 s arrangement)', () => {
  let score: Score;
  let stem: VocalStem;

  beforeAll(async () => {
    score = composeScore({ context: POP_CONTEXT, seed: 7, maxDurationSec: DURATION_SEC, model: emptyAudioModel() });
    const vocals = await prepareVocals(score, ENGLISH_LYRICS, { seed: 7, family: 'pop', swing: 0, durationSec: DURATION_SEC, sampleRate: FS });
    stem = vocals!.stem;
  });

  it('sings the melody in tune: YIN pitch within 50 cents of the sounding note on >= 90% of voiced frames', () => {
    const frames = trackPitch(stem.samples, FS);
    let voiced = 0;
    let inTune = 0;
    for (const frame of frames) {
      if (frame.f0 === 0) continue;
      // The note sounding at the frame, or the line's last note during its release.
      const note =
        stem.notes.find((n) => n.startSec <= frame.timeSec && frame.timeSec < n.endSec) ??
        stem.notes.findLast((n) => n.endSec <= frame.timeSec && frame.timeSec - n.endSec < 0.1);
      voiced++;
      if (note && Math.abs(centsBetween(frame.f0, midiToHz(note.midi))) <= 50) inTune++;
    }
    expect(voiced).toBeGreaterThan(1000);
    expect(inTune / voiced).toBeGreaterThanOrEqual(0.9);
  });

  it('sings every syllable of the lines it uses, each voiced at its place, and starts each line within 50 ms of its note', async () => {
    const en = await createPronouncer('en');
    const { melody, timeline } = stem;
    expect(melody.lines.length).toBeGreaterThanOrEqual(8);
    // The lines used, in order, with the syllable counts of the pronunciation step.
    for (const line of melody.lines) {
      const lyricLines = ENGLISH_LYRICS.sections[line.section].split('\n');
      expect(lyricLines).toContain(line.text);
      expect(line.syllableCount).toBe(en.line(line.text).syllables.length);
    }
    const expected = melody.lines.reduce((n, l) => n + en.line(l.text).syllables.length, 0);
    expect(melody.syllables).toHaveLength(expected);
    for (const s of melody.syllables) expect(s.notes.length).toBeGreaterThanOrEqual(1);

    // Measured on the stem: each sung syllable's vowel is voiced (YIN) and audible where it was placed.
    const frames = trackPitch(stem.samples, FS, { hopSec: 0.005 });
    const hop = frames[1].timeSec - frames[0].timeSec;
    let sung = 0;
    melody.syllables.forEach((_, index) => {
      const vowels = timeline.segments.filter((seg) => seg.syllable === index && isVowel(seg.phone));
      const from = vowels[0].startSec;
      const to = vowels[vowels.length - 1].endSec;
      const inside = frames.slice(Math.ceil((from - frames[0].timeSec) / hop), Math.floor((to - frames[0].timeSec) / hop));
      if (inside.length > 0 && inside.filter((f) => f.f0 > 0).length / inside.length >= 0.6) sung++;
    });
    expect(sung).toBe(expected);

    const noteStarts = melody.lines.map((l) => stem.notes[melody.syllables[l.firstSyllable].notes[0]].startSec);
    const onsets = lineOnsetsSec(stem.samples, FS, noteStarts);
    onsets.forEach((onset, i) => expect(Math.abs(onset - noteStarts[i]) * 1000, melody.lines[i].text).toBeLessThanOrEqual(50));
  });

  it('fits the score: in range, in key or on the chord, rests at line ends, the chorus sung the same each time', () => {
    const { melody } = stem;
    const [low, high] = melody.range;
    const spans = score.harmony.spans;
    for (const note of melody.notes) {
      expect(note.midi).toBeGreaterThanOrEqual(low);
      expect(note.midi).toBeLessThanOrEqual(high);
      const span = spans.findLast((s) => s.startBeat <= note.startBeat + 1e-9)!;
      const chordTones = span.chord.tones.map((t) => (span.chord.rootPitchClass + t) % 12);
      expect(score.harmony.scale.includes(note.midi % 12) || chordTones.includes(note.midi % 12)).toBe(true);
    }
    for (let i = 1; i < melody.lines.length; i++) expect(melody.lines[i].startBeat - melody.lines[i - 1].endBeat).toBeGreaterThanOrEqual(0.5);
    // Prosody: stressed syllables start on the beat (straight groove here).
    const stressed = melody.syllables.filter((s) => s.stress === 1);
    expect(stressed.filter((s) => melody.notes[s.notes[0]].startBeat % 1 === 0).length / stressed.length).toBeGreaterThanOrEqual(0.9);
    // Every chorus: the same rhythm and pitches relative to its first note.
    const shapes = new Map<string, string[]>();
    melody.lines.forEach((line) => {
      if (line.section !== 'chorus') return;
      const notes = melody.notes.filter((n) => n.syllable >= line.firstSyllable && n.syllable < line.firstSyllable + line.syllableCount);
      const shape = notes.map((n) => `${n.midi}@${(n.startBeat - line.startBeat).toFixed(3)}`).join(' ');
      shapes.set(line.text, [...(shapes.get(line.text) ?? []), shape]);
    });
    expect(shapes.size).toBeGreaterThan(0);
    for (const [, sung] of shapes) expect(new Set(sung).size).toBe(1);
    // The chorus sits higher than the verse (the hook).
    const mean = (section: string) => {
      const notes = melody.notes.filter((n) => melody.lines[melody.syllables[n.syllable].line].section.startsWith(section));
      return notes.reduce((s, n) => s + n.midi, 0) / notes.length;
    };
    expect(mean('chorus')).toBeGreaterThan(mean('verse'));
  });
});

describe('vowel formants', () => {
  it('puts F1/F2 of sustained /a/, /i/, /u/ inside the published ranges on >= 80% of frames, for every voice', () => {
    for (const voice of Object.values(VOICES)) {
      const midi = Math.round((voice.range[0] + voice.range[1]) / 2) - 3; // the middle of the voice
      const stem = renderVocalStem(sustainedVowels(['AA', 'IY', 'UW'], midi, voice.range), { bpm: 120, voice, seed: 1, durationSec: 6.5, sampleRate: FS });
      const frames = estimateFormants(stem.samples, FS);
      (['AA', 'IY', 'UW'] as const).forEach((vowel, i) => {
        // The steady middle of each 1.25 s vowel.
        const steady = frames.filter((f) => f.timeSec > i * 2 + 0.25 && f.timeSec < i * 2 + 1.05);
        const { f1, f2 } = VOWEL_RANGES[vowel];
        const inside = steady.filter((f) => f.formants[0] >= f1[0] && f.formants[0] <= f1[1] && f.formants[1] >= f2[0] && f.formants[1] <= f2[1]);
        expect(inside.length / steady.length, `${voice.id} ${vowel}`).toBeGreaterThanOrEqual(0.8);
      });
    }
  });
});

describe('voices and languages', () => {
  it('casts different voices by genre and seed', () => {
    const cast = (family: Parameters<typeof chooseVoice>[0]) => new Set(Array.from({ length: 40 }, (_, seed) => chooseVoice(family, seed).id));
    expect(cast('pop').size).toBeGreaterThanOrEqual(2);
    expect(cast('rock').has('soprano')).toBe(false);
    expect(cast('ambient').has('baritone')).toBe(false);
    expect(chooseVoice('pop', 3)).toBe(chooseVoice('pop', 3));
  });

  it('leaves a track too short for any whole line instrumental', async () => {
    const short = composeScore({ context: POP_CONTEXT, seed: 1, maxDurationSec: 5, model: emptyAudioModel() });
    expect(await prepareVocals(short, ENGLISH_LYRICS, { seed: 1, family: 'pop', swing: 0, durationSec: 5, sampleRate: FS })).toBeNull();
  });

  it('sings Spanish lyrics, synalepha included, deterministically', async () => {
    const score = composeScore({ context: POP_CONTEXT, seed: 11, maxDurationSec: 40, model: emptyAudioModel() });
    const options = { seed: 11, family: 'folk' as const, swing: 0, durationSec: 40, sampleRate: FS };
    const [a, b] = [await prepareVocals(score, SPANISH_LYRICS, options), await prepareVocals(score, SPANISH_LYRICS, options)];
    const es = await createPronouncer('es');
    expect(a!.stem.melody.lines.length).toBeGreaterThanOrEqual(2);
    for (const line of a!.stem.melody.lines) expect(line.syllableCount).toBe(es.line(line.text).syllables.length);
    expect(Buffer.from(a!.stem.samples.buffer).equals(Buffer.from(b!.stem.samples.buffer))).toBe(true);
  });
});
