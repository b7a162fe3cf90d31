/**
 * Integrated loudness after ITU-R BS.1770-4 / EBU R128 (src/engine/audio/loudness.ts), checked against what
 * the recommendation and EBU Tech 3341 state for synthetic signals: the K-weighting table at 48 kHz, a
 * full-scale 997 Hz sine in one channel at -3.01 LUFS, a -23 dBFS stereo sine at -23 LUFS, and the gates.
 */
import { describe, expect, it } from 'vitest';
import { highPassCoefficients, shelfCoefficients } from '../../src/engine/audio/k-weighting.js';
import { LoudnessMeter } from '../../src/engine/audio/loudness.js';

/** A sine of `seconds` at `dbfs` (peak), as Float32 samples. */
function sine(sampleRate: number, seconds: number, dbfs: number, frequency = 997): Float32Array {
  const amplitude = 10 ** (dbfs / 20);
  const out = new Float32Array(Math.round(sampleRate * seconds));
  for (let i = 0; i < out.length; i++) out[i] = amplitude * Math.sin((2 * Math.PI * frequency * i) / sampleRate);
  return out;
}

function concat(...parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Measures channels pushed in chunks of `chunk` frames. */
function measure(sampleRate: number, channels: Float32Array[], chunk = 4096): number | null {
  const meter = new LoudnessMeter(sampleRate, channels.length);
  const frames = channels[0].length;
  for (let at = 0; at < frames; at += chunk) {
    const end = Math.min(frames, at + chunk);
    meter.push(
      channels.map((c) => c.subarray(at, end)),
      end - at,
    );
  }
  return meter.integrated();
}

describe('K-weighting', () => {
  it('reproduces the 48 kHz coefficients of BS.1770-4, tables 1 and 2', () => {
    const shelf = shelfCoefficients(48000);
    expect(shelf.b0).toBeCloseTo(1.53512485958697, 9);
    expect(shelf.b1).toBeCloseTo(-2.69169618940638, 9);
    expect(shelf.b2).toBeCloseTo(1.19839281085285, 9);
    expect(shelf.a1).toBeCloseTo(-1.69065929318241, 9);
    expect(shelf.a2).toBeCloseTo(0.73248077421585, 9);
    const highPass = highPassCoefficients(48000);
    expect([highPass.b0, highPass.b1, highPass.b2]).toEqual([1, -2, 1]);
    expect(highPass.a1).toBeCloseTo(-1.99004745483398, 9);
    expect(highPass.a2).toBeCloseTo(0.99007225036621, 9);
  });
});

describe('integrated loudness', () => {
  it.each([48000, 44100])('puts a full-scale 997 Hz sine in one channel at -3.01 LUFS (%i Hz)', (rate) => {
    const mono = measure(rate, [sine(rate, 5, 0)]);
    expect(mono).not.toBeNull();
    expect(Math.abs(mono! - -3.01)).toBeLessThan(0.1);
    // The same sine in the left channel with a silent right channel is the same loudness.
    const left = measure(rate, [sine(rate, 5, 0), new Float32Array(rate * 5)]);
    expect(Math.abs(left! - -3.01)).toBeLessThan(0.1);
  });

  it('puts a -23 dBFS 1 kHz sine in both stereo channels at -23.0 LUFS (EBU Tech 3341, case 1)', () => {
    const channel = sine(48000, 5, -23, 1000);
    expect(Math.abs(measure(48000, [channel, channel])! - -23)).toBeLessThan(0.1);
  });

  it('gates out quiet passages: -36/-23/-36 dBFS and -72/-36/-23/-36/-72 dBFS read -23.0 LUFS (Tech 3341, cases 3 and 4)', () => {
    const rate = 48000;
    const part = (seconds: number, dbfs: number) => sine(rate, seconds, dbfs, 1000);
    // Tech 3341 plays 10 s / 60 s / 10 s; the same proportions, five times shorter.
    const case3 = concat(part(2, -36), part(12, -23), part(2, -36));
    expect(Math.abs(measure(rate, [case3, case3])! - -23)).toBeLessThan(0.1);
    const case4 = concat(part(2, -72), part(2, -36), part(12, -23), part(2, -36), part(2, -72));
    expect(Math.abs(measure(rate, [case4, case4])! - -23)).toBeLessThan(0.1);
  });

  it('weighs surround channels +1.5 dB and ignores the LFE (5.1 in WAV order)', () => {
    const rate = 48000;
    const silent = new Float32Array(rate * 3);
    const tone = sine(rate, 3, 0);
    const surround = measure(rate, [silent, silent, silent, silent, tone, silent]);
    expect(surround! - measure(rate, [tone])!).toBeCloseTo(10 * Math.log10(1.41), 2);
    expect(measure(rate, [silent, silent, silent, tone, silent, silent])).toBeNull();
  });

  it('does not depend on how the signal is chunked, and has no loudness for silence or under 400 ms', () => {
    const rate = 44100;
    const music = concat(sine(rate, 1, -12, 220), sine(rate, 1, -6, 3000), sine(rate, 1, -20, 60));
    const whole = measure(rate, [music], music.length);
    for (const chunk of [1, 37, 1152, 44100]) expect(measure(rate, [music], chunk)).toBeCloseTo(whole!, 9);
    expect(measure(rate, [new Float32Array(rate * 2)])).toBeNull();
    expect(measure(rate, [sine(rate, 0.39, 0)])).toBeNull();
  });
});
