/** What the mix benches render: one context per genre family and one set of English lyrics to sing. */
import type { MusicContext, TrackLyrics } from '../../src/engine/types.js';

export const BENCH_LYRICS: TrackLyrics = {
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

const ctx = (genre: string, subgenre: string, tempo: [number, number], energy: number): MusicContext => ({
  genre,
  subgenre,
  mood: ['happy'],
  lifestyle: 'chill',
  tempo_range: tempo,
  key_preference: 'major',
  energy_level: energy,
});

/** One context per genre family of the composer (compose/style.ts). */
export const FAMILY_CONTEXTS: [string, MusicContext][] = [
  ['pop', ctx('pop', 'dance pop', [110, 120], 0.7)],
  ['rock', ctx('rock', 'indie rock', [120, 140], 0.9)],
  ['electronic', ctx('synthwave', 'retro electronic', [110, 124], 0.8)],
  ['jazz', ctx('jazz', 'cool jazz', [90, 110], 0.5)],
  ['lofi', ctx('lo-fi hip hop', 'chillhop', [72, 88], 0.4)],
  ['folk', ctx('folk', 'acoustic', [90, 110], 0.5)],
  ['ambient', ctx('ambient', 'drone', [60, 70], 0.2)],
];
