import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFlacStream, quantise } from '../../../src/engine/audio/flac-encode.js';
import { decodePcm } from '../../../src/engine/audio/pcm.js';
import { sniffFormat } from '../../../src/station/stream/track-reader.js';

/** A deterministic signal mixing tones, noise, silence, steps and full-scale stretches (every subframe kind). */
function signal(frames: number, channel: number, seed = 7): Float32Array {
  let state = seed * 7919 + channel;
  const noise = () => ((state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32) * 2 - 1;
  const out = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    const t = i / 44100;
    const part = Math.floor(i / 5000) % 4;
    if (part === 0) out[i] = 0.5 * Math.sin(2 * Math.PI * (220 + 110 * channel) * t) + 0.01 * noise();
    else if (part === 1)
      out[i] = 0; // constant subframes
    else if (part === 2)
      out[i] = noise(); // white noise at full scale: verbatim is cheaper than prediction
    else out[i] = i % 700 < 350 ? 0.999 : -1; // clipped square: the extremes of the sample range
  }
  return out;
}

function encode(channels: Int32Array[], bitsPerSample: 16 | 24, writeFrames = 3001): Buffer {
  const stream = createFlacStream({ sampleRate: 44100, channels: channels.length as 1 | 2, bitsPerSample });
  const parts: Uint8Array[] = [stream.header()];
  for (let at = 0; at < channels[0].length; at += writeFrames) parts.push(stream.write(channels.map((c) => c.subarray(at, at + writeFrames))));
  const { frames, header } = stream.finish();
  parts.push(frames);
  const bytes = Buffer.concat(parts);
  bytes.set(header, 0);
  return bytes;
}

async function decodeInts(bytes: Uint8Array, bitsPerSample: number): Promise<Int32Array[]> {
  const scale = 2 ** (bitsPerSample - 1);
  const parts: Float32Array[][] = [];
  for await (const chunk of decodePcm(bytes, 'flac', undefined, { flacChunkBytes: 10_000 })) parts.push(chunk.channels);
  return parts[0].map((_, c) => {
    const frames = parts.reduce((n, p) => n + p[c].length, 0);
    const out = new Int32Array(frames);
    let at = 0;
    for (const p of parts) for (const v of p[c]) out[at++] = Math.round(v * scale);
    return out;
  });
}

describe('FLAC encoder', () => {
  for (const bits of [16, 24] as const) {
    for (const channels of [1, 2]) {
      it(`round-trips ${channels} channel(s) at ${bits} bits bit-exact`, async () => {
        const frames = 44100 + 1237; // not a whole number of blocks
        const input = Array.from({ length: channels }, (_, c) => quantise(signal(frames, c), bits));
        const bytes = encode(input, bits);
        const decoded = await decodeInts(bytes, bits);
        expect(decoded).toHaveLength(channels);
        for (let c = 0; c < channels; c++) expect(Buffer.from(decoded[c].buffer).equals(Buffer.from(input[c].buffer))).toBe(true);
      });
    }
  }

  it('decodes a last block of a few constant samples (a frame shorter than the decoder reads ahead)', async () => {
    const input = [new Int32Array(4096 * 2 + 3).fill(5)];
    const decoded = await decodeInts(encode(input, 16), 16);
    expect(Array.from(decoded[0])).toEqual(Array.from(input[0]));
  });

  it('is deterministic and independent of how the samples are handed in', () => {
    const input = [quantise(signal(30_000, 0), 16), quantise(signal(30_000, 1), 16)];
    const a = encode(input, 16, 3001);
    expect(encode(input, 16, 3001).equals(a)).toBe(true);
    expect(encode(input, 16, 8192).equals(a)).toBe(true);
    expect(encode(input, 16, 30_000).equals(a)).toBe(true);
  });

  it('writes a STREAMINFO with the length and the MD5 of the samples', () => {
    const frames = 10_001;
    const input = [quantise(signal(frames, 0), 16), quantise(signal(frames, 1), 16)];
    const bytes = encode(input, 16);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('fLaC');
    const info = bytes.subarray(8, 42);
    expect(info.readUInt32BE(14) & 0xfffff).toBeGreaterThan(0);
    const sampleRate = info.readUInt32BE(10) >>> 12;
    const total = info.readUInt32BE(14);
    expect(sampleRate).toBe(44100);
    expect(total).toBe(frames);
    const pcm = Buffer.alloc(frames * 4);
    for (let i = 0; i < frames; i++) {
      pcm.writeInt16LE(input[0][i], i * 4);
      pcm.writeInt16LE(input[1][i], i * 4 + 2);
    }
    expect(Buffer.from(info.subarray(18, 34)).toString('hex')).toBe(createHash('md5').update(pcm).digest('hex'));
  });

  it('compresses music-like audio and stays within the verbatim size on noise', () => {
    const frames = 44100;
    const tone = Array.from({ length: 2 }, (_, c) =>
      quantise(
        Float32Array.from({ length: frames }, (_, i) => 0.4 * Math.sin((2 * Math.PI * (440 + c) * i) / 44100)),
        16,
      ),
    );
    expect(encode(tone, 16).length).toBeLessThan(frames * 4 * 0.5);
    let state = 1;
    const noise = Array.from({ length: 2 }, () => Int32Array.from({ length: frames }, () => ((state = (state * 1103515245 + 12345) >>> 0) >>> 16) - 32768));
    expect(encode(noise, 16).length).toBeLessThan(frames * 4 * 1.01);
  });

  it('is recognised as FLAC by the stream reader', () => {
    const bytes = encode([quantise(signal(5000, 0), 16)], 16);
    expect(sniffFormat(bytes)).toBe('flac');
  });

  // The reference decoder, when installed (Debian package `flac`): a second, independent implementation.
  const hasFlacTool = (() => {
    try {
      execFileSync('flac', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  it.skipIf(!hasFlacTool)('passes the reference decoder`s test (flac -t, which checks the MD5)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flac-'));
    try {
      for (const bits of [16, 24] as const) {
        const file = join(dir, `t${bits}.flac`);
        writeFileSync(file, encode([quantise(signal(50_000, 0), bits), quantise(signal(50_000, 1), bits)], bits));
        execFileSync('flac', ['-t', '-s', '-w', file]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
