/**
 * Mix settings by genre family: where each part sits (pan, width), its EQ and compression, its reverb
 * send, the room itself, and the vocal's place on top (level, ducking of the backing). These are a
 * producer's habits written down, not learned: a jazz trio is placed as on a stage (piano left, bass a little
 * right, horn right, a wide kit), a pop or electronic record keeps bass and kick in the centre with wide
 * pads and keys and ducks the backing under the singer, ambient is mostly room.
 */
import type { GenreFamily } from '../compose/style.js';
import { Rng } from '../random.js';
import type { Part } from '../compose/score.js';
import type { Band } from './biquad.js';
import type { AirSettings } from './air.js';
import type { CompressorSettings } from './dynamics.js';
import type { ReverbSettings } from './reverb.js';
import type { Placement } from './stereo.js';

export type PartRole = Part['role'];

export interface BusSettings {
  placement: Placement;
  eq: Band[];
  compressor: CompressorSettings;
  /** Reverb send, linear (0..1). */
  send: number;
  gainDb: number;
}

export interface MixPlan {
  buses: Record<PartRole, BusSettings>;
  vocal: BusSettings;
  reverb: ReverbSettings;
  /** How far the backing dips under the vocal, dB (0: no ducking). */
  duckDb: number;
  /** Gain on the summed instruments before the vocal goes on top (the synth renders quietly). */
  backingGainDb: number;
  /** The exciter over the summed instruments (air.ts): the octave above the samples' roll-off. */
  air: AirSettings;
  /** Drum kit: the General MIDI drum program (bank 128) the kit channel plays. */
  drumKit: number;
}

/**
 * EQ and dynamics per part: the same in every family, the family moves placement, sends and the room. Two
 * bands per part at most (a high-pass where the part has no business, one corrective or presence band):
 * each band is a biquad on every sample of the track.
 */
const BASE: Record<PartRole, Omit<BusSettings, 'placement' | 'send'>> = {
  drums: {
    eq: [
      { type: 'peak', hz: 400, db: -2, q: 1 },
      { type: 'highshelf', hz: 8000, db: 2 },
    ],
    compressor: { thresholdDb: -20, ratio: 3, attackMs: 8, releaseMs: 120, makeupDb: 2 },
    gainDb: 0,
  },
  bass: {
    eq: [
      { type: 'highpass', hz: 32 },
      { type: 'peak', hz: 250, db: -2.5, q: 1.2 },
    ],
    compressor: { thresholdDb: -24, ratio: 4, attackMs: 12, releaseMs: 150, makeupDb: 3 },
    gainDb: 0,
  },
  chords: {
    // Keys and guitars carry most of the low mids; the cut sits where the renders stood 3-5 dB over the
    // genre curves (bench/tonal-balance.ts: 400-630 Hz).
    eq: [
      { type: 'highpass', hz: 120 },
      { type: 'peak', hz: 450, db: -3, q: 1 },
    ],
    compressor: { thresholdDb: -26, ratio: 2, attackMs: 20, releaseMs: 200, makeupDb: 1.5 },
    gainDb: 0,
  },
  melody: {
    eq: [
      { type: 'highpass', hz: 150 },
      { type: 'peak', hz: 2500, db: 2, q: 1 },
    ],
    compressor: { thresholdDb: -24, ratio: 2.5, attackMs: 10, releaseMs: 150, makeupDb: 1.5 },
    gainDb: 0,
  },
  pad: {
    // A low-mid cut instead of the earlier -2 dB treble shelf: the pads (ambient above all) were 7-13 dB
    // over the curve at 315-630 Hz and short of it above 4 kHz (bench/tonal-balance.ts).
    eq: [
      { type: 'highpass', hz: 160 },
      { type: 'peak', hz: 500, db: -4, q: 0.9 },
    ],
    compressor: { thresholdDb: -30, ratio: 1.5, attackMs: 40, releaseMs: 300 },
    gainDb: 0,
  },
};

const VOCAL: Omit<BusSettings, 'send'> = {
  placement: { pan: 0, width: 0 },
  eq: [
    { type: 'highpass', hz: 110 },
    { type: 'peak', hz: 300, db: -2, q: 1 },
    { type: 'peak', hz: 3200, db: 3, q: 0.9 },
    { type: 'highshelf', hz: 9000, db: 2 },
  ],
  compressor: { thresholdDb: -24, ratio: 3.5, attackMs: 5, releaseMs: 90, makeupDb: 3 },
  gainDb: 0,
};

/** The air stage's bands: made from 3 kHz up, kept from 7 kHz up (air.ts). */
const AIR: AirSettings = { sourceHz: 3000, airHz: 7000, gainDb: 0 };

type Places = Record<PartRole, [pan: number, width: number, send: number]>;

interface FamilyMix {
  places: Places;
  drumsSideScale: number;
  reverb: ReverbSettings;
  vocalDb: number;
  vocalSend: number;
  /**
   * Width of the vocal (stereo.ts: a delayed copy as side; the mono sum is untouched). Jazz and folk, with
   * the least backing around a centred voice, sat 12-14 dB side under mid with a vocal, past the 3-12 dB
   * a produced mix keeps (bench/mix-report.ts). 0.3 -> 0.5 when their EQs were refitted to 18 songs: seed 7
   * sat 12.7 dB under with 0.3, 12.0 with 0.4 (test/engine/music/mix.test.ts).
   */
  vocalWidth?: number;
  duckDb: number;
  backingGainDb: number;
  /** Bass bus level (dB): the families whose curves carry the most low end sat 3-6 dB under it at 63-100 Hz. */
  bassDb?: number;
  /** Level of the air stage (dB, default AIR's). */
  airDb?: number;
  /** Extra bands on the keys and pad buses (after BASE's), where the family's arrangement piles up. */
  harmonyEq?: Band[];
}

// [pan, width, send] per part. Bass and kick stay central everywhere; width goes to harmony and pads.
const FAMILIES: Record<GenreFamily, FamilyMix> = {
  pop: {
    places: { drums: [0, 0, 0.12], bass: [0, 0, 0], chords: [-0.5, 0.95, 0.25], melody: [0.4, 0.5, 0.3], pad: [0, 1, 0.35] },
    drumsSideScale: 2,
    reverb: { rt60: 1.6, preDelayMs: 25, dampingHz: 6000, returnGain: 0.35 },
    vocalDb: 0,
    vocalSend: 0.22,
    duckDb: 2.5,
    backingGainDb: 9.5,
    bassDb: 3,
  },
  rock: {
    places: { drums: [0, 0.8, 0.12], bass: [0, 0, 0], chords: [-0.65, 1, 0.15], melody: [0.55, 0.6, 0.2], pad: [0.15, 1, 0.3] },
    drumsSideScale: 2.4,
    reverb: { rt60: 1.3, preDelayMs: 20, dampingHz: 5000, returnGain: 0.3 },
    vocalDb: -1,
    vocalSend: 0.18,
    duckDb: 1.5,
    backingGainDb: 9,
  },
  electronic: {
    places: { drums: [0, 0.8, 0.08], bass: [0, 0, 0], chords: [-0.45, 1, 0.3], melody: [0.45, 0.7, 0.35], pad: [0, 1, 0.45] },
    drumsSideScale: 2.2,
    reverb: { rt60: 2.2, preDelayMs: 35, dampingHz: 7000, returnGain: 0.35 },
    vocalDb: -1.5,
    vocalSend: 0.3,
    duckDb: 3.5,
    backingGainDb: 8.3,
    bassDb: 3,
  },
  jazz: {
    places: { drums: [0.05, 0.1, 0.2], bass: [0.15, 0, 0.05], chords: [-0.7, 0.7, 0.3], melody: [0.6, 0.45, 0.3], pad: [0, 1, 0.35] },
    drumsSideScale: 2,
    reverb: { rt60: 1.8, preDelayMs: 18, dampingHz: 4500, returnGain: 0.4 },
    vocalDb: -1,
    vocalSend: 0.3,
    vocalWidth: 0.5,
    duckDb: 0,
    backingGainDb: 12,
  },
  lofi: {
    places: { drums: [0, 0, 0.1], bass: [0, 0, 0], chords: [-0.45, 0.8, 0.3], melody: [0.4, 0.45, 0.35], pad: [0, 1, 0.4] },
    drumsSideScale: 1.6,
    reverb: { rt60: 1.4, preDelayMs: 15, dampingHz: 3500, returnGain: 0.35 },
    vocalDb: -2.5,
    vocalSend: 0.25,
    duckDb: 1,
    backingGainDb: 10.9,
    bassDb: 3,
  },
  folk: {
    places: { drums: [0, 0, 0.2], bass: [0.1, 0, 0.05], chords: [-0.6, 0.9, 0.3], melody: [0.55, 0.5, 0.35], pad: [0.1, 1, 0.4] },
    drumsSideScale: 1.8,
    reverb: { rt60: 1.7, preDelayMs: 22, dampingHz: 5000, returnGain: 0.4 },
    vocalDb: 0,
    vocalSend: 0.3,
    // 0.5 until the voice got its upper formants back (brighter, so more of the mix in the mid): 12.5 dB side
    // under mid on the 20 s folk song, past the 12 dB a produced stereo mix stays within.
    vocalWidth: 0.6,
    duckDb: 0,
    backingGainDb: 11.6,
  },
  ambient: {
    places: { drums: [0, 0.1, 0.3], bass: [0, 0, 0.2], chords: [-0.2, 0.45, 0.5], melody: [0.2, 0.3, 0.5], pad: [0, 0.5, 0.5] },
    drumsSideScale: 1.2,
    reverb: { rt60: 3.5, preDelayMs: 40, dampingHz: 5000, returnGain: 0.4 },
    vocalDb: -3,
    vocalSend: 0.45,
    duckDb: 0,
    backingGainDb: 15.6,
    // Sustained pad chords, a second pad and a pad drone all sit at 250-630 Hz: the renders stood 10-13 dB
    // over the curve there, and the master EQ cut up to 12 dB (genre-eq.ts), the celesta and a voice with
    // them. The cut belongs on the pads.
    harmonyEq: [{ type: 'peak', hz: 400, q: 0.7, db: -6 }],
  },
};

/** Side delays per part (ms): different, so wide parts stay apart. */
const WIDTH_DELAY_MS: Record<PartRole, number> = { drums: 11, bass: 13, chords: 17, melody: 23, pad: 29 };

/**
 * Drum kits a producer of the family would pick, the family's usual one first (FluidR3Mono's GM drum
 * programs: 0 Standard, 8 Room, 16 Power, 24 Electronic, 25 TR-808, 32 Jazz, 40 Brush). Their kicks and
 * snares differ by 5-20 dB above 2 kHz (a Power kick is bright, a Room kick dark), so the kit is a large
 * part of what tells two songs of one genre apart.
 */
export const DRUM_KITS: Record<GenreFamily, readonly number[]> = {
  pop: [0, 8, 24],
  rock: [0, 8, 16],
  electronic: [24, 25, 0],
  // Not the TR-808 or Jazz kits: with them the first chorus rose only 2.7 dB over the first verse (seed 42,
  // test/engine/music/arrangement.test.ts wants 3-8 dB).
  lofi: [0, 8],
  jazz: [32, 40, 8],
  folk: [8, 40, 32],
  ambient: [0, 8],
};

/**
 * Depth (dB) of a song's guitar or keys tone: a broad peak or dip on the chords bus at a frequency drawn
 * between 600 Hz and 3 kHz (an amp's voicing, a pickup, a brighter or darker instrument). Rock's songs
 * are told apart by their guitar sound most of all (bench/timbre.ts: 3.1 dB apart with the pools alone,
 * against a 4 dB target); the other families vary by instrument pools enough and keep their mids. Lo-fi
 * had a 6 dB keys tone and treble colour on its buses for a while: no gain in spread (3.2 dB either way)
 * and, on seed 42, a chorus under 3 dB over the bridge (test/engine/music/arrangement.test.ts), as the
 * cut keys carried the chorus; lo-fi's colour is the master's (mix/tonal-balance.ts FAMILY_COLOUR_DB).
 */
const TONE_DB: Partial<Record<GenreFamily, number>> = { rock: 8 };

/**
 * Depth (dB) of a song's colour: one high shelf from COLOUR_HZ drawn within +-depth and put on keys, lead
 * and pads alike (a darker or brighter amp and desk). Rock songs stood 2.6-2.8 dB apart (bench/timbre.ts,
 * target >= 4): the kit, the room and the pools move the drums and the
 * mids, the colour moves the top, which the air stage follows instead of flattening (air.ts makes its
 * octave from the song's own 3-8 kHz). Drawn around 0 dB, so the family mean, which the genre EQ is fitted
 * to, stays put.
 */
const COLOUR_DB: Partial<Record<GenreFamily, number>> = { rock: 4 };
const COLOUR_HZ = 2500;

/**
 * Depth (dB) of a song's balance: each bus's level drawn within +-depth around the family's (a producer
 * who pushes the drums, another who buries them under the keys; a pad that fills or a pad that hints).
 * The drums carry the top of a mix (hats, cymbals) and the kick its bottom, the pad and keys the low mids,
 * so the balance moves a song's long-term spectrum band by band where a shelf on the master moves it as a
 * whole, and the air stage and the master EQ follow it rather than undo it. Uniform in dB, zero mean: the
 * family's mean spectrum, which its master EQ is fitted to (genre-eq.ts), stays where it was. The lead
 * only +-3 dB: at +-5 a lo-fi lead 4.9 dB down (seed 3) left its key to the pads and the key finder heard
 * the dominant's (test/engine/features/generated-track.test.ts).
 */
export const BALANCE_DB: Record<PartRole, number> = { drums: 5, bass: 3, chords: 3, melody: 3, pad: 5 };

/** A song's reverb is its family's room scaled by up to this factor either way (a tighter or larger room). */
const ROOM_SCALE = 1.35;

/**
 * The mix plan of a family; with `seed`, the song's own production drawn from it (Rng stream
 * 'production'): the drum kit from DRUM_KITS, the room's decay scaled within ROOM_SCALE, in rock a guitar
 * tone (TONE_DB) and a colour over keys, lead and pads (COLOUR_DB). Without a seed, the
 * family's defaults.
 */
export function mixPlan(family: GenreFamily, seed?: number): MixPlan {
  const f = FAMILIES[family];
  const rng = seed === undefined ? null : Rng.derive(seed, 'production');
  const drumKit = rng ? rng.pick(DRUM_KITS[family]) : DRUM_KITS[family][0];
  const reverb = rng ? { ...f.reverb, rt60: Math.round(f.reverb.rt60 * ROOM_SCALE ** (2 * rng.next() - 1) * 100) / 100 } : f.reverb;
  const toneDepth = TONE_DB[family] ?? 0;
  const tone: Band[] =
    rng && toneDepth > 0 ? [{ type: 'peak', hz: Math.round(600 * 5 ** rng.next()), q: 0.9, db: Math.round((2 * rng.next() - 1) * toneDepth * 10) / 10 }] : [];
  // Drawn after the kit, room and tone, so those stay what they were for every seed.
  const colourDepth = COLOUR_DB[family] ?? 0;
  const colour: Band[] = rng && colourDepth > 0 ? [{ type: 'highshelf', hz: COLOUR_HZ, db: Math.round((2 * rng.next() - 1) * colourDepth * 10) / 10 }] : [];
  // Its own stream: the kit, room, tone and colour stay what they were for every seed.
  const balance = seed === undefined ? null : Rng.derive(seed, 'balance');
  const buses = {} as Record<PartRole, BusSettings>;
  for (const role of Object.keys(BASE) as PartRole[]) {
    const [pan, width, send] = f.places[role];
    const sideScale = role === 'drums' ? f.drumsSideScale : 1;
    const drawn = balance ? Math.round((2 * balance.next() - 1) * BALANCE_DB[role] * 10) / 10 : 0;
    const gainDb = BASE[role].gainDb + (role === 'bass' ? (f.bassDb ?? 0) : 0) + drawn;
    const coloured = role === 'chords' || role === 'melody' || role === 'pad' ? colour : [];
    const harmony = role === 'chords' || role === 'pad' ? (f.harmonyEq ?? []) : [];
    const eq = [...BASE[role].eq, ...harmony, ...(role === 'chords' ? tone : []), ...coloured];
    buses[role] = { ...BASE[role], eq, gainDb, placement: { pan, width, sideScale, widthDelayMs: WIDTH_DELAY_MS[role] }, send };
  }
  return {
    drumKit,
    buses,
    vocal: { ...VOCAL, placement: { pan: 0, width: f.vocalWidth ?? 0, widthDelayMs: 19 }, gainDb: f.vocalDb, send: f.vocalSend },
    reverb,
    duckDb: f.duckDb,
    backingGainDb: f.backingGainDb,
    air: { ...AIR, gainDb: f.airDb ?? AIR.gainDb },
  };
}
