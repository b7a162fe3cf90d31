/**
 * The mixing desk: one bus per part (the synth's per-channel output, see music/render.ts), each with EQ,
 * compressor, stereo placement and a reverb send; the instruments summed and brought up to level; the
 * vocal bus (EQ, compression, send) on top of the backing, which is ducked under it where the family calls
 * for it; one shared stereo reverb return. Works block by block; the master chain (master.ts) follows.
 */
import { AirExciter } from './air.js';
import { type Biquad, eqChain } from './biquad.js';
import { Compressor, Ducker } from './dynamics.js';
import { type BusSettings, type MixPlan, type PartRole } from './plan.js';
import { StereoReverb } from './reverb.js';
import { StereoPlacer, type Sum } from './stereo.js';
import { VocalSpace } from './vocal-space.js';

/** Vocal envelope at which the ducker reaches its full depth (the stem is levelled to -18 dBFS RMS). */
const DUCK_KEY_LEVEL = 0.25;

/**
 * One part's bus. The synth's melodic parts render centred from mono samples (FluidR3Mono), so their L
 * and R are equal: they run as mono buses (EQ and compressor on one channel, half the cost) and become
 * stereo only in the placement. The drum kit keeps its own stereo (per-drum pans of the SoundFont).
 */
class Bus {
  private readonly eq: Biquad[];
  private readonly compressor: Compressor;
  private readonly placer: StereoPlacer;
  readonly gain: number;
  readonly send: number;

  constructor(
    s: BusSettings,
    sampleRate: number,
    readonly stereo: boolean,
  ) {
    this.eq = eqChain(s.eq, sampleRate);
    this.compressor = new Compressor(s.compressor, sampleRate);
    this.placer = new StereoPlacer(s.placement, sampleRate);
    this.gain = 10 ** (s.gainDb / 20);
    this.send = s.send;
  }

  /** Processes the bus (in place) and adds it into `out`. */
  mixInto(left: Float32Array, right: Float32Array, length: number, out: Sum): void {
    if (this.stereo) {
      for (const filter of this.eq) filter.processStereo(left, right, length);
      this.compressor.process(left, right, length);
      this.placer.placeStereo(left, right, length, out);
      return;
    }
    if (left !== right) for (let i = 0; i < length; i++) left[i] = (left[i] + right[i]) * 0.5;
    for (const filter of this.eq) filter.processMono(left, 0, length);
    this.compressor.process(left, left, length);
    this.placer.placeMono(left, length, out);
  }
}

export interface MixerInput {
  /** MIDI channel and role of each part. */
  parts: readonly { channel: number; role: PartRole }[];
  plan: MixPlan;
  sampleRate: number;
  blockSamples: number;
  /** The vocal stem (mono), or null for an instrumental. */
  vocal: Float32Array | null;
}

export class Mixer {
  private readonly buses: { channel: number; bus: Bus }[];
  private readonly vocalBus: Bus | null;
  private readonly ducker: Ducker | null;
  private readonly vocalSpace: VocalSpace | null;
  private readonly reverb: StereoReverb;
  private readonly air: AirExciter;
  private readonly backingGain: number;
  private readonly sendL: Float32Array;
  private readonly sendR: Float32Array;
  private readonly vocalL: Float32Array;

  constructor(private readonly input: MixerInput) {
    const { plan, sampleRate, blockSamples } = input;
    this.buses = input.parts.map((p) => ({ channel: p.channel, bus: new Bus(plan.buses[p.role], sampleRate, p.role === 'drums') }));
    this.vocalBus = input.vocal ? new Bus(plan.vocal, sampleRate, false) : null;
    this.ducker = input.vocal && plan.duckDb > 0 ? new Ducker(plan.duckDb, DUCK_KEY_LEVEL, sampleRate) : null;
    this.vocalSpace = input.vocal ? new VocalSpace(sampleRate) : null;
    this.reverb = new StereoReverb(plan.reverb, sampleRate);
    this.air = new AirExciter(plan.air, sampleRate);
    this.backingGain = 10 ** (plan.backingGainDb / 20);
    this.sendL = new Float32Array(blockSamples);
    this.sendR = new Float32Array(blockSamples);
    this.vocalL = new Float32Array(blockSamples);
  }

  /**
   * Mixes one block: `channels[c]` is MIDI channel c's stereo output (processed in place); the mix is
   * written to `outL`/`outR`. `blockStart` is the block's first sample in the track (for the vocal).
   */
  process(channels: readonly Float32Array[][], blockStart: number, length: number, outL: Float32Array, outR: Float32Array): void {
    const { sendL, sendR } = this;
    outL.fill(0, 0, length);
    outR.fill(0, 0, length);
    sendL.fill(0, 0, length);
    sendR.fill(0, 0, length);
    const g = this.backingGain;
    for (const { channel, bus } of this.buses) {
      const [l, r] = channels[channel];
      bus.mixInto(l, r, length, { outL, outR, sendL, sendR, dry: bus.gain * g, wet: bus.send * g });
    }
    // The instruments' air, before the vocal (it has its own air shelf) and the reverb (it damps the top anyway).
    this.air.process(outL, outR, length);
    const vocal = this.input.vocal;
    if (vocal && this.vocalBus) {
      this.ducker?.process(outL, outR, length, vocal, blockStart);
      const { vocalL } = this;
      for (let i = 0; i < length; i++) {
        const at = blockStart + i;
        vocalL[i] = at < vocal.length ? vocal[at] : 0;
      }
      this.vocalSpace?.process(outL, outR, vocalL, length); // de-essing, and the backing's 1-5 kHz under the voice
      this.vocalBus.mixInto(vocalL, vocalL, length, { outL, outR, sendL, sendR, dry: this.vocalBus.gain, wet: this.vocalBus.send });
    }
    this.reverb.process(sendL, sendR, outL, outR, length);
  }
}
