/**
 * Placing a bus in the stereo field. The synth renders each part centred (CC10 = 64), so a melodic part
 * arrives as dual mono; the drum kit arrives with the SoundFont's own per-drum pans.
 *
 * - width: a decorrelated side signal is added as +s on the left and -s on the right, s being the bus's
 *   mid delayed by a few tens of ms (a different delay per bus, so two wide parts do not fuse). The mono sum
 *   L+R is untouched (the side cancels), which is why this is used instead of a Haas pan.
 * - sideScale: scales what side the bus already has (the drum kit's own spread). The kit's added width is
 *   high-passed at 300 Hz, so the kick stays in the centre.
 * - pan: a constant-power balance, unity at the centre.
 */

export interface Placement {
  /** -1 (left) .. +1 (right). */
  pan: number;
  /** Added side, as a fraction of the mid (0 = none; 0.5 puts the side about 6 dB under the mid). */
  width: number;
  sideScale?: number;
  /** Delay of the decorrelated side, ms (10-30). */
  widthDelayMs?: number;
}

/** The drum kit's added width starts above this (Hz): cymbals and snare spread, the kick does not. */
const KIT_WIDTH_HZ = 300;

export class StereoPlacer {
  private readonly delay: Float32Array;
  private index = 0;
  private readonly gainL: number;
  private readonly gainR: number;
  private readonly width: number;
  private readonly sideScale: number;
  /** One-pole high-pass on the kit's added width (coefficient, state): the kick stays centred. */
  private readonly kitWidthPole: number;
  private kitWidthLow = 0;

  constructor(p: Placement, sampleRate: number) {
    this.kitWidthPole = Math.exp((-2 * Math.PI * KIT_WIDTH_HZ) / sampleRate);
    this.delay = new Float32Array(Math.max(1, Math.round(((p.widthDelayMs ?? 17) / 1000) * sampleRate)));
    const angle = ((p.pan + 1) * Math.PI) / 4;
    this.gainL = Math.cos(angle) * Math.SQRT2;
    this.gainR = Math.sin(angle) * Math.SQRT2;
    this.width = p.width;
    this.sideScale = p.sideScale ?? 1;
  }

  /**
   * Places a stereo bus and adds it into the mix: `dry` times the placed signal into `outL`/`outR`,
   * `wet` times it into the reverb send.
   */
  placeStereo(left: Float32Array, right: Float32Array, length: number, out: Sum): void {
    const { delay, width, sideScale } = this;
    const dl = this.gainL * out.dry,
      dr = this.gainR * out.dry,
      wl = this.gainL * out.wet,
      wr = this.gainR * out.wet;
    const { outL, outR, sendL, sendR } = out;
    for (let i = 0; i < length; i++) {
      const mid = (left[i] + right[i]) * 0.5;
      let side = (left[i] - right[i]) * 0.5 * sideScale;
      if (width > 0) {
        side += width * delay[this.index];
        this.kitWidthLow = mid + this.kitWidthPole * (this.kitWidthLow - mid);
        delay[this.index] = mid - this.kitWidthLow;
        if (++this.index >= delay.length) this.index = 0;
      }
      const l = mid + side;
      const r = mid - side;
      outL[i] += l * dl;
      outR[i] += r * dr;
      sendL[i] += l * wl;
      sendR[i] += r * wr;
    }
  }

  /** The same for a mono bus (the synth's melodic parts and the vocal): the side is the width alone. */
  placeMono(mono: Float32Array, length: number, out: Sum): void {
    const { delay, width } = this;
    const dl = this.gainL * out.dry,
      dr = this.gainR * out.dry,
      wl = this.gainL * out.wet,
      wr = this.gainR * out.wet;
    const { outL, outR, sendL, sendR } = out;
    let index = this.index;
    for (let i = 0; i < length; i++) {
      const mid = mono[i];
      const side = width * delay[index];
      delay[index] = mid;
      if (++index >= delay.length) index = 0;
      const l = mid + side;
      const r = mid - side;
      outL[i] += l * dl;
      outR[i] += r * dr;
      sendL[i] += l * wl;
      sendR[i] += r * wr;
    }
    this.index = index;
  }
}

/** Where a placed bus goes: the mix and the reverb send, with their levels. */
export interface Sum {
  outL: Float32Array;
  outR: Float32Array;
  sendL: Float32Array;
  sendR: Float32Array;
  dry: number;
  wet: number;
}
