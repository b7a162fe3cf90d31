/**
 * The voices: timbre and range of each singer the synthesiser can be. A voice is a handful of numbers for
 * the source-filter model (how its glottis vibrates, how long its vocal tract is, how it ornaments a note),
 * so adding one is adding an entry here (see src/engine/music/README.md, "Sung vocals").
 *
 * Formant scale: women's vocal tracts are shorter, their formants about 15% higher on average (Peterson &
 * Barney 1952; Hillenbrand et al. 1995); the phoneme targets (targets.ts) are men's, scaled per voice.
 */
import { Rng } from '../random.js';
import type { GenreFamily } from '../compose/style.js';

export interface VoiceSpec {
  id: string;
  /** Lowest and highest MIDI note of the voice's comfortable singing range; a song uses an octave and a bit
   *  of it (compose/vocal-melody.ts, songTessitura), so the alto sings anywhere from G3 to C5. */
  range: [number, number];
  /** Multiplies F1-F3 of every phoneme target. */
  formantScale: number;
  /** Fixed upper formants (Hz): with F3 they shape the timbre's brightness ("singer's formant" region). */
  f4: number;
  f5: number;
  /** Open phase of the glottal cycle, 0.4 (pressed, bright) .. 0.8 (breathy, soft). */
  openQuotient: number;
  /** One-pole low-pass on the source: 0 bright .. 0.8 dark (spectral tilt). */
  tilt: number;
  /** Aspiration noise mixed into the voiced source, relative to voicing (breathiness). Not sung at present:
   *  white breath noise under held vowels read as /s/, /z/ and noise to the recogniser (bench/README.md,
   *  Listening, round 4); kept as the voice's description for a band-limited breath later. */
  breath: number;
  vibratoHz: number;
  /** Vibrato depth, cents either side; kept moderate, as in pop singing. */
  vibratoCents: number;
  /** Vibrato starts this long after a note begins, and only on notes longer than that. */
  vibratoDelaySec: number;
  /** A phrase's first note starts this many cents flat and slides up (a natural onset). */
  scoopCents: number;
}

export const VOICES: Record<string, VoiceSpec> = {
  tenor: {
    id: 'tenor',
    range: [48, 67],
    formantScale: 1,
    f4: 3350,
    f5: 3900,
    openQuotient: 0.6,
    tilt: 0.35,
    breath: 0.08,
    vibratoHz: 5.4,
    vibratoCents: 22,
    vibratoDelaySec: 0.25,
    scoopCents: 60,
  },
  baritone: {
    id: 'baritone',
    range: [45, 64],
    formantScale: 0.95,
    f4: 3200,
    f5: 3700,
    openQuotient: 0.55,
    tilt: 0.4,
    breath: 0.06,
    vibratoHz: 5.1,
    vibratoCents: 25,
    vibratoDelaySec: 0.3,
    scoopCents: 50,
  },
  alto: {
    id: 'alto',
    range: [55, 72],
    formantScale: 1.14,
    f4: 4000,
    f5: 4600,
    openQuotient: 0.65,
    tilt: 0.3,
    breath: 0.14,
    vibratoHz: 5.7,
    vibratoCents: 20,
    vibratoDelaySec: 0.25,
    scoopCents: 50,
  },
  soprano: {
    id: 'soprano',
    range: [57, 76],
    formantScale: 1.17,
    f4: 4150,
    f5: 4800,
    openQuotient: 0.72,
    tilt: 0.25,
    breath: 0.24,
    vibratoHz: 5.9,
    vibratoCents: 18,
    vibratoDelaySec: 0.22,
    scoopCents: 40,
  },
};

/** Which voices each genre family casts, with weights; the seed draws one. */
const CASTING: Record<GenreFamily, [string, number][]> = {
  rock: [
    ['baritone', 2],
    ['tenor', 3],
    ['alto', 1],
  ],
  jazz: [
    ['alto', 3],
    ['baritone', 2],
    ['tenor', 1],
  ],
  folk: [
    ['tenor', 2],
    ['alto', 2],
    ['soprano', 1],
  ],
  electronic: [
    ['soprano', 2],
    ['alto', 2],
    ['tenor', 1],
  ],
  ambient: [
    ['soprano', 3],
    ['alto', 1],
  ],
  lofi: [
    ['alto', 2],
    ['soprano', 2],
    ['tenor', 1],
  ],
  pop: [
    ['alto', 2],
    ['tenor', 2],
    ['soprano', 1],
    ['baritone', 1],
  ],
};

export function chooseVoice(family: GenreFamily, seed: number): VoiceSpec {
  const cast = CASTING[family];
  const index = Rng.derive(seed, 'voice').weighted(cast.map(([, weight]) => weight));
  return VOICES[cast[index][0]];
}
