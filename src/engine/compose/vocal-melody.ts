/**
 * The vocal melody: the lyric's pronounced syllables placed on notes over the score's form and chords.
 *
 * - Sections: each verse/chorus/bridge of the score takes the next lyric section of its kind (verse_1,
 *   verse_2 ...; every chorus sings the chorus). Intro and outro stay instrumental unless the lyric has them.
 * - Lines: one phrase of 1-4 bars per line, starting on the phrase's downbeat (or a fixed pickup offset per
 *   section), every syllable on one note or more (a melisma on some long syllables), a rest at the line's end.
 *   A section shorter than its lyric sings its first whole lines only (short tracks); a line is never cut.
 * - Rhythm: stressed syllables get longer notes, the line's last syllable is held; no note is shorter than
 *   MIN_NOTE_SEC, so fast tempos sing on a coarser grid.
 * - Pitch: chord tones on stressed and long notes, scale steps between them; an arch over each line, the
 *   answer line a little higher, the verse in the lower part of the song's tessitura (an octave and a bit of the
 *   voice's range, placed by the seed) and the chorus in its upper part (the hook); the section's last line
 *   resolves on the chord root; a chorus line keeps the pitches of its first singing where they fit. Everything
 *   inside the voice's range.
 * - The hook: a line's rhythm and contour come from a random stream keyed by its section kind and text,
 *   so every chorus is sung the same way (and so is the hook line repeated within it).
 */
import { Rng } from '../random.js';
import { sectionKind } from '../lyrics/tokenizer.js';
import type { PronouncedLine, Syllable } from '../pronounce/phonemes.js';
import type { Part, Score, Section } from './score.js';
import { type ChordSpan, nearestPitch, swingBeat } from './timeline.js';

export interface VocalLyrics {
  language: string;
  /** Lyric section key ("verse_1", "chorus") -> its pronounced lines. */
  sections: Record<string, PronouncedLine[]>;
  /** Section keys in singing order, repeats included. */
  order: string[];
}

export interface VocalNote {
  midi: number;
  startBeat: number;
  durationBeats: number;
  velocity: number; // 1..127
  /** Index into VocalMelody.syllables. */
  syllable: number;
}

export interface SungSyllable extends Syllable {
  line: number;
  /** Indices into VocalMelody.notes: one, or more for a melisma. */
  notes: number[];
}

export interface SungLine {
  section: string; // lyric section key
  text: string;
  startBeat: number;
  endBeat: number;
  firstSyllable: number;
  syllableCount: number;
}

export interface VocalMelody {
  range: [number, number];
  notes: VocalNote[];
  syllables: SungSyllable[];
  lines: SungLine[];
}

export interface VocalMelodyOptions {
  /** Lowest and highest MIDI note the voice sings. */
  range: [number, number];
  seed: number;
  /** The groove's swing (0 straight .. 1 triplet), as the other parts use it. */
  swing: number;
}

const MIN_NOTE_SEC = 0.17;
/** Where each section's line centre sits in the song's tessitura (0 bottom .. 1 top): verses low, the hook high. */
const SECTION_HEIGHT: Record<string, number> = { verse: 0.3, bridge: 0.5, chorus: 0.68 };
/** The song's tessitura: this many semitones of the voice's range (an octave and a bit), placed by the seed. */
const TESSITURA_SPAN: [number, number] = [12, 15];

/**
 * The part of the voice's range this song lives in. A voice has some 19 semitones; one song uses an
 * octave-and-a-bit of it, lower or higher by the seed, so songs sung by one voice do not all sit at the same
 * height (and verses, placed in its lower part, sit lower than choruses).
 */
export function songTessitura(range: readonly [number, number], seed: number): [number, number] {
  const [low, high] = range;
  const rng = Rng.derive(seed, 'vocal-tessitura');
  const span = Math.min(high - low, rng.int(TESSITURA_SPAN[0], TESSITURA_SPAN[1]));
  const bottom = low + rng.int(0, high - low - span);
  return [bottom, bottom + span];
}
const MIN_REST_SEC = 0.3;
const KIND_ALIASES: Record<string, string> = { hook: 'chorus', refrain: 'chorus', pre_chorus: 'verse' };

export function composeVocalMelody(score: Score, lyrics: VocalLyrics, opts: VocalMelodyOptions): VocalMelody {
  const melody: VocalMelody = { range: opts.range, notes: [], syllables: [], lines: [] };
  const assigned = assignSections(score.sections, lyrics.order);
  const spb = 60 / score.bpm;
  score.sections.forEach((section, i) => {
    const key = assigned[i];
    const lines = key ? (lyrics.sections[key] ?? []) : [];
    if (lines.length === 0) return;
    const kind = KIND_ALIASES[sectionKind(key!)] ?? sectionKind(key!);
    writeSection(melody, score, section, key!, kind, lines, spb, opts);
  });
  return melody;
}

/** Which lyric section each score section sings (null: instrumental). */
export function assignSections(sections: readonly Section[], order: readonly string[]): (string | null)[] {
  const queues = new Map<string, string[]>();
  for (const key of order) {
    const kind = KIND_ALIASES[sectionKind(key)] ?? sectionKind(key);
    const queue = queues.get(kind) ?? queues.set(kind, []).get(kind)!;
    if (kind === 'chorus' ? queue.length === 0 : !queue.includes(key)) queue.push(key);
  }
  const used = new Map<string, number>();
  return sections.map((section) => {
    const queue = queues.get(section.name) ?? [];
    const n = used.get(section.name) ?? 0;
    used.set(section.name, n + 1);
    if (section.name === 'chorus') return queue[0] ?? null; // every chorus sings the chorus
    return queue[n] ?? null;
  });
}

function writeSection(
  melody: VocalMelody,
  score: Score,
  section: Section,
  key: string,
  kind: string,
  lines: PronouncedLine[],
  spb: number,
  opts: VocalMelodyOptions,
) {
  // Two bars a line (up to four when the section is long); a short section sings its first lines only.
  const whole = section.bars >= 2 * lines.length;
  const phraseBars = whole ? Math.min(4, Math.floor(section.bars / lines.length)) : Math.min(2, section.bars);
  const lineCount = whole ? lines.length : Math.floor(section.bars / phraseBars);
  const sectionRng = Rng.derive(opts.seed, `vocal-section:${kind}`);
  const pickup = sectionRng.pick([0, 0, 0.5, 1]);
  const [low, high] = songTessitura(opts.range, opts.seed);
  const centre = low + (high - low) * (SECTION_HEIGHT[kind] ?? SECTION_HEIGHT.verse);
  let previous = Math.round(centre);
  for (let li = 0; li < lineCount; li++) {
    const line = lines[li];
    const start = (section.startBar + li * phraseBars) * 4;
    const rhythm = lineRhythm(line.syllables, phraseBars * 4, pickup, spb, Rng.derive(opts.seed, `vocal-line:${kind}:${line.text}`));
    if (!rhythm) break; // this line does not fit its phrase: the section ends here
    const lift = li % 2 === 1 ? 2 : 0;
    const cadence = li === lineCount - 1;
    const pitchRng = Rng.derive(opts.seed, `vocal-pitch:${kind}:${li}:${line.text}`);
    previous = placeLine(
      melody,
      score,
      { key, text: line.text, syllables: line.syllables, start, rhythm, centre: centre + lift, cadence, previous, swing: opts.swing, kind },
      pitchRng,
    );
  }
}

interface RhythmNote {
  syllable: number; // index within the line
  beat: number; // offset from the phrase start
  beats: number;
  strong: boolean;
}

/**
 * Note onsets and lengths (beats from the phrase start) for a line's syllables; null if they cannot fit.
 * Every syllable gets one grid step; then the spare steps go, in order, to putting each primary-stressed
 * syllable on a beat (the syllable before it is lengthened), to holding the line's last syllable, and to
 * lengthening stressed syllables by whole beats (so they stay on the beat). What is left is rest.
 */
export function lineRhythm(syllables: readonly Syllable[], phraseBeats: number, pickup: number, spb: number, rng: Rng): RhythmNote[] | null {
  const grids = [0.5, 0.25, 1].filter((g) => g * spb >= MIN_NOTE_SEC);
  const rest = Math.max(0.5, MIN_REST_SEC / spb);
  const count = syllables.length;
  const grid = grids.find((g) => Math.floor((phraseBeats - rest) / g) >= count);
  if (grid === undefined || count === 0) return null;
  const perBeat = Math.max(1, Math.round(1 / grid));
  let spare = Math.floor((phraseBeats - rest) / grid) - count;
  const lengths = new Array<number>(count).fill(1);
  // Entry: a pickup offset, if the line still fits comfortably after it.
  let offset = Math.round(pickup / grid);
  if (offset > spare / 2) offset = 0;
  spare -= offset;
  // Stressed syllables on the beat.
  let position = offset;
  for (let i = 0; i < count; i++) {
    const off = position % perBeat;
    if (syllables[i].stress === 1 && off !== 0 && perBeat - off <= spare && i > 0) {
      lengths[i - 1] += perBeat - off;
      spare -= perBeat - off;
      position += perBeat - off;
    }
    position += lengths[i];
  }
  // The held last syllable, then whole beats for stressed syllables while there is room to spare.
  const hold = Math.min(spare, Math.max(0, Math.round(1.5 / grid) - 1));
  lengths[count - 1] += hold;
  spare -= hold;
  for (let i = 0, stretched = 0; i < count - 1 && spare >= perBeat && stretched < 2; i++) {
    if (syllables[i].stress !== 1 || rng.next() < 0.4) continue;
    lengths[i] += perBeat;
    spare -= perBeat;
    stretched++;
  }
  const notes: RhythmNote[] = [];
  let slot = offset;
  syllables.forEach((s, i) => {
    notes.push({ syllable: i, beat: slot * grid, beats: lengths[i] * grid, strong: s.stress === 1 || i === count - 1 || lengths[i] * grid >= 1 });
    slot += lengths[i];
  });
  return notes;
}

interface LinePlan {
  key: string;
  text: string;
  syllables: readonly Syllable[];
  start: number;
  rhythm: RhythmNote[];
  centre: number;
  cadence: boolean;
  previous: number;
  swing: number;
  kind: string;
}

/**
 * Every chorus is sung the same way: a chorus line takes the pitches of its first singing wherever they still fit
 * (in the key, or a tone of the chord now under them), even when the arrangement puts another chord under one
 * of its notes (a turnaround, the song's final cadence). The rhythm is the same already (keyed by the line).
 */
const chorusPitches = new WeakMap<VocalMelody, Map<string, number[]>>();
function singAsBefore(
  melody: VocalMelody,
  plan: LinePlan,
  events: { midi: number; beat: number }[],
  spans: readonly ChordSpan[],
  scale: readonly number[],
): void {
  let sung = chorusPitches.get(melody);
  if (!sung) chorusPitches.set(melody, (sung = new Map()));
  const first = sung.get(plan.text);
  if (!first) {
    sung.set(
      plan.text,
      events.map((e) => e.midi),
    );
    return;
  }
  if (first.length !== events.length) return;
  events.forEach((e, k) => {
    const span = chordAt(spans, e.beat);
    const pc = first[k] % 12;
    const fits = scale.includes(pc) || span.chord.tones.some((t) => (span.chord.rootPitchClass + t) % 12 === pc);
    if (fits) e.midi = first[k];
  });
}

/** Pitches for one line's rhythm; appends notes, syllables and the line. Returns the last pitch. */
function placeLine(melody: VocalMelody, score: Score, plan: LinePlan, rng: Rng): number {
  const { spans, scale } = score.harmony;
  const [low, high] = melody.range;
  const lineIndex = melody.lines.length;
  const firstSyllable = melody.syllables.length;
  let pitch = plan.previous;
  const n = plan.rhythm.length;
  const arch = 2 + rng.int(0, 3);
  const events: { midi: number; beat: number; beats: number; syllable: number; strong: boolean }[] = [];
  plan.rhythm.forEach((r, j) => {
    const beat = plan.start + r.beat;
    const span = chordAt(spans, beat);
    const position = n > 1 ? j / (n - 1) : 0.5;
    const target = plan.centre + arch * Math.sin(Math.PI * Math.min(1, position * 1.15));
    const last = j === n - 1;
    if (last && plan.cadence) pitch = nearestPitch(span.chord.rootPitchClass, pitch - 1);
    else if (r.strong || j === 0) pitch = nearestChordTone(span, 0.6 * target + 0.4 * pitch, pitch);
    else if (rng.next() < 0.25) pitch = inScale(pitch, scale) ? pitch : stepInScale(pitch, 1, scale);
    else pitch = stepInScale(pitch, Math.sign(target - pitch) || (rng.next() < 0.5 ? 1 : -1), scale);
    pitch = fold(pitch, low, high);
    // A long syllable sometimes turns into a two-note melisma: a neighbour tone, then the note.
    if (r.beats >= 1.5 && rng.next() < 0.4) {
      const lead = Math.min(0.5, r.beats / 3);
      const neighbour = fold(stepInScale(pitch, last ? 1 : -1, scale), low, high);
      events.push({ midi: neighbour, beat, beats: lead, syllable: j, strong: r.strong });
      events.push({ midi: pitch, beat: beat + lead, beats: r.beats - lead, syllable: j, strong: false });
    } else events.push({ midi: pitch, beat, beats: r.beats, syllable: j, strong: r.strong });
  });
  if (plan.kind === 'chorus' && events.length > 0) {
    singAsBefore(melody, plan, events, spans, scale);
    pitch = events[events.length - 1].midi;
  }
  const velocityBase = plan.kind === 'chorus' ? 100 : 90;
  plan.syllables.forEach((s) => melody.syllables.push({ ...s, line: lineIndex, notes: [] }));
  events.forEach((e, k) => {
    const onset = swingBeat(e.beat, plan.swing);
    const nextOnset = k + 1 < events.length ? swingBeat(events[k + 1].beat, plan.swing) : e.beat + e.beats;
    const index = melody.notes.length;
    melody.notes.push({
      midi: e.midi,
      startBeat: onset,
      durationBeats: Math.max(0.1, nextOnset - onset),
      velocity: velocityBase + (e.strong ? 10 : 0),
      syllable: firstSyllable + e.syllable,
    });
    melody.syllables[firstSyllable + e.syllable].notes.push(index);
  });
  const lastNote = melody.notes[melody.notes.length - 1];
  melody.lines.push({
    section: plan.key,
    text: plan.text,
    startBeat: melody.notes[melody.syllables[firstSyllable].notes[0]].startBeat,
    endBeat: lastNote.startBeat + lastNote.durationBeats,
    firstSyllable,
    syllableCount: plan.syllables.length,
  });
  return pitch;
}

function chordAt(spans: readonly ChordSpan[], beat: number): ChordSpan {
  let found = spans[0];
  for (const span of spans) if (span.startBeat <= beat + 1e-9) found = span;
  return found;
}

/** The chord tone nearest `target`, kept within a fifth of the previous pitch (singable leaps). */
function nearestChordTone(span: ChordSpan, target: number, previous: number): number {
  let best = Math.round(target);
  let bestCost = Infinity;
  for (const tone of span.chord.tones) {
    const pc = (span.chord.rootPitchClass + tone) % 12;
    for (const candidate of [nearestPitch(pc, Math.round(target)) - 12, nearestPitch(pc, Math.round(target)), nearestPitch(pc, Math.round(target)) + 12]) {
      const leap = Math.abs(candidate - previous);
      const cost = Math.abs(candidate - target) + (leap > 7 ? 10 : 0);
      if (cost < bestCost) [best, bestCost] = [candidate, cost];
    }
  }
  return best;
}

function inScale(pitch: number, scale: readonly number[]): boolean {
  return scale.includes(((pitch % 12) + 12) % 12);
}

function stepInScale(pitch: number, steps: number, scale: readonly number[]): number {
  let p = pitch;
  for (let moved = 0; moved < Math.abs(steps);) {
    p += Math.sign(steps);
    if (inScale(p, scale)) moved++;
  }
  return p;
}

function fold(pitch: number, low: number, high: number): number {
  let p = pitch;
  while (p < low) p += 12;
  while (p > high) p -= 12;
  return p < low ? low : p;
}

/**
 * The lead instrument steps aside where the voice sings: its notes overlapping a sung line (with half a
 * beat around it) are dropped, so the two melodies never fight. Other parts are untouched.
 */
export function makeRoomForVocals(score: Score, melody: VocalMelody): Score {
  const busy = melody.lines.map((l) => [l.startBeat - 0.5, l.endBeat + 0.5] as const);
  const parts: Part[] = score.parts.map((part) =>
    part.role !== 'melody' ? part : { ...part, notes: part.notes.filter((n) => !busy.some(([a, b]) => n.startBeat < b && n.startBeat + n.durationBeats > a)) },
  );
  return { ...score, parts: parts.filter((p) => p.notes.length > 0) };
}
