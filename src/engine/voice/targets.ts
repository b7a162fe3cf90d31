/**
 * Acoustic targets of every phoneme for the formant synthesiser, for a man's vocal tract (voices scale
 * them). Vowel formants follow the published means for American English (Peterson & Barney 1952,
 * Hillenbrand et al. 1995) and Spanish (Quilis); consonant loci, frication spectra and the cascade /
 * parallel split follow Klatt (1980, Table III), adapted to a 44.1 kHz rate (fricative noise up to 9 kHz)
 * and to singing, where vowels carry the note. Consonants are sung clearer than conversational speech, the way
 * singers are taught to ("clear speech", Picheny et al. 1985): weak fricatives (f, th) and stop bursts get
 * more noise than Klatt's speech values, and held consonants last 60-100 ms, so the 3-8 kHz cues that tell
 * "fine" from "sign" survive a band mix. The timeline shortens them when the notes leave no room.
 */
import type { Consonant, Phoneme, Vowel } from '../pronounce/phonemes.js';

export type Formants = [number, number, number];

export interface VowelTarget {
  f: Formants;
  /** Diphthongs glide to this second target over the end of the vowel. */
  to?: Formants;
  b1?: number;
}

export type MannerOfArticulation = 'stop' | 'fricative' | 'affricate' | 'nasal' | 'liquid' | 'glide' | 'aspirate' | 'tap' | 'trill';

/** A band of frication noise: centre (Hz), bandwidth (Hz), relative gain. */
export type NoiseBand = [number, number, number];

export interface ConsonantTarget {
  manner: MannerOfArticulation;
  voiced: boolean;
  /** Formant locus: where the tract is during the consonant (transitions run from here to the vowel). */
  f: Formants;
  /** Bandwidths of F1-F3 during the consonant (nasal murmurs and laterals are damped). */
  b?: Formants;
  /** Frication (fricatives, affricates) or burst (stops) spectrum: two bands plus a flat bypass. */
  noise?: { bands: [NoiseBand, NoiseBand]; bypass: number; level: number };
  /** Nasal antiresonance (Hz) for nasals; the nasal pole sits at 270 Hz. Klatt's (1980) murmur: the zero
   *  just above the pole (450 Hz) and F1 at 480 Hz, so the murmur keeps energy up to 2.5 kHz. With F1 at
   *  280 Hz beside the pole it had nothing above 500 Hz and was heard as /b/ or /d/ (bench/README.md). */
  nasalZero?: number;
  /** Nominal duration in singing (seconds). */
  dur: number;
}

export const VOWEL_TARGETS: Record<Vowel, VowelTarget> = {
  AA: { f: [730, 1100, 2450], b1: 100 },
  AE: { f: [660, 1720, 2410], b1: 90 },
  AH: { f: [620, 1200, 2550], b1: 95 },
  AX: { f: [500, 1450, 2500] },
  AO: { f: [570, 850, 2410], b1: 90 },
  EH: { f: [530, 1840, 2480] },
  ER: { f: [490, 1350, 1690] },
  IH: { f: [400, 1920, 2560] },
  IY: { f: [280, 2250, 2900], b1: 55 },
  UH: { f: [440, 1020, 2240] },
  UW: { f: [310, 870, 2240], b1: 55 },
  EY: { f: [480, 1850, 2550], to: [330, 2100, 2800] },
  AY: { f: [720, 1150, 2450], to: [420, 1900, 2550] },
  AW: { f: [720, 1150, 2450], to: [450, 950, 2300] },
  OW: { f: [540, 1000, 2400], to: [450, 850, 2300] },
  OY: { f: [560, 880, 2400], to: [420, 1850, 2550] },
  a: { f: [700, 1250, 2500], b1: 85 },
  e: { f: [450, 1850, 2550] },
  i: { f: [290, 2250, 2900], b1: 55 },
  o: { f: [480, 950, 2450] },
  u: { f: [320, 800, 2300], b1: 55 },
};

/** /s/ and the alveolar burst are the strong ones: 15-20 dB over the vowel at 4-9 kHz (espeak-ng's /s/: 20 dB),
 *  now that the vowels keep their upper formants (synth.ts, higher-pole correction). */
const S_NOISE = {
  bands: [
    [5500, 1600, 1],
    [8200, 2600, 0.6],
  ] as [NoiseBand, NoiseBand],
  bypass: 0,
  level: 3,
};
const SH_NOISE = {
  bands: [
    [2700, 700, 1],
    [4500, 1800, 0.5],
  ] as [NoiseBand, NoiseBand],
  bypass: 0,
  level: 1,
};
const F_NOISE = {
  bands: [
    [6500, 4000, 0.6],
    [2500, 2000, 0.1],
  ] as [NoiseBand, NoiseBand],
  bypass: 0.3,
  level: 0.35,
};
const TH_NOISE = {
  bands: [
    [6500, 3500, 0.6],
    [3000, 2000, 0.1],
  ] as [NoiseBand, NoiseBand],
  bypass: 0.2,
  level: 0.3,
};
const X_NOISE = {
  bands: [
    [1700, 600, 1],
    [3000, 1500, 0.4],
  ] as [NoiseBand, NoiseBand],
  bypass: 0,
  level: 0.3,
};
const LABIAL_BURST = {
  bands: [
    [1200, 900, 0.4],
    [3000, 2000, 0.1],
  ] as [NoiseBand, NoiseBand],
  bypass: 0.6,
  level: 0.9,
};
const ALVEOLAR_BURST = {
  bands: [
    [4500, 1800, 1],
    [7000, 2600, 0.8],
  ] as [NoiseBand, NoiseBand],
  bypass: 0.1,
  level: 3.2,
};
const VELAR_BURST = {
  bands: [
    [2000, 700, 1],
    [3500, 1500, 0.5],
  ] as [NoiseBand, NoiseBand],
  bypass: 0.1,
  level: 1,
};
const NASAL_B: Formants = [60, 200, 250];

export const CONSONANT_TARGETS: Record<Consonant, ConsonantTarget> = {
  P: { manner: 'stop', voiced: false, f: [250, 900, 2150], noise: LABIAL_BURST, dur: 0.08 },
  B: { manner: 'stop', voiced: true, f: [200, 900, 2150], noise: { ...LABIAL_BURST, level: 0.45 }, dur: 0.06 },
  T: { manner: 'stop', voiced: false, f: [300, 1750, 2650], noise: ALVEOLAR_BURST, dur: 0.08 },
  D: { manner: 'stop', voiced: true, f: [200, 1700, 2600], noise: { ...ALVEOLAR_BURST, level: 0.5 }, dur: 0.06 },
  K: { manner: 'stop', voiced: false, f: [300, 1900, 2300], noise: VELAR_BURST, dur: 0.085 },
  G: { manner: 'stop', voiced: true, f: [200, 1900, 2300], noise: { ...VELAR_BURST, level: 0.45 }, dur: 0.06 },
  CH: { manner: 'affricate', voiced: false, f: [300, 1900, 2500], noise: SH_NOISE, dur: 0.1 },
  JH: { manner: 'affricate', voiced: true, f: [250, 1900, 2500], noise: { ...SH_NOISE, level: 0.5 }, dur: 0.08 },
  F: { manner: 'fricative', voiced: false, f: [340, 1100, 2100], noise: F_NOISE, dur: 0.085 },
  V: { manner: 'fricative', voiced: true, f: [250, 1100, 2100], noise: { ...F_NOISE, level: 0.08 }, dur: 0.07 },
  TH: { manner: 'fricative', voiced: false, f: [320, 1400, 2550], noise: TH_NOISE, dur: 0.08 },
  DH: { manner: 'fricative', voiced: true, f: [270, 1400, 2550], noise: { ...TH_NOISE, level: 0.05 }, dur: 0.055 },
  S: { manner: 'fricative', voiced: false, f: [320, 1700, 2600], noise: S_NOISE, dur: 0.1 },
  Z: { manner: 'fricative', voiced: true, f: [250, 1700, 2600], noise: { ...S_NOISE, level: 0.5 }, dur: 0.075 },
  SH: { manner: 'fricative', voiced: false, f: [300, 1900, 2500], noise: SH_NOISE, dur: 0.1 },
  ZH: { manner: 'fricative', voiced: true, f: [250, 1900, 2500], noise: { ...SH_NOISE, level: 0.5 }, dur: 0.075 },
  X: { manner: 'fricative', voiced: false, f: [350, 1600, 2400], noise: X_NOISE, dur: 0.08 },
  HH: { manner: 'aspirate', voiced: false, f: [500, 1500, 2500], dur: 0.065 },
  M: { manner: 'nasal', voiced: true, f: [480, 1270, 2130], b: NASAL_B, nasalZero: 450, dur: 0.075 },
  N: { manner: 'nasal', voiced: true, f: [480, 1340, 2470], b: NASAL_B, nasalZero: 450, dur: 0.07 },
  NG: { manner: 'nasal', voiced: true, f: [480, 2000, 2700], b: NASAL_B, nasalZero: 450, dur: 0.075 },
  NY: { manner: 'nasal', voiced: true, f: [480, 2100, 2800], b: NASAL_B, nasalZero: 450, dur: 0.075 },
  L: { manner: 'liquid', voiced: true, f: [330, 1000, 2700], b: [70, 150, 250], dur: 0.065 },
  R: { manner: 'liquid', voiced: true, f: [320, 1100, 1500], b: [70, 100, 150], dur: 0.065 },
  W: { manner: 'glide', voiced: true, f: [300, 650, 2200], dur: 0.05 },
  Y: { manner: 'glide', voiced: true, f: [270, 2100, 2950], dur: 0.05 },
  DX: { manner: 'tap', voiced: true, f: [300, 1700, 2600], dur: 0.028 },
  RR: { manner: 'trill', voiced: true, f: [330, 1500, 2400], dur: 0.08 },
};

export function isConsonantTarget(p: Phoneme): p is Consonant {
  return p in CONSONANT_TARGETS;
}
