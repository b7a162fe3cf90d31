/**
 * A guitar amp on a mono bus: drive into a soft clipper, then the cabinet's roll-off (issue 18: rock songs
 * stood 3.1-3.7 dB apart in a 24-band spectrum, target >= 4, and FluidR3Mono's clean, jazz and
 * distortion guitars are 22.05 kHz samples with nothing above 11 kHz). How hard the amp is driven and how
 * dark its cabinet is are what most tell one rock record's guitar from another's: the clipper writes odd
 * overtones of every note (a 4 kHz partial's third lands at 12 kHz, where the sample had nothing), more
 * the harder it is driven, and the cabinet's low-pass decides how much of them is heard.
 *
 * The clipper is tanh's [3/3] Padé form (odd, monotonic, exactly +-1 from |u| = 3), scaled so a signal
 * far under DRIVE_REF passes at unity gain whatever the drive: the drive moves the point where notes
 * start to clip, not the bus's level. It runs at the bus's rate without oversampling: overtones above
 * 22 kHz fold back, about 30 dB under the notes at full drive on the guitars' 2-5 kHz partials, and the
 * cabinet takes most of them off (an amp's speaker does that too). Deterministic; per sample one rational
 * function and one biquad.
 */
import { Biquad } from './biquad.js';

/**
 * Bus level (peak, linear) at which the clipper starts to bend with 0 dB of drive: the loudest blocks'
 * peaks on rock's chords and lead buses (0.07-0.11 measured on two pooled songs; the median block 0.02-0.05).
 */
const DRIVE_REF = 0.08;

export interface AmpSettings {
  /** Gain into the clipper over DRIVE_REF (dB): 0 bends only the loudest peaks, 24 clips nearly every note. */
  driveDb: number;
  /** The cabinet's roll-off (Hz): a second-order low-pass (Q 0.8). */
  cabHz: number;
}

function clip(u: number): number {
  if (u >= 3) return 1;
  if (u <= -3) return -1;
  const u2 = u * u;
  return (u * (27 + u2)) / (27 + 9 * u2);
}

export class Amp {
  private readonly k: number;
  private readonly cab: Biquad;

  constructor(settings: AmpSettings, sampleRate: number) {
    // clip(u) ~ u for small u, so clip(k x) / k ~ x: unity gain under the knee.
    this.k = 10 ** (settings.driveDb / 20) / DRIVE_REF;
    this.cab = new Biquad({ type: 'lowpass', hz: settings.cabHz, q: 0.8 }, sampleRate);
  }

  /** Processes samples[start..end) in place. */
  process(samples: Float32Array, start: number, end: number): void {
    const { k } = this;
    for (let i = start; i < end; i++) samples[i] = clip(k * samples[i]) / k;
    this.cab.processMono(samples, start, end);
  }
}
