/**
 * The mix's stereo reverb send: pre-delay, two allpass diffusers per side, then an 8-line feedback delay
 * network (Jot's design: a Householder feedback matrix, a gain per line set from the decay time, a one-pole
 * low-pass in each loop for air absorption). The left send feeds the even lines and the right send the odd
 * ones, and each output side is read from its own four lines with alternating signs, so the two tails are
 * decorrelated (a wide, diffuse room) rather than one tail panned to the centre.
 *
 * It replaces the earlier mono-summed Freeverb (music/reverb.ts), and it is the only reverb of a track
 * (every bus shares it by a send). The network runs at half the sample rate (the send is averaged in
 * pairs, the return interpolated back): its loop low-pass (at most 7 kHz) and the return's high-pass leave
 * nothing the half rate cannot carry, and it halves the reverb's cost, which is a fifth of the mix's.
 */
import { Biquad } from './biquad.js';

/** Delay lengths in samples at 44.1 kHz (mutually prime, 29 to 79 ms). */
const LINES = [1277, 1559, 1861, 2143, 2459, 2801, 3089, 3491];
const DIFFUSERS = [
  [142, 379],
  [163, 421],
];
const DIFFUSION = 0.6;

export interface ReverbSettings {
  /** Decay to -60 dB, seconds. */
  rt60: number;
  preDelayMs: number;
  /** Loop low-pass corner, Hz: lower is a darker, softer room. */
  dampingHz: number;
  /** Wet return level, linear. */
  returnGain: number;
}

class Allpass {
  private readonly buffer: Float32Array;
  private index = 0;
  constructor(size: number) {
    this.buffer = new Float32Array(size);
  }
  process(input: number): number {
    const delayed = this.buffer[this.index];
    const v = input + DIFFUSION * delayed;
    this.buffer[this.index] = v;
    if (++this.index >= this.buffer.length) this.index = 0;
    return delayed - DIFFUSION * v;
  }
}

export class StereoReverb {
  /** The eight delay lines, end to end in one buffer (line j at starts[j], lengths[j] long). */
  private readonly memory: Float32Array;
  private readonly starts: Int32Array;
  private readonly lengths: Int32Array;
  private readonly positions: Int32Array;
  private readonly feedback: Float64Array;
  private readonly lowpassState = new Float64Array(LINES.length);
  private readonly outs = new Float64Array(LINES.length);
  private readonly damp: number;
  private readonly preDelay: [Float32Array, Float32Array];
  private preIndex = 0;
  private readonly diffusers: [Allpass[], Allpass[]];
  private readonly returnHighPass: Biquad;
  private readonly returnGain: number;
  /** The last return sample pair, for interpolating the half-rate output back to full rate. */
  private lastL = 0;
  private lastR = 0;

  constructor(settings: ReverbSettings, sampleRate: number) {
    const rate = sampleRate / 2; // the network's rate
    const scale = rate / 44100;
    this.lengths = Int32Array.from(LINES, (n) => Math.max(1, Math.round(n * scale)));
    this.starts = new Int32Array(LINES.length);
    for (let j = 1; j < LINES.length; j++) this.starts[j] = this.starts[j - 1] + this.lengths[j - 1];
    this.memory = new Float32Array(this.starts[LINES.length - 1] + this.lengths[LINES.length - 1]);
    this.positions = Int32Array.from(this.starts);
    this.feedback = Float64Array.from(this.lengths, (length) => 10 ** ((-3 * length) / (settings.rt60 * rate)));
    this.damp = Math.exp((-2 * Math.PI * settings.dampingHz) / rate);
    const pre = Math.max(1, Math.round((settings.preDelayMs / 1000) * rate));
    this.preDelay = [new Float32Array(pre), new Float32Array(pre)];
    this.diffusers = [DIFFUSERS[0].map((n) => new Allpass(Math.round(n * scale))), DIFFUSERS[1].map((n) => new Allpass(Math.round(n * scale)))];
    // Low end in a reverb tail is mud under the bass: the return is high-passed (at the full rate, after interpolation).
    this.returnHighPass = new Biquad({ type: 'highpass', hz: 180 }, sampleRate);
    this.returnGain = settings.returnGain;
  }

  /** Reads the send (`sendL`/`sendR`) and adds the wet return into `left`/`right`. */
  process(sendL: Float32Array, sendR: Float32Array, left: Float32Array, right: Float32Array, length: number): void {
    const { memory, starts, lengths, positions, feedback, lowpassState, outs, damp, preDelay, diffusers } = this;
    const [preL, preR] = preDelay;
    const [dl, dr] = diffusers;
    const n = LINES.length;
    const keep = 1 - damp;
    for (let i = 0; i + 1 < length; i += 2) {
      // Pre-delay (at half rate: each pair of send samples averaged); the buffer holds exactly PRE samples.
      const inL = preL[this.preIndex];
      const inR = preR[this.preIndex];
      preL[this.preIndex] = (sendL[i] + sendL[i + 1]) * 0.5;
      preR[this.preIndex] = (sendR[i] + sendR[i + 1]) * 0.5;
      if (++this.preIndex >= preL.length) this.preIndex = 0;
      const xl = dl[1].process(dl[0].process(inL));
      const xr = dr[1].process(dr[0].process(inR));
      let sum = 0;
      for (let j = 0; j < n; j++) {
        // One-pole low-pass of the line's output, then its decay gain.
        const y = memory[positions[j]] * keep + lowpassState[j] * damp;
        lowpassState[j] = y;
        const out = y * feedback[j];
        outs[j] = out;
        sum += out;
      }
      const householder = (2 / n) * sum;
      for (let j = 0; j < n; j++) {
        const at = positions[j];
        memory[at] = outs[j] - householder + ((j & 1) === 0 ? xl : xr);
        positions[j] = at + 1 >= starts[j] + lengths[j] ? starts[j] : at + 1;
      }
      // Back to full rate: the new output at i + 1, the midpoint at i.
      const yl = outs[0] - outs[2] + outs[4] - outs[6];
      const yr = outs[1] - outs[3] + outs[5] - outs[7];
      sendL[i] = (this.lastL + yl) * 0.5;
      sendR[i] = (this.lastR + yr) * 0.5;
      sendL[i + 1] = yl;
      sendR[i + 1] = yr;
      this.lastL = yl;
      this.lastR = yr;
    }
    // An odd last sample (only a track's final block can have one) holds the last return.
    if (length % 2 === 1) {
      sendL[length - 1] = this.lastL;
      sendR[length - 1] = this.lastR;
    }
    // The send buffers now hold the raw return: filter it, then add it to the mix.
    this.returnHighPass.processStereo(sendL, sendR, length);
    const g = this.returnGain;
    for (let i = 0; i < length; i++) {
      left[i] += sendL[i] * g;
      right[i] += sendR[i] * g;
    }
  }
}
