/**
 * A small Schroeder/Freeverb-style reverb (4 combs + 2 allpasses per side). spessasynth's built-in effects
 * cost about as much as the whole synthesis again on this CPU budget (measured: 15x vs 30x real time), so
 * the synth runs dry and this cheaper room is added on the mixed stereo signal.
 */
const COMB_TUNING = [1116, 1188, 1277, 1356];
const ALLPASS_TUNING = [556, 441];
const STEREO_SPREAD = 23;

class Comb {
  private readonly buffer: Float32Array;
  private index = 0;
  private filterStore = 0;
  constructor(size: number, private readonly feedback: number, private readonly damp: number) {
    this.buffer = new Float32Array(size);
  }
  process(input: number): number {
    const output = this.buffer[this.index];
    this.filterStore = output * (1 - this.damp) + this.filterStore * this.damp;
    this.buffer[this.index] = input + this.filterStore * this.feedback;
    if (++this.index >= this.buffer.length) this.index = 0;
    return output;
  }
}

class Allpass {
  private readonly buffer: Float32Array;
  private index = 0;
  constructor(size: number) {
    this.buffer = new Float32Array(size);
  }
  process(input: number): number {
    const buffered = this.buffer[this.index];
    this.buffer[this.index] = input + buffered * 0.5;
    if (++this.index >= this.buffer.length) this.index = 0;
    return buffered - input;
  }
}

export class SmallRoomReverb {
  private readonly combs: [Comb[], Comb[]];
  private readonly allpasses: [Allpass[], Allpass[]];

  /** `mix` 0..1 is the wet level; `size` 0..1 lengthens the tail. */
  constructor(private readonly mix: number, size = 0.6, sampleRate = 44100) {
    const scale = sampleRate / 44100;
    const feedback = 0.7 + 0.28 * size;
    const side = (spread: number) => COMB_TUNING.map((t) => new Comb(Math.round((t + spread) * scale), feedback, 0.3));
    const allpass = (spread: number) => ALLPASS_TUNING.map((t) => new Allpass(Math.round((t + spread) * scale)));
    this.combs = [side(0), side(STEREO_SPREAD)];
    this.allpasses = [allpass(0), allpass(STEREO_SPREAD)];
  }

  /** Adds the reverb in place. */
  process(left: Float32Array, right: Float32Array, length = left.length): void {
    if (this.mix <= 0) return;
    const [combsL, combsR] = this.combs;
    const [allL, allR] = this.allpasses;
    const wet = this.mix * 0.25;
    for (let i = 0; i < length; i++) {
      const input = (left[i] + right[i]) * 0.1;
      let outL = combsL[0].process(input) + combsL[1].process(input) + combsL[2].process(input) + combsL[3].process(input);
      let outR = combsR[0].process(input) + combsR[1].process(input) + combsR[2].process(input) + combsR[3].process(input);
      outL = allL[1].process(allL[0].process(outL));
      outR = allR[1].process(allR[0].process(outR));
      left[i] += outL * wet;
      right[i] += outR * wet;
    }
  }
}
