/**
 * Arrangement choices by genre family: which General MIDI instruments play, how the drums and bass move,
 * and whether chords carry sevenths. This is orchestration (what a producer picks), not statistics: the
 * tempo, key, harmony, energy and rhythmic density all come from the learned audio model.
 */
import type { MusicContext } from '../../types.js';

export type GenreFamily = 'lofi' | 'electronic' | 'folk' | 'jazz' | 'ambient' | 'rock' | 'pop';
export type DrumStyle = 'boom-bap' | 'four-on-floor' | 'folk' | 'swing' | 'none' | 'backbeat';
export type BassStyle = 'lazy-roots' | 'pulsing-eighths' | 'root-fifth' | 'walking' | 'drone' | 'driving';
export type ChordStyle = 'block' | 'arpeggio' | 'strum' | 'sustain';

export interface Orchestration {
  family: GenreFamily;
  chordProgram: number;
  bassProgram: number;
  melodyProgram: number;
  padProgram: number | null;
  drumStyle: DrumStyle;
  bassStyle: BassStyle;
  chordStyle: ChordStyle;
  sevenths: boolean;
  /** 0 = straight eighths, 1 = full triplet swing. */
  swing: number;
}

const FAMILY_KEYWORDS: [GenreFamily, RegExp][] = [
  ['lofi', /lo-?fi|chill ?hop|hip ?hop|boom ?bap|beats/],
  ['ambient', /ambient|drone|new ?age|sleep|meditat/],
  ['jazz', /jazz|soul|blues|funk|r&b|rnb|bossa|swing/],
  ['folk', /folk|acoustic|country|singer|americana|bluegrass/],
  ['electronic', /synth|electr|house|techno|edm|trance|disco|dance|wave|idm|dubstep|drum and bass|dnb/],
  ['rock', /rock|punk|metal|grunge|indie/],
];

export function genreFamily(context: Pick<MusicContext, 'genre' | 'subgenre'>): GenreFamily {
  const text = `${context.genre} ${context.subgenre}`.toLowerCase();
  for (const [family, pattern] of FAMILY_KEYWORDS) if (pattern.test(text)) return family;
  return 'pop';
}

const ORCHESTRATION: Record<GenreFamily, Omit<Orchestration, 'family'>> = {
  // GM programs (0-based): 4 E.Piano 1, 33 Fingered Bass, 11 Vibraphone, 89 Warm Pad ...
  lofi: { chordProgram: 4, bassProgram: 33, melodyProgram: 11, padProgram: 89, drumStyle: 'boom-bap', bassStyle: 'lazy-roots', chordStyle: 'block', sevenths: true, swing: 0.55 },
  electronic: { chordProgram: 90, bassProgram: 38, melodyProgram: 81, padProgram: 88, drumStyle: 'four-on-floor', bassStyle: 'pulsing-eighths', chordStyle: 'sustain', sevenths: false, swing: 0 },
  folk: { chordProgram: 25, bassProgram: 32, melodyProgram: 73, padProgram: 48, drumStyle: 'folk', bassStyle: 'root-fifth', chordStyle: 'arpeggio', sevenths: false, swing: 0.1 },
  jazz: { chordProgram: 0, bassProgram: 32, melodyProgram: 66, padProgram: null, drumStyle: 'swing', bassStyle: 'walking', chordStyle: 'block', sevenths: true, swing: 0.65 },
  ambient: { chordProgram: 89, bassProgram: 95, melodyProgram: 8, padProgram: 91, drumStyle: 'none', bassStyle: 'drone', chordStyle: 'sustain', sevenths: true, swing: 0 },
  rock: { chordProgram: 29, bassProgram: 34, melodyProgram: 30, padProgram: 16, drumStyle: 'backbeat', bassStyle: 'driving', chordStyle: 'strum', sevenths: false, swing: 0 },
  pop: { chordProgram: 0, bassProgram: 33, melodyProgram: 80, padProgram: 48, drumStyle: 'backbeat', bassStyle: 'root-fifth', chordStyle: 'arpeggio', sevenths: false, swing: 0 },
};

export function orchestrationFor(context: MusicContext): Orchestration {
  const family = genreFamily(context);
  const base = { family, ...ORCHESTRATION[family] };
  // Lifestyle bends the groove: sleep never gets a kit, workout always gets a driving one.
  if (context.lifestyle === 'sleep') return { ...base, drumStyle: 'none', bassStyle: 'drone', chordStyle: 'sustain' };
  if (context.lifestyle === 'workout' && base.drumStyle === 'none') return { ...base, drumStyle: 'four-on-floor', bassStyle: 'pulsing-eighths' };
  return base;
}
