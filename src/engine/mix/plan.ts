/**
 * Mix settings by genre family: where each part sits (pan, width), its EQ and compression, its reverb
 * send, the room itself, and the vocal's place on top (level, ducking of the backing). These are a
 * producer's habits written down, not learned: a jazz trio is placed as on a stage (piano left, bass a little
 * right, horn right, a wide kit), a pop or electronic record keeps bass and kick in the centre with wide
 * pads and keys and ducks the backing under the singer, ambient is mostly room.
 */
import type { GenreFamily } from '../compose/style.js';
import type { Part } from '../compose/score.js';
import type { Band } from './biquad.js';
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

type Places = Record<PartRole, [pan: number, width: number, send: number]>;

interface FamilyMix {
  places: Places;
  drumsSideScale: number;
  reverb: ReverbSettings;
  vocalDb: number;
  vocalSend: number;
  duckDb: number;
  backingGainDb: number;
  /** Bass bus level (dB): the families whose curves carry the most low end sat 3-6 dB under it at 63-100 Hz. */
  bassDb?: number;
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
    places: { drums: [0.05, 0.1, 0.2], bass: [0.15, 0, 0.05], chords: [-0.6, 0.7, 0.3], melody: [0.5, 0.45, 0.3], pad: [0, 1, 0.35] },
    drumsSideScale: 2,
    reverb: { rt60: 1.8, preDelayMs: 18, dampingHz: 4500, returnGain: 0.4 },
    vocalDb: -1,
    vocalSend: 0.25,
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
    places: { drums: [0, 0, 0.2], bass: [0.1, 0, 0.05], chords: [-0.5, 0.9, 0.3], melody: [0.45, 0.5, 0.35], pad: [0.1, 1, 0.4] },
    drumsSideScale: 1.8,
    reverb: { rt60: 1.7, preDelayMs: 22, dampingHz: 5000, returnGain: 0.4 },
    vocalDb: 0,
    vocalSend: 0.25,
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
  },
};

/** Side delays per part (ms): different, so wide parts stay apart. */
const WIDTH_DELAY_MS: Record<PartRole, number> = { drums: 11, bass: 13, chords: 17, melody: 23, pad: 29 };

export function mixPlan(family: GenreFamily): MixPlan {
  const f = FAMILIES[family];
  const buses = {} as Record<PartRole, BusSettings>;
  for (const role of Object.keys(BASE) as PartRole[]) {
    const [pan, width, send] = f.places[role];
    const sideScale = role === 'drums' ? f.drumsSideScale : 1;
    const gainDb = BASE[role].gainDb + (role === 'bass' ? (f.bassDb ?? 0) : 0);
    buses[role] = { ...BASE[role], gainDb, placement: { pan, width, sideScale, widthDelayMs: WIDTH_DELAY_MS[role] }, send };
  }
  return { buses, vocal: { ...VOCAL, gainDb: f.vocalDb, send: f.vocalSend }, reverb: f.reverb, duckDb: f.duckDb, backingGainDb: f.backingGainDb };
}
