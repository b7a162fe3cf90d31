/**
 * The singing-voice synthesiser: a source-filter model in the Klatt (1980, 1990) tradition.
 *
 *   glottal flow derivative (KLGLOTT88-style polynomial pulse at the sung pitch, its closure band-limited
 *   with a polyBLEP) + aspiration noise gated by the glottal cycle  ->  spectral tilt (one-pole low-pass)
 *   ->  cascade: nasal pole/zero pair, F7..F1 resonators (F4-F7 fixed per voice)   (voiced sounds, /h/)
 *   +  parallel: noise -> two band-passes + bypass                      (fricatives, bursts)
 *   ->  DC blocker -> stem
 *
 * Controls (formants, amplitudes, noise spectra) come from articulation.ts's tracks, read every 32 samples
 * (0.7 ms); source amplitudes are interpolated per sample so nothing clicks. Only the lines are rendered;
 * between them the stem stays silent. Deterministic: the noise is a seeded xorshift.
 */
import { NASAL_POLE_HZ, S, T, buildTracks, tunedF1 } from './articulation.js';
import { AntiResonator, BandPass, Resonator } from './filters.js';
import { PitchContour, midiToHz } from './pitch-contour.js';
import type { VocalTimeline } from './timing.js';
import type { VoiceSpec } from './voices.js';

const CONTROL_SAMPLES = 32;
const ASPIRATION_GAIN = 0.25;
/** Frication and bursts in the parallel branch, at speech level. It was 2.2 (7 dB more) while the vowels had
 *  almost nothing above 4 kHz: against such vowels every noise read as /s/ or /z/ to the recogniser
 *  (bench/listening.ts, phone decodes: /dh/, /v/, /f/, /k/ heard as /z/). */
const FRICATION_GAIN = 1;
/**
 * Higher-pole correction (Klatt 1980): a cascade of seven resonators falls away above its last pole, so a
 * vowel had 40-60 dB less energy at 4-6 kHz than espeak-ng's (relative to its 0-500 Hz band); the formants
 * of a real tract go on above 5 kHz. Two first-order high shelves of HIGHER_POLE_DB each, from
 * HIGHER_POLE_HZ, on the cascade's output put back about 18 dB at 5 kHz.
 */
const HIGHER_POLE_DB = 8;
const HIGHER_POLE_HZ = 2500;
const TAIL_SEC = 0.25;
/** Cycle-to-cycle irregularity of a healthy voice: period jitter and amplitude shimmer (relative). */
const JITTER = 0.004;
const SHIMMER = 0.04;

export interface SynthOptions {
  voice: VoiceSpec;
  seed: number;
  sampleRate: number;
  totalSamples: number;
}

export function synthesise(timeline: VocalTimeline, opts: SynthOptions): Float32Array {
  const { voice, sampleRate: fs } = opts;
  const out = new Float32Array(opts.totalSamples);
  if (timeline.segments.length === 0) return out;
  const { tract, source } = buildTracks(timeline, voice);
  const pitch = new PitchContour(timeline.notes, voice, opts.seed);

  const formants = [new Resonator(fs), new Resonator(fs), new Resonator(fs)];
  const f4 = new Resonator(fs);
  const f5 = new Resonator(fs);
  f4.set(voice.f4, 250);
  f5.set(voice.f5, 300);
  // Two fixed upper resonances: at 44.1 kHz a five-formant cascade falls off too steeply above F5 and
  // sounds muffled; these keep the 4-7 kHz "air" of a real voice (Klatt's F6 serves the same purpose).
  const f6 = new Resonator(fs);
  const f7 = new Resonator(fs);
  f6.set(voice.f5 * 1.28, 700);
  f7.set(voice.f5 * 1.7, 1400);
  const nasalPole = new Resonator(fs);
  nasalPole.set(NASAL_POLE_HZ, 100);
  const nasalZero = new AntiResonator(fs);
  const band1 = new BandPass(fs);
  const band2 = new BandPass(fs);
  const tp = new Float64Array(8);
  const sp = new Float64Array(10);
  const spNext = new Float64Array(10);

  let noiseState = (opts.seed ^ 0x9e3779b9) >>> 0 || 1;
  let phase = 0;
  let pending = 0; // the previous source sample, held back one sample for the polyBLEP correction
  let tilted = 0;
  let dcIn = 0;
  let dcOut = 0;
  const oq = voice.openQuotient;
  const shelfGain = 10 ** (HIGHER_POLE_DB / 20) - 1;
  const shelfCoefficient = 1 - Math.exp((-2 * Math.PI * HIGHER_POLE_HZ) / fs);
  let shelf1 = 0;
  let shelf2 = 0;
  let periodScale = 1; // this glottal cycle's jitter
  let cycleGain = 1; // and shimmer

  for (const window of renderWindows(timeline, fs, opts.totalSamples)) {
    for (let n0 = window.start; n0 < window.end; n0 += CONTROL_SAMPLES) {
      const count = Math.min(CONTROL_SAMPLES, window.end - n0);
      const time = n0 / fs;
      tract.read(time, tp);
      source.read(time, sp);
      source.read((n0 + count) / fs, spNext);
      const f0 = midiToHz(pitch.midiAt(time));
      const loud = pitch.loudnessAt(time);
      // Singers raise F1 towards a high note's pitch so the note keeps its resonance ("formant tuning"), on
      // open vowels only and within the track's allowance (articulation.ts, f1Raise).
      formants[0].set(tunedF1(tp[T.F1], tp[T.F1_RAISE], f0), tp[T.B1]);
      formants[1].set(tp[T.F2], tp[T.B2]);
      formants[2].set(tp[T.F3], tp[T.B3]);
      nasalZero.set(tp[T.FNZ], 100);
      const fricative = sp[S.AF] > 0 || spNext[S.AF] > 0;
      if (fricative) {
        band1.set(sp[S.N1F], sp[S.N1B]);
        band2.set(sp[S.N2F], sp[S.N2B]);
      }
      for (let k = 0; k < count; k++) {
        const step = f0 / (fs * periodScale);
        const dx = step / oq;
        const w = k / count;
        const av = (sp[S.AV] + (spNext[S.AV] - sp[S.AV]) * w) * loud;
        const ah = (sp[S.AH] + (spNext[S.AH] - sp[S.AH]) * w) * loud;
        const af = (sp[S.AF] + (spNext[S.AF] - sp[S.AF]) * w) * loud;

        // Glottal flow derivative: 2x - 3x^2 over the open phase (x in 0..1), zero while closed. The jump
        // back to zero at closure is the main excitation; polyBLEP smooths it over two samples.
        phase += step;
        if (phase >= 1) {
          phase -= 1;
          // A new glottal cycle: draw its jitter and shimmer (uniform, from the same seeded noise).
          noiseState ^= noiseState << 13;
          noiseState ^= noiseState >>> 17;
          noiseState ^= noiseState << 5;
          const u = (noiseState >>> 0) / 4294967296;
          periodScale = 1 + JITTER * (2 * u - 1);
          cycleGain = 1 + SHIMMER * (2 * ((u * 7919) % 1) - 1);
        }
        const x = phase / oq;
        let g = x < 1 ? 2 * x - 3 * x * x : 0;
        let correctPrevious = 0;
        if (x >= 1 && x - dx < 1) {
          const t = (x - 1) / dx; // how far past the closure this sample is, in samples
          g -= (1 - t) * (1 - t) * 0.5;
          correctPrevious = t * t * 0.5;
        }
        const glottal = pending + correctPrevious;
        pending = g;

        noiseState ^= noiseState << 13;
        noiseState ^= noiseState >>> 17;
        noiseState ^= noiseState << 5;
        const noise = (noiseState >>> 0) / 2147483648 - 1;
        const open = x < 1 ? 1 : 0.3; // breath noise is strongest while the glottis is open
        // Aspiration (/h/, a voiceless stop's release) only: breath noise under a held vowel read as /s/, /z/
        // or noise to the recogniser (bench/README.md, Listening, round 4).
        const src = glottal * av * cycleGain + noise * ASPIRATION_GAIN * ah * open;
        tilted += (1 - voice.tilt) * (src - tilted);

        let y = nasalZero.process(nasalPole.process(tilted));
        y = formants[0].process(formants[1].process(formants[2].process(f4.process(f5.process(f6.process(f7.process(y)))))));
        shelf1 += shelfCoefficient * (y - shelf1);
        y += shelfGain * (y - shelf1);
        shelf2 += shelfCoefficient * (y - shelf2);
        y += shelfGain * (y - shelf2);
        if (fricative) {
          // In a voiced fricative the airflow, and so the turbulence, pulses with the glottis.
          const pulsed = av > 0.05 ? 0.6 + 0.4 * open : 1;
          y += FRICATION_GAIN * af * pulsed * (band1.process(noise) * sp[S.N1G] + band2.process(noise) * sp[S.N2G] + noise * sp[S.BYP]);
        }
        // DC blocker (about 20 Hz).
        dcOut = y - dcIn + 0.997 * dcOut;
        dcIn = y;
        out[n0 + k] = dcOut;
      }
    }
  }
  return out;
}

/** Sample ranges to render: each line from its first consonant to its release tail, merged when close. */
function renderWindows(timeline: VocalTimeline, fs: number, total: number): { start: number; end: number }[] {
  const windows: { start: number; end: number }[] = [];
  for (const line of timeline.lines) {
    const start = Math.max(0, Math.floor((line.startSec - 0.01) * fs));
    const end = Math.min(total, Math.ceil((line.endSec + TAIL_SEC) * fs));
    if (end <= start) continue;
    const last = windows[windows.length - 1];
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else windows.push({ start, end });
  }
  return windows;
}
