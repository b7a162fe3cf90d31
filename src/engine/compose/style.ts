/**
 * Arrangement choices by genre family: which General MIDI instruments play, how the drums and bass move,
 * and whether chords carry sevenths. This is orchestration (what a producer picks), not statistics: the
 * tempo, key, harmony, energy and rhythmic density all come from the learned audio model.
 */
import type { MusicContext } from '../types.js';
import type { Rng } from '../random.js';

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
  /** Hat (or shaker/ride) subdivision against the family's usual one: fewer, as usual, or more. */
  drumDensity?: 'sparse' | 'normal' | 'busy';
  /**
   * Semitones the keys' and pad's voicings sit above (or below) the family's usual register: close
   * voicings low in the keyboard or open ones high up put the song's harmony in other third octaves
   * (accompaniment.ts), a large part of how two songs on the same instruments still sound apart.
   */
  register?: number;
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
  lofi: {
    chordProgram: 4,
    bassProgram: 33,
    melodyProgram: 11,
    padProgram: 89,
    drumStyle: 'boom-bap',
    bassStyle: 'lazy-roots',
    chordStyle: 'block',
    sevenths: true,
    swing: 0.55,
  },
  electronic: {
    chordProgram: 90,
    bassProgram: 38,
    melodyProgram: 81,
    padProgram: 88,
    drumStyle: 'four-on-floor',
    bassStyle: 'pulsing-eighths',
    chordStyle: 'sustain',
    sevenths: false,
    swing: 0,
  },
  folk: {
    chordProgram: 25,
    bassProgram: 32,
    melodyProgram: 73,
    padProgram: 48,
    drumStyle: 'folk',
    bassStyle: 'root-fifth',
    chordStyle: 'arpeggio',
    sevenths: false,
    swing: 0.1,
  },
  jazz: {
    chordProgram: 0,
    bassProgram: 32,
    melodyProgram: 66,
    padProgram: null,
    drumStyle: 'swing',
    bassStyle: 'walking',
    chordStyle: 'block',
    sevenths: true,
    swing: 0.65,
  },
  ambient: {
    chordProgram: 89,
    bassProgram: 95,
    melodyProgram: 8,
    padProgram: 91,
    drumStyle: 'none',
    bassStyle: 'drone',
    chordStyle: 'sustain',
    sevenths: true,
    swing: 0,
  },
  rock: {
    chordProgram: 29,
    bassProgram: 34,
    melodyProgram: 30,
    padProgram: 16,
    drumStyle: 'backbeat',
    bassStyle: 'driving',
    chordStyle: 'strum',
    sevenths: false,
    swing: 0,
  },
  pop: {
    chordProgram: 0,
    bassProgram: 33,
    melodyProgram: 80,
    padProgram: 48,
    drumStyle: 'backbeat',
    bassStyle: 'root-fifth',
    chordStyle: 'arpeggio',
    sevenths: false,
    swing: 0,
  },
};

/**
 * Alternatives a producer of the family would also pick (GM programs, 0-based), the default first. A song
 * drawn with a variant stream takes one of each, so that songs of one genre differ in sound, not only in
 * notes; the groove (swing) stays the family's.
 */
const POOLS: Record<GenreFamily, { chord: number[]; bass: number[]; melody: number[]; pad: (number | null)[]; drums: DrumStyle[]; chords: ChordStyle[] }> = {
  // 4/5 E.Pianos, 0 piano, 26 jazz, 24 nylon and 27 clean guitar; 33 fingered, 32 acoustic, 35 fretless,
  // 38 synth bass; 11 vibes, 12 marimba, 73 flute, 65 alto and 66 tenor sax, 71 clarinet, 59 muted trumpet,
  // 8 celesta; 89 warm, 88 new age, 92 bowed pads, 48 strings, 52 choir. The guitars, horns, strings and
  // choir came in for the timbre spread (bench/timbre.ts: lo-fi songs 3.5 dB apart with four keys, target 4).
  lofi: {
    chord: [4, 5, 0, 26, 24, 27],
    bass: [33, 32, 35, 38],
    melody: [11, 12, 73, 65, 71, 66, 59, 8],
    pad: [89, 88, 92, 48, 52, null],
    drums: ['boom-bap'],
    chords: ['block', 'arpeggio'],
  },
  electronic: {
    chord: [90, 81, 88, 62],
    bass: [38, 39, 87],
    melody: [81, 80, 84, 98],
    pad: [88, 89, 94, 95],
    drums: ['four-on-floor', 'backbeat'],
    chords: ['sustain', 'arpeggio', 'block'],
  },
  folk: { chord: [25, 24, 46, 105], bass: [32, 33], melody: [73, 40, 22, 74, 71], pad: [48, 49, null], drums: ['folk', 'none'], chords: ['arpeggio', 'strum'] },
  jazz: { chord: [0, 4, 26, 11], bass: [32, 33], melody: [66, 65, 56, 73, 11], pad: [null, 48], drums: ['swing'], chords: ['block', 'arpeggio'] },
  ambient: {
    chord: [89, 88, 92, 94],
    bass: [95, 89, 32],
    melody: [8, 10, 14, 98, 11],
    pad: [91, 92, 94, 95],
    drums: ['none'],
    chords: ['sustain', 'arpeggio'],
  },
  // 29 overdriven, 30 distortion, 27 clean, 25 steel, 28 muted guitar, 18 rock organ; 34 picked, 33
  // fingered, 35 fretless bass; 22 harmonica, 84 charang lead; 16/17 organs, 48 strings, 50 synth strings,
  // 61 brass section. The organ, muted guitar, harmonica, lead synth and brass came in for the timbre
  // spread (bench/timbre.ts: rock songs 3.4 dB apart with the guitars alone, target 4).
  rock: {
    chord: [29, 30, 27, 25, 28, 18],
    bass: [34, 33, 35],
    melody: [30, 29, 27, 81, 22, 84, 18],
    pad: [16, 17, 48, 50, 61, null],
    drums: ['backbeat'],
    chords: ['strum', 'block'],
  },
  pop: {
    chord: [0, 4, 25, 1],
    bass: [33, 38, 34],
    melody: [80, 81, 73, 11, 0],
    pad: [48, 89, 88, null],
    drums: ['backbeat', 'four-on-floor'],
    chords: ['arpeggio', 'block', 'strum'],
  },
};

/** Register offsets (semitones) a pooled song draws for its keys and pad: a fourth down to a fifth up. */
const REGISTERS = [-5, -2, 0, 3, 7] as const;

/**
 * The family's orchestration; with `variant`, one drawn from the family's pools instead (per-song sound).
 * Lifestyle still bends the groove afterwards.
 */
export function orchestrationFor(context: MusicContext, variant?: Rng): Orchestration {
  const family = genreFamily(context);
  let base: Orchestration = { family, ...ORCHESTRATION[family] };
  if (variant) {
    const pool = POOLS[family];
    base = {
      ...base,
      chordProgram: variant.pick(pool.chord),
      bassProgram: variant.pick(pool.bass),
      melodyProgram: variant.pick(pool.melody),
      padProgram: variant.pick(pool.pad),
      drumStyle: variant.pick(pool.drums),
      chordStyle: variant.pick(pool.chords),
      drumDensity: variant.pick(['sparse', 'normal', 'busy'] as const),
      register: variant.pick(REGISTERS),
    };
  }
  // Lifestyle bends the groove: sleep never gets a kit, workout always gets a driving one.
  if (context.lifestyle === 'sleep') return { ...base, drumStyle: 'none', bassStyle: 'drone', chordStyle: 'sustain' };
  if (context.lifestyle === 'workout' && base.drumStyle === 'none') return { ...base, drumStyle: 'four-on-floor', bassStyle: 'pulsing-eighths' };
  return base;
}
