/**
 * The amp stage (src/engine/mix/amp.ts): a guitar amp's drive and cabinet on a mono bus. Deterministic
 * signals only: sines.
 */
import { describe, expect, it } from 'vitest';
import { Amp } from '../../../src/engine/mix/amp.js';
import { BAND_CENTRES, longTermSpectrum } from '../../../src/engine/mix/tonal-balance.js';

const SR = 44100;
const sine = (hz: number, seconds: number, amp: number) => Float32Array.from({ length: seconds * SR }, (_, i) => amp * Math.sin((2 * Math.PI * hz * i) / SR));
const band = (levels: number[], hz: number) => levels[BAND_CENTRES.indexOf(hz)];

function run(settings: ConstructorParameters<typeof Amp>[0], x: Float32Array, block = 8192): Float32Array {
  const amp = new Amp(settings, SR);
  const y = x.slice();
  for (let at = 0; at < y.length; at += block) amp.process(y, at, Math.min(y.length, at + block));
  return y;
}

describe('amp stage', () => {
  it('leaves silence silent', () => {
    const y = run({ driveDb: 20, cabHz: 6000 }, new Float32Array(SR));
    expect(y.every((v) => v === 0)).toBe(true);
  });

  it('passes a quiet signal at unity gain below the cabinet', () => {
    const x = sine(440, 1, 0.001);
    const y = run({ driveDb: 0, cabHz: 8000 }, x);
    let worst = 0;
    for (let i = 4410; i < x.length; i++) worst = Math.max(worst, Math.abs(y[i] - x[i]));
    expect(worst).toBeLessThan(0.0001);
  });

  it('drive writes overtones: a loud 1 kHz tone gains its 3rd and 5th harmonics, more with more drive', () => {
    const x = sine(1000, 2, 0.3);
    const clean = longTermSpectrum(run({ driveDb: 0, cabHz: 16000 }, x), null, SR);
    const driven = longTermSpectrum(run({ driveDb: 18, cabHz: 16000 }, x), null, SR);
    // Level-normalised third octaves: the overtones stand higher against the fundamental.
    const rel = (l: number[], hz: number) => band(l, hz) - band(l, 1000);
    expect(rel(driven, 3150)).toBeGreaterThan(rel(clean, 3150) + 10);
    expect(rel(driven, 5000)).toBeGreaterThan(rel(clean, 5000) + 10);
  });

  it('is deterministic and block-size independent', () => {
    const x = sine(220, 1, 0.4);
    const a = run({ driveDb: 12, cabHz: 5000 }, x, 8192);
    const b = run({ driveDb: 12, cabHz: 5000 }, x, 128);
    expect(Array.from(a)).toEqual(Array.from(b));
  });
});
