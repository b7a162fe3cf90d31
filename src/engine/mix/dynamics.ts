/**
 * Bus dynamics: a feed-forward compressor (stereo-linked peak detector, attack/release, soft knee, make-up)
 * and a ducker that lowers the backing under the vocal. Both compute their gain at a control rate (every
 * CONTROL samples, 0.36 ms at 44.1 kHz) and interpolate it linearly in between: a logarithm per sample per
 * bus would cost more than the synthesis of a quiet part, and gain moves far slower than that anyway.
 */

const CONTROL = 16;

export interface CompressorSettings {
  thresholdDb: number;
  ratio: number;
  attackMs: number;
  releaseMs: number;
  /** Gain added after compression, dB. */
  makeupDb?: number;
  kneeDb?: number;
}

const coefficient = (ms: number, sampleRate: number) => Math.exp(-CONTROL / ((ms / 1000) * sampleRate));

export class Compressor {
  private readonly attack: number;
  private readonly release: number;
  private readonly makeup: number;
  private envelope = 0;
  private gain = 1;

  constructor(
    private readonly s: CompressorSettings,
    sampleRate: number,
  ) {
    this.attack = coefficient(s.attackMs, sampleRate);
    this.release = coefficient(s.releaseMs, sampleRate);
    this.makeup = 10 ** ((s.makeupDb ?? 0) / 20);
  }

  /** The static curve: gain reduction (dB, <= 0) for a detector level in dB, with a quadratic soft knee. */
  private reductionDb(levelDb: number): number {
    const { thresholdDb, ratio } = this.s;
    const knee = this.s.kneeDb ?? 6;
    const over = levelDb - thresholdDb;
    const slope = 1 / ratio - 1;
    if (over <= -knee / 2) return 0;
    if (over >= knee / 2) return slope * over;
    return (slope * (over + knee / 2) ** 2) / (2 * knee);
  }

  /** Compresses a stereo block in place (`right` may be the same array as `left`: a mono bus). */
  process(left: Float32Array, right: Float32Array, length: number): void {
    const mono = left === right;
    for (let start = 0; start < length; start += CONTROL) {
      const end = Math.min(length, start + CONTROL);
      let peak = 0;
      for (let i = start; i < end; i++) peak = Math.max(peak, Math.abs(left[i]), Math.abs(right[i]));
      const k = peak > this.envelope ? this.attack : this.release;
      this.envelope = peak + (this.envelope - peak) * k;
      const levelDb = this.envelope > 1e-6 ? 20 * Math.log10(this.envelope) : -120;
      const target = 10 ** (this.reductionDb(levelDb) / 20) * this.makeup;
      const step = (target - this.gain) / (end - start);
      let g = this.gain;
      if (mono) {
        for (let i = start; i < end; i++) {
          g += step;
          left[i] *= g;
        }
      } else {
        for (let i = start; i < end; i++) {
          g += step;
          left[i] *= g;
          right[i] *= g;
        }
      }
      this.gain = target;
    }
  }
}

/**
 * Sidechain ducking: the backing is lowered by up to `depthDb` while the key (the vocal) is sounding, in
 * proportion to how far the key's envelope reaches `keyLevel` (linear amplitude), with a fast attack and a
 * slower release, as a producer's sidechain compressor on the music bus under a singer.
 */
export class Ducker {
  private readonly attack: number;
  private readonly release: number;
  private readonly depth: number;
  private envelope = 0;
  private gain = 1;

  constructor(
    depthDb: number,
    private readonly keyLevel: number,
    sampleRate: number,
  ) {
    this.attack = coefficient(15, sampleRate);
    this.release = coefficient(250, sampleRate);
    this.depth = 1 - 10 ** (-depthDb / 20);
  }

  /** Ducks `left`/`right` in place under `key[keyStart ..]`. */
  process(left: Float32Array, right: Float32Array, length: number, key: Float32Array, keyStart: number): void {
    for (let start = 0; start < length; start += CONTROL) {
      const end = Math.min(length, start + CONTROL);
      let peak = 0;
      for (let i = start; i < end; i++) {
        const at = keyStart + i;
        if (at < key.length) peak = Math.max(peak, Math.abs(key[at]));
      }
      const k = peak > this.envelope ? this.attack : this.release;
      this.envelope = peak + (this.envelope - peak) * k;
      const target = 1 - this.depth * Math.min(1, this.envelope / this.keyLevel);
      const step = (target - this.gain) / (end - start);
      let g = this.gain;
      for (let i = start; i < end; i++) {
        g += step;
        left[i] *= g;
        right[i] *= g;
      }
      this.gain = target;
    }
  }
}
