import { describe, expect, it } from 'vitest';
import { dequantise, quantise } from '../../../src/engine/audio/flac-encode.js';
import { TrackReader, sniffFormat } from '../../../src/station/stream/track-reader.js';
import { encodeFlac, encodeMp3, tonePcm } from '../playout-support.js';

async function readAll(reader: TrackReader): Promise<[Float32Array, Float32Array]> {
  const left = new Float32Array(reader.length);
  const right = new Float32Array(reader.length);
  await reader.fill(reader.length);
  reader.take(reader.length, left, right);
  return [left, right];
}

describe('the stream reads a track by its format', () => {
  it('plays a FLAC master sample for sample, from the start and length of its analysis', async () => {
    const left = tonePcm({ frequencyHz: 440, amplitude: 0.3, seconds: 3 });
    const right = tonePcm({ frequencyHz: 660, amplitude: 0.2, seconds: 3 });
    const bytes = encodeFlac(left, right);
    expect(sniffFormat(bytes)).toBe('flac');
    const start = 1234;
    const length = 100_000;
    const [l, r] = await readAll(new TrackReader(bytes, sniffFormat(bytes), start, length));
    // What airs is the master exactly: its 16-bit samples, nothing lost on the way.
    const expectedLeft = dequantise(quantise(left, 16), 16).subarray(start, start + length);
    const expectedRight = dequantise(quantise(right, 16), 16).subarray(start, start + length);
    expect(Buffer.from(l.buffer).equals(Buffer.from(expectedLeft.slice().buffer))).toBe(true);
    expect(Buffer.from(r.buffer).equals(Buffer.from(expectedRight.slice().buffer))).toBe(true);
  });

  it('still plays an MP3 master (tracks made before masters were lossless)', async () => {
    const bytes = await encodeMp3(tonePcm({ frequencyHz: 440, amplitude: 0.3, seconds: 3 }));
    expect(sniffFormat(bytes)).toBe('mp3');
    const [l] = await readAll(new TrackReader(bytes, sniffFormat(bytes), 2000, 88_200));
    let energy = 0;
    for (const v of l) energy += v * v;
    expect(Math.sqrt(energy / l.length)).toBeGreaterThan(0.15); // a 0.3 sine: RMS 0.21
  });
});
