/**
 * The kit's missing top, synthesised (issue 18: in FluidR3Mono the kicks fall 35-75 dB and the snares
 * 15-31 dB under their own energy at 11-16 kHz, measured note by note, where a miked kit has a beater's
 * click and the snare wires' hiss up there; the hats and cymbals reach 16 kHz and need nothing). Two
 * layers, driven by the score's own kick and snare hits and added to the kit's channel before its bus
 * (so the bus EQ, compressor, placement and reverb treat them as part of the kit):
 * - a **click** on every kick: white noise high-passed at `clickHz`, decaying in a few milliseconds;
 * - **wires** under every snare: noise band-passed from `wiresHz` up, decaying over `wiresDecayMs`.
 * Their level is set against the hit's own energy: the kit's kick or snare at velocity 100 (KIT_ENERGY,
 * measured) scaled by the velocity as the synth scales it (amplitude ~ (v / 127)^2), plus the song's
 * `clickDb` / `wiresDb`. A song's draw (mix/plan.ts) moves the levels, the wires' band and their decay:
 * one drummer's kit ticks, another's snare hisses.
 * Deterministic: the noise is a xorshift generator seeded from the song; the layers depend only on the hits.
 */

/** General MIDI kick and snare notes (acoustic and electric). */
const KICKS = new Set([35, 36]);
const SNARES = new Set([38, 40]);

/**
 * Energy (sum of squares over 0.5 s, one channel, channel volume 96) of each FluidR3Mono kit's kick and
 * snare at velocity 100, in dB. Measured once with spessasynth_core as render.ts drives it (the probe is
 * described in bench/README.md, "Tonal balance"). Kits not listed use the Standard kit's figures.
 */
const KIT_ENERGY_DB: Record<number, { kick: number; snare: number }> = {
  0: { kick: 12.4, snare: 5.2 },
  8: { kick: 14.8, snare: 13.1 },
  16: { kick: 15.6, snare: 11.6 },
  24: { kick: 12.9, snare: 12.6 },
  25: { kick: 23.6, snare: 15.7 },
  32: { kick: 17.2, snare: 10.9 },
  40: { kick: 17.2, snare: 8.8 },
};

/** Decay of the kick's click (ms, time constant): a beater's tick, not a noise burst. */
const CLICK_DECAY_MS = 3;
/** Below this the envelopes count as silent and the layer skips its filters. */
const SILENT = 1e-6;

export interface DrumTopSettings {
  /** The click's energy against the kick's (dB). */
  clickDb: number;
  /** Lower edge of the click (Hz). */
  clickHz: number;
  /** The wires' energy against the snare's (dB). */
  wiresDb: number;
  /** Lower edge of the wires' band (Hz). */
  wiresHz: number;
  /** Time constant of the wires' decay (ms). */
  wiresDecayMs: number;
}

export interface DrumHit {
  /** First sample of the hit in the track. */
  sample: number;
  midi: number;
  velocity: number;
}

/** A second-order high-pass (RBJ, Q 0.707), one channel, inlined: it runs on every sample a layer sounds. */
class HighPass {
  private readonly b0: number;
  private readonly b1: number;
  private readonly a1: number;
  private readonly a2: number;
  private s1 = 0;
  private s2 = 0;

  constructor(hz: number, sampleRate: number) {
    const w = (2 * Math.PI * hz) / sampleRate;
    const cos = Math.cos(w);
    const alpha = Math.sin(w) / (2 * Math.SQRT1_2);
    const a0 = 1 + alpha;
    this.b0 = (1 + cos) / 2 / a0;
    this.b1 = -(1 + cos) / a0;
    this.a1 = (-2 * cos) / a0;
    this.a2 = (1 - alpha) / a0;
  }

  step(x: number): number {
    const y = this.b0 * x + this.s1;
    this.s1 = this.b1 * x - this.a1 * y + this.s2;
    this.s2 = this.b0 * x - this.a2 * y;
    return y;
  }
}

export class DrumTop {
  private readonly hits: DrumHit[];
  private next = 0;
  private readonly clickFilter: HighPass;
  private readonly wiresFilter: HighPass;
  private readonly clickDecay: number;
  private readonly wiresDecay: number;
  /** Peak amplitude of a layer for a hit at velocity 100, before the velocity scaling. */
  private readonly clickPeak: number;
  private readonly wiresPeak: number;
  private clickEnv = 0;
  private wiresEnv = 0;
  private noise: number;

  constructor(settings: DrumTopSettings, kit: number, hits: readonly DrumHit[], seed: number, sampleRate: number) {
    this.hits = hits.filter((h) => KICKS.has(h.midi) || SNARES.has(h.midi)).sort((a, b) => a.sample - b.sample);
    this.clickFilter = new HighPass(settings.clickHz, sampleRate);
    this.wiresFilter = new HighPass(settings.wiresHz, sampleRate);
    const clickTau = (CLICK_DECAY_MS / 1000) * sampleRate;
    const wiresTau = (settings.wiresDecayMs / 1000) * sampleRate;
    this.clickDecay = Math.exp(-1 / clickTau);
    this.wiresDecay = Math.exp(-1 / wiresTau);
    const kitEnergy = KIT_ENERGY_DB[kit] ?? KIT_ENERGY_DB[0];
    // Noise of unit variance under an envelope A e^(-n / tau) holds A^2 tau / 2; the high-pass keeps the
    // share of white noise above its edge (1 - 2 f / fs).
    const peak = (energyDb: number, tau: number, hz: number) => Math.sqrt((2 * 10 ** (energyDb / 10)) / (tau * Math.max(0.05, 1 - (2 * hz) / sampleRate)));
    this.clickPeak = peak(kitEnergy.kick + settings.clickDb, clickTau, settings.clickHz);
    this.wiresPeak = peak(kitEnergy.snare + settings.wiresDb, wiresTau, settings.wiresHz);
    this.noise = (seed >>> 0) % 0x7fffffff || 1;
  }

  /** Adds the layers for samples [blockStart, blockStart + length) to the kit's stereo block, in place. */
  process(left: Float32Array, right: Float32Array, blockStart: number, length: number): void {
    const { hits, clickFilter, wiresFilter, clickDecay, wiresDecay } = this;
    let { clickEnv, wiresEnv, noise, next } = this;
    for (let i = 0; i < length; i++) {
      const at = blockStart + i;
      while (next < hits.length && hits[next].sample <= at) {
        const h = hits[next++];
        const scale = (h.velocity / 100) ** 2;
        if (KICKS.has(h.midi)) clickEnv = Math.max(clickEnv, this.clickPeak * scale);
        else wiresEnv = Math.max(wiresEnv, this.wiresPeak * scale);
      }
      // Between hits (most of the track) nothing is drawn: the next hit starts the envelopes again.
      if (clickEnv < SILENT && wiresEnv < SILENT) continue;
      // xorshift32: two draws, one per layer, so the click and the wires are uncorrelated.
      noise ^= noise << 13;
      noise ^= noise >>> 17;
      noise ^= noise << 5;
      const a = (noise >>> 0) / 2147483648 - 1;
      noise ^= noise << 13;
      noise ^= noise >>> 17;
      noise ^= noise << 5;
      const b = (noise >>> 0) / 2147483648 - 1;
      // Uniform noise on [-1, 1) has variance 1/3.
      const y = clickFilter.step(a * clickEnv * Math.sqrt(3)) + wiresFilter.step(b * wiresEnv * Math.sqrt(3));
      left[i] += y;
      right[i] += y;
      clickEnv *= clickDecay;
      wiresEnv *= wiresDecay;
    }
    this.clickEnv = clickEnv;
    this.wiresEnv = wiresEnv;
    this.noise = noise;
    this.next = next;
  }
}
