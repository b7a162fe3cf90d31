/**
 * The fixed chord vocabulary of the audio model: 24 chords named by their root's distance from the key's
 * tonic (0..11 semitones) and their quality (major or minor). Working relative to the key lets songs in
 * different keys teach the same transitions ("IV -> V") instead of 12 unrelated ones.
 */
import { Note } from 'tonal';

export const CHORD_COUNT = 24;
/** Row index of the "song start" state in the transition matrix (a 25th row, no matching column). */
export const START_STATE = CHORD_COUNT;

export interface RelativeChord {
  degree: number; // semitones above the tonic, 0..11
  minor: boolean;
}

export function chordIndex(chord: RelativeChord): number {
  return chord.degree * 2 + (chord.minor ? 1 : 0);
}

export function chordFromIndex(index: number): RelativeChord {
  return { degree: Math.floor(index / 2), minor: index % 2 === 1 };
}

const ROMAN = ['I', 'bII', 'II', 'bIII', 'III', 'IV', '#IV', 'V', 'bVI', 'VI', 'bVII', 'VII'];

/** Roman numeral, upper case for major and lower case for minor ("IV", "vi", "bVII"). */
export function romanNumeral(index: number): string {
  const { degree, minor } = chordFromIndex(index);
  const numeral = ROMAN[degree];
  return minor ? numeral.replace(/[IVX]+/, (m) => m.toLowerCase()) : numeral;
}

/**
 * Parses an absolute chord label from the feature extractor ("C", "F#m", "Bbmin", "Am7") into the
 * vocabulary relative to `keyTonic`. Returns null for "no chord" labels ("N", "", "X").
 */
export function toRelativeChord(label: string, keyTonic: string): RelativeChord | null {
  const match = /^([A-Ga-g])([#b]*)(.*)$/.exec(label.trim());
  if (!match) return null;
  const rootChroma = Note.chroma(match[1].toUpperCase() + match[2]);
  const tonicChroma = Note.chroma(keyTonic);
  if (rootChroma === undefined || tonicChroma === undefined || Number.isNaN(rootChroma) || Number.isNaN(tonicChroma)) return null;
  const suffix = match[3].toLowerCase();
  const minor = (suffix.startsWith('m') && !suffix.startsWith('maj')) || suffix.startsWith('min') || suffix.startsWith('dim');
  return { degree: (rootChroma - tonicChroma + 12) % 12, minor };
}

/**
 * Turns one track's beat chords into vocabulary indices with repeats collapsed: the model learns which chord
 * follows a chord *change*; how long chords last is learned separately (beats per chord).
 */
export function chordChanges(beatChords: readonly string[], keyTonic: string): { indices: number[]; beatsPerChord: number[] } {
  const indices: number[] = [];
  const beatsPerChord: number[] = [];
  for (const label of beatChords) {
    const chord = toRelativeChord(label, keyTonic);
    if (!chord) continue;
    const index = chordIndex(chord);
    if (indices.length > 0 && indices[indices.length - 1] === index) beatsPerChord[beatsPerChord.length - 1]++;
    else {
      indices.push(index);
      beatsPerChord.push(1);
    }
  }
  return { indices, beatsPerChord };
}
