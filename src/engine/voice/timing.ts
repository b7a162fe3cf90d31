/**
 * From notes to a phoneme timeline, the way singers time words: the vowel carries the note, so a
 * syllable's onset consonants are sung before the beat (anticipation: the whole onset, up to 130 ms, inside a
 * line; at most 40 ms at a line's start so the line begins on its note) and its coda consonants at the very end of
 * its last note, where the next syllable's onset follows. Consonants shrink when the notes are too short
 * to keep the vowel at least ~40% of the syllable.
 */
import type { VocalMelody } from '../compose/vocal-melody.js';
import type { Consonant, Vowel } from '../pronounce/phonemes.js';
import { Rng } from '../random.js';
import { CONSONANT_TARGETS } from './targets.js';

export interface TimedNote {
  midi: number;
  startSec: number;
  endSec: number;
  velocity: number;
  syllable: number;
  line: number;
  /** First note of a line: it gets the scoop onset. */
  lineStart: boolean;
}

export interface Segment {
  phone: Vowel | Consonant;
  role: 'onset' | 'nucleus' | 'coda';
  startSec: number;
  endSec: number;
  syllable: number;
  line: number;
}

export interface VocalTimeline {
  notes: TimedNote[];
  segments: Segment[];
  /** Each line's sounding span (first consonant to release), for rendering windows. */
  lines: { startSec: number; endSec: number; noteStartSec: number }[];
}

const LINE_START_ANTICIPATION = 0.04;
/** Inside a line the whole onset (up to this long) is sung before the note, so the vowel lands on the beat. */
const ANTICIPATION = 0.13;
const MIN_VOWEL_SHARE = 0.4;

function clusterDuration(cluster: readonly Consonant[]): number {
  const factor = cluster.length > 1 ? 0.75 : 1; // consonants in clusters are shorter
  return cluster.reduce((sum, c) => sum + CONSONANT_TARGETS[c].dur * factor, 0);
}

/** Singers place notes a little around the grid: each note moves by a seeded Gaussian of this standard
 *  deviation (seconds), at most TIMING_MAX_SEC and a sixth of the shorter neighbouring note. */
const TIMING_SD_SEC = 0.006;
const TIMING_MAX_SEC = 0.015;

/** Notes in seconds, with the voice's small timing drift when `seed` is given (deterministic per seed). */
export function timeMelody(melody: VocalMelody, bpm: number, seed?: number): VocalTimeline {
  const spb = 60 / bpm;
  const notes: TimedNote[] = melody.notes.map((n, i) => ({
    midi: n.midi,
    startSec: n.startBeat * spb,
    endSec: (n.startBeat + n.durationBeats) * spb,
    velocity: n.velocity,
    syllable: n.syllable,
    line: melody.syllables[n.syllable].line,
    lineStart: i === 0 || melody.syllables[melody.notes[i - 1].syllable].line !== melody.syllables[n.syllable].line,
  }));
  if (seed !== undefined) driftTiming(notes, seed);
  const segments: Segment[] = [];
  const lines: VocalTimeline['lines'] = [];
  melody.lines.forEach((line, li) => {
    const sylls = melody.syllables.slice(line.firstSyllable, line.firstSyllable + line.syllableCount);
    const spans = sylls.map((s) => ({ start: notes[s.notes[0]].startSec, end: notes[s.notes[s.notes.length - 1]].endSec }));
    const onsetStart = sylls.map((s, k) => {
      const cap = k === 0 ? LINE_START_ANTICIPATION : ANTICIPATION;
      // Never reach back into the previous syllable's vowel beyond half its span.
      const room = k === 0 ? cap : Math.min(cap, (spans[k].start - spans[k - 1].start) * 0.5);
      return spans[k].start - Math.min(room, clusterDuration(s.onset) * (k === 0 ? 0.6 : 1));
    });
    sylls.forEach((s, k) => {
      const syllable = line.firstSyllable + k;
      const begin = onsetStart[k];
      const end = k + 1 < sylls.length ? onsetStart[k + 1] : spans[k].end;
      const onsetDur = clusterDuration(s.onset);
      const codaDur = clusterDuration(s.coda);
      const available = end - begin;
      const consonantRoom = Math.max(0, available * (1 - MIN_VOWEL_SHARE));
      const scale = onsetDur + codaDur > consonantRoom ? consonantRoom / (onsetDur + codaDur) : 1;
      let t = begin;
      const push = (phone: Vowel | Consonant, role: Segment['role'], dur: number) => {
        segments.push({ phone, role, startSec: t, endSec: t + dur, syllable, line: li });
        t += dur;
      };
      const factor = (cluster: readonly Consonant[]) => (cluster.length > 1 ? 0.75 : 1) * scale;
      for (const c of s.onset) push(c, 'onset', CONSONANT_TARGETS[c].dur * factor(s.onset));
      const vowelDur = end - t - codaDur * scale;
      for (const v of s.nucleus) push(v, 'nucleus', vowelDur / s.nucleus.length);
      for (const c of s.coda) push(c, 'coda', CONSONANT_TARGETS[c].dur * factor(s.coda));
    });
    const first = segments.find((seg) => seg.line === li)!;
    lines.push({ startSec: first.startSec, endSec: spans[spans.length - 1].end, noteStartSec: spans[0].start });
  });
  return { notes, segments, lines };
}

function driftTiming(notes: TimedNote[], seed: number): void {
  const rng = Rng.derive(seed, 'voice-timing');
  notes.forEach((note, i) => {
    const previous = notes[i - 1];
    const joined = previous && !note.lineStart && Math.abs(previous.endSec - note.startSec) < 1e-6;
    const limit = Math.min(TIMING_MAX_SEC, (note.endSec - note.startSec) / 6, joined ? (previous.endSec - previous.startSec) / 6 : Infinity);
    const shift = Math.max(-limit, Math.min(limit, rng.gaussian() * TIMING_SD_SEC));
    note.startSec += shift;
    if (joined) previous.endSec = note.startSec;
  });
}
