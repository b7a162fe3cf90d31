/**
 * Room for the voice in the mix, in two processors the mixer runs on each block (mix/mixer.ts):
 *
 * - a dynamic EQ on the backing keyed from the vocal: the vocal's 1-5 kHz band (where consonant cues and
 *   the upper formants live) drives a wide cut of the backing's same band, up to MAX_CUT_DB while the voice
 *   sings there and none while it rests; the rest of the backing's spectrum is left alone, so the
 *   arrangement keeps its weight (a broadband ducker lowers everything: mix/dynamics.ts);
 * - a de-esser on the vocal: when its sibilance band (5-10 kHz) gets loud, that band alone is turned down
 *   by half the excess, at most DEESS_MAX_DB, so loud /s/ do not hiss while the consonants stay clear.
 *
 * Both are the peaking form y = x - k * BP(x), with BP a band-pass of unit gain and zero phase at its centre:
 * the cut is -20 log10(1 - k) dB there and nothing far from it, and k can move every control step without
 * recomputing coefficients. Gains are computed every CONTROL samples and interpolated linearly in between.
 */
import { BandPass } from '../voice/filters.js';

const CONTROL = 32;
/** The backing's cut (dB) at full key, and the key levels (dBFS, envelope of the vocal's 1-5 kHz band) where
 *  the cut starts and where it is full. The stem is levelled to -18 dBFS RMS over its lines (voice/index.ts). */
export const MAX_CUT_DB = 6;
const KEY_START_DB = -42;
const KEY_FULL_DB = -26;
const KEY_ATTACK_MS = 5;
const KEY_RELEASE_MS = 120;
/** De-esser: the sibilance band's envelope above this (dBFS) is reduced by half the excess, at most DEESS_MAX_DB. */
const DEESS_THRESHOLD_DB = -22;
export const DEESS_MAX_DB = 6;
const DEESS_RELEASE_MS = 40;

const coefficient = (ms: number, sampleRate: number) => Math.exp(-CONTROL / ((ms / 1000) * sampleRate));
const toDb = (x: number) => (x > 1e-7 ? 20 * Math.log10(x) : -140);

export class VocalSpace {
  private readonly key: BandPass;
  private readonly backingL: BandPass;
  private readonly backingR: BandPass;
  private readonly sibilanceKey: BandPass;
  private readonly sibilance: BandPass;
  private readonly attack: number;
  private readonly release: number;
  private readonly deessRelease: number;
  private keyEnvelope = 0;
  private sibilanceEnvelope = 0;
  private cut = 0; // k of the backing's cut
  private deess = 0; // k of the de-esser

  constructor(sampleRate: number) {
    this.key = new BandPass(sampleRate);
    this.backingL = new BandPass(sampleRate);
    this.backingR = new BandPass(sampleRate);
    // 1-5 kHz: centre at their geometric mean, bandwidth their difference (Q about 0.55).
    for (const f of [this.key, this.backingL, this.backingR]) f.set(2240, 4000);
    this.sibilanceKey = new BandPass(sampleRate);
    this.sibilance = new BandPass(sampleRate);
    for (const f of [this.sibilanceKey, this.sibilance]) f.set(7100, 5000);
    this.attack = coefficient(KEY_ATTACK_MS, sampleRate);
    this.release = coefficient(KEY_RELEASE_MS, sampleRate);
    this.deessRelease = coefficient(DEESS_RELEASE_MS, sampleRate);
  }

  /** De-esses `vocal` in place, then cuts the backing (`left`, `right`, in place) under the vocal's 1-5 kHz band. */
  process(left: Float32Array, right: Float32Array, vocal: Float32Array, length: number): void {
    for (let start = 0; start < length; start += CONTROL) {
      const end = Math.min(length, start + CONTROL);
      let keyPeak = 0;
      let sibilancePeak = 0;
      for (let i = start; i < end; i++) {
        keyPeak = Math.max(keyPeak, Math.abs(this.key.process(vocal[i])));
        sibilancePeak = Math.max(sibilancePeak, Math.abs(this.sibilanceKey.process(vocal[i])));
      }
      this.keyEnvelope = keyPeak + (this.keyEnvelope - keyPeak) * (keyPeak > this.keyEnvelope ? this.attack : this.release);
      this.sibilanceEnvelope =
        sibilancePeak + (this.sibilanceEnvelope - sibilancePeak) * (sibilancePeak > this.sibilanceEnvelope ? this.attack : this.deessRelease);
      const keyShare = Math.min(1, Math.max(0, (toDb(this.keyEnvelope) - KEY_START_DB) / (KEY_FULL_DB - KEY_START_DB)));
      const cutTarget = 1 - 10 ** ((-MAX_CUT_DB * keyShare) / 20);
      const deessDb = Math.min(DEESS_MAX_DB, Math.max(0, (toDb(this.sibilanceEnvelope) - DEESS_THRESHOLD_DB) / 2));
      const deessTarget = 1 - 10 ** (-deessDb / 20);
      const cutStep = (cutTarget - this.cut) / (end - start);
      const deessStep = (deessTarget - this.deess) / (end - start);
      for (let i = start; i < end; i++) {
        this.cut += cutStep;
        this.deess += deessStep;
        vocal[i] -= this.deess * this.sibilance.process(vocal[i]);
        left[i] -= this.cut * this.backingL.process(left[i]);
        if (right !== left) right[i] -= this.cut * this.backingR.process(right[i]);
      }
    }
  }
}
