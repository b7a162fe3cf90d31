/** Lyrics and contexts for the voice tests (original lines written for these tests). */
import type { MusicContext, TrackLyrics } from '../../../src/engine/types.js';
import type { VocalMelody } from '../../../src/engine/compose/vocal-melody.js';
import type { Vowel } from '../../../src/engine/pronounce/phonemes.js';

export const ENGLISH_LYRICS: TrackLyrics = {
  language: 'en',
  order: ['verse_1', 'chorus', 'verse_2', 'chorus', 'bridge', 'chorus'],
  sections: {
    verse_1:
      'Streetlights whisper through the rain tonight\nI keep your letters in a paper box\nThe city hums a song I used to know\nAnd every window holds a little light',
    chorus: 'Stay with me until the morning\nHold the night and never let it go\nWe are gold beneath the silver sky\nStay with me until the morning',
    verse_2:
      'The radio is playing something slow\nYour shadow dances on the kitchen wall\nI never thought that I would miss the sound\nOf footsteps walking softly down the hall',
    bridge: 'Oh the river runs\nAnd the river knows\nWhere the lonely go\nWhen the morning comes',
  },
};

export const SPANISH_LYRICS: TrackLyrics = {
  language: 'es',
  order: ['verse_1', 'chorus'],
  sections: {
    verse_1: 'La ciudad duerme bajo la lluvia\nTengo el corazón en tu mirada',
    chorus: 'Quédate conmigo hasta el alba\nHoy quiero cantar una canción',
  },
};

export const POP_CONTEXT: MusicContext = {
  genre: 'pop',
  subgenre: 'indie pop',
  mood: ['happy'],
  lifestyle: 'chill',
  tempo_range: [100, 108],
  key_preference: 'major',
  energy_level: 0.6,
};

/** A melody of sustained vowels, one per line: the formant tests' material. */
export function sustainedVowels(vowels: readonly Vowel[], midi: number, range: [number, number]): VocalMelody {
  const melody: VocalMelody = { range, notes: [], syllables: [], lines: [] };
  vowels.forEach((vowel, i) => {
    melody.syllables.push({ onset: [], nucleus: [vowel], coda: [], stress: 1, text: vowel, line: i, notes: [i] });
    melody.notes.push({ midi, startBeat: i * 4, durationBeats: 2.5, velocity: 100, syllable: i });
    melody.lines.push({ section: 'test', text: vowel, startBeat: i * 4, endBeat: i * 4 + 2.5, firstSyllable: i, syllableCount: 1 });
  });
  return melody;
}
