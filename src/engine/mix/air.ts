/**
 * The "air" stage: a harmonic exciter that writes the octave the SoundFont's samples lack (issue 18: some
 * songs had nothing above 8 kHz; FluidR3Mono's piano, electric pianos, pads and horns fall 15-30 dB from
 * 4 kHz to 12.5 kHz where recorded instruments fall about 10, measured note by note). Per channel: the
 * band above `sourceHz` (two cascaded Butterworth high-passes), full-wave rectified, which doubles its
 * frequencies (|sin| carries the second harmonic at -7.5 dB of the fundamental), then only what lies above
 * `airHz` (two more high-passes: the rectifier's DC and difference tones fall away) and under 16 kHz,
 * added at `gainDb`.
 * Rectifying is homogeneous (|a x| = a |x|), so the air follows the source's level exactly: a bright part
 * gets more, a quiet passage less, a silence none, and the result does not depend on the mix's level.
 * The air continues the song's own slope from 4-8 kHz into 8-16 kHz instead of a fixed shelf that, over
 * a sample with nothing there, would lift only noise. Deterministic; about four stereo biquads a sample.
 */
import { Biquad } from './biquad.js';

/** Top of the air (Hz): a second-order low-pass. */
const AIR_TOP_HZ = 16000;

export interface AirSettings {
  /** Lower edge of the band the air is made from (Hz). */
  sourceHz: number;
  /** Lower edge of the air kept (Hz). */
  airHz: number;
  /** Level of the air added to the signal (dB; the rectified band's second harmonic sits 7.5 dB under this). */
  gainDb: number;
}

export class AirExciter {
  private readonly source: Biquad[];
  private readonly air: Biquad[];
  private readonly gain: number;
  private bandL: Float32Array;
  private bandR: Float32Array;

  constructor(settings: AirSettings, sampleRate: number) {
    // Two second-order sections with the Q of a fourth-order Butterworth: 24 dB per octave, flat passband.
    const butterworth4 = (hz: number) => [0.5412, 1.3066].map((q) => new Biquad({ type: 'highpass', hz, q }, sampleRate));
    this.source = butterworth4(settings.sourceHz);
    // Kept under 16 kHz: above LAME's 128 kbps low-pass (about 17 kHz) the air would be taken off again by
    // the encoder, and what it takes off leaves peaks over the float master's ceiling (folk with a vocal
    // decoded at -0.97 dBTP from -2).
    this.air = [...butterworth4(settings.airHz), new Biquad({ type: 'lowpass', hz: AIR_TOP_HZ }, sampleRate)];
    this.gain = 10 ** (settings.gainDb / 20);
    this.bandL = new Float32Array(0);
    this.bandR = new Float32Array(0);
  }

  /** Adds the air to a stereo block in place. */
  process(left: Float32Array, right: Float32Array, length: number): void {
    if (this.bandL.length < length) {
      this.bandL = new Float32Array(length);
      this.bandR = new Float32Array(length);
    }
    const { bandL, bandR, gain } = this;
    bandL.set(left.subarray(0, length));
    bandR.set(right.subarray(0, length));
    for (const f of this.source) f.processStereo(bandL, bandR, length);
    for (let i = 0; i < length; i++) {
      bandL[i] = Math.abs(bandL[i]);
      bandR[i] = Math.abs(bandR[i]);
    }
    for (const f of this.air) f.processStereo(bandL, bandR, length);
    for (let i = 0; i < length; i++) {
      left[i] += gain * bandL[i];
      right[i] += gain * bandR[i];
    }
  }
}
