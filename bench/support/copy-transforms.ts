/**
 * Harder near-duplicate copies of a catalog master than re-encoding and trimming (issue 18): the changes a
 * copier makes to hide a copy. Each takes the master's mono PCM at the working rate and returns the copy's.
 * Pitch and tempo changes that keep the other one use SoX (Debian `sox`; `apt-get install sox`), whose
 * `pitch` and `tempo` effects are the usual tools for it; the rest is plain arithmetic here.
 */
import { execFileSync } from 'node:child_process';
import { Rng } from '../../src/engine/random.js';

export type CopyTransform = (pcm: Float32Array, sampleRate: number, other: Float32Array) => Float32Array;

let soxPresent: boolean | undefined;
export function hasSox(): boolean {
  if (soxPresent === undefined) {
    try {
      execFileSync('sh', ['-c', 'command -v sox'], { stdio: 'pipe' });
      soxPresent = true;
    } catch {
      soxPresent = false;
    }
  }
  return soxPresent;
}

/** Runs the PCM through `sox` with the given effects (32-bit float raw in and out, mono). */
export function sox(pcm: Float32Array, sampleRate: number, effects: string[]): Float32Array {
  const raw = ['-t', 'f32', '-r', String(sampleRate), '-c', '1'];
  const out = execFileSync('sox', ['-q', '-V1', ...raw, '-', ...raw, '-', ...effects], {
    input: Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength),
    maxBuffer: 1 << 28,
  });
  return new Float32Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength));
}

/** Plays the PCM `ratio` times faster, pitch and tempo together (a turntable's pitch control). */
export function varispeed(pcm: Float32Array, ratio: number): Float32Array {
  const out = new Float32Array(Math.floor(pcm.length / ratio));
  for (let i = 0; i < out.length; i++) {
    const x = i * ratio;
    const k = Math.floor(x);
    const frac = x - k;
    out[i] = (pcm[k] ?? 0) * (1 - frac) + (pcm[k + 1] ?? 0) * frac;
  }
  return out;
}

const rms = (pcm: Float32Array) => Math.sqrt(pcm.reduce((s, x) => s + x * x, 0) / Math.max(1, pcm.length));

/** The master with `other` mixed in at `otherDb` relative to the master's level (both scaled to stay in range). */
export function mixUnder(pcm: Float32Array, other: Float32Array, otherDb: number): Float32Array {
  const gain = (rms(pcm) / Math.max(1e-9, rms(other))) * 10 ** (otherDb / 20);
  const out = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = (pcm[i] + gain * (other[i % other.length] ?? 0)) / (1 + gain);
  return out;
}

/** The master with white noise at `snrDb` under its level (seeded, so the copy is the same every run). */
export function withNoise(pcm: Float32Array, snrDb: number): Float32Array {
  const rng = new Rng(18);
  const level = rms(pcm) * 10 ** (-snrDb / 20) * Math.sqrt(3);
  return pcm.map((x) => x + level * (2 * rng.next() - 1));
}

/** The transformations, by name; those needing SoX are left out when it is not installed. */
export function copyTransforms(): [string, CopyTransform][] {
  const all: [string, CopyTransform, boolean][] = [
    ['pitch +1 semitone', (p, r) => sox(p, r, ['pitch', '100']), true],
    ['pitch -2 semitones', (p, r) => sox(p, r, ['pitch', '-200']), true],
    ['tempo +6%', (p, r) => sox(p, r, ['tempo', '1.06']), true],
    ['tempo -8%', (p, r) => sox(p, r, ['tempo', '0.92']), true],
    ['varispeed +1 semitone', (p) => varispeed(p, 2 ** (1 / 12)), false],
    ['re-EQ (bass +10 dB, treble -10 dB)', (p, r) => sox(p, r, ['bass', '+10', 'treble', '-10', 'gain', '-n', '-3']), true],
    ['telephone band 300-3400 Hz', (p, r) => sox(p, r, ['highpass', '300', 'lowpass', '3400', 'gain', '-n', '-3']), true],
    ['excerpt: the middle half', (p) => p.slice(Math.floor(p.length / 4), Math.floor((3 * p.length) / 4)), false],
    ['white noise at 20 dB SNR', (p) => withNoise(p, 20), false],
    ['under other music at -6 dB', (p, _r, o) => mixUnder(p, o, -6), false],
    ['under other music at 0 dB', (p, _r, o) => mixUnder(p, o, 0), false],
  ];
  return all.filter(([, , needsSox]) => !needsSox || hasSox()).map(([name, t]) => [name, t]);
}
