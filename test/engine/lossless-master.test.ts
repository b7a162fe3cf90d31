/**
 * Issue 18: an uploaded WAV is kept as a FLAC master, made in the same decode pass as its MP3 renditions
 * (engine/audio/renditions.ts, `losslessMaster`). The FLAC holds the WAV's samples exactly (16-bit as
 * 16-bit, 24-bit as 24-bit, mono as mono) at the WAV's own rate; surround is folded to stereo as the radio
 * folds it. An MP3 master has nothing lossless to keep.
 */
import { describe, expect, it } from 'vitest';
import { decodePcm, type PcmChunk } from '../../src/engine/audio/pcm.js';
import { streamMp3Renditions, toStereo } from '../../src/engine/audio/renditions.js';
import { quantise } from '../../src/engine/audio/flac-encode.js';

/** A PCM WAV of deterministic noisy tones, `bits` wide (16 or 24), any channel count and rate. */
function wav(rate: number, channels: number, bits: 16 | 24, frames: number): Buffer {
  const bytes = bits / 8;
  const data = Buffer.alloc(frames * channels * bytes);
  const full = 2 ** (bits - 1);
  let seed = 12345;
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < channels; c++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const tone = 0.4 * Math.sin((2 * Math.PI * (220 + 110 * c) * i) / rate);
      const v = Math.max(-full, Math.min(full - 1, Math.round((tone + 0.05 * (seed / 0x7fffffff - 0.5)) * full)));
      data.writeIntLE(v, (i * channels + c) * bytes, bytes);
    }
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * channels * bytes, 28);
  header.writeUInt16LE(channels * bytes, 32);
  header.writeUInt16LE(bits, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

async function decodeAll(bytes: Uint8Array, format: 'wav' | 'flac'): Promise<{ channels: Float32Array[]; sampleRate: number }> {
  const chunks: PcmChunk[] = [];
  for await (const chunk of decodePcm(bytes, format)) chunks.push(chunk);
  const channels = chunks[0].channels.map((_, c) => {
    const out = new Float32Array(chunks.reduce((n, k) => n + k.frames, 0));
    let at = 0;
    for (const k of chunks) {
      out.set(k.channels[c], at);
      at += k.frames;
    }
    return out;
  });
  return { channels, sampleRate: chunks[0].sampleRate };
}

async function master(bytes: Buffer) {
  const result = await streamMp3Renditions(bytes, 'wav', [128], async () => undefined, { losslessMaster: true, sliceFrames: 4096 });
  expect(result.losslessMaster).toBeDefined();
  return result.losslessMaster!;
}

describe('lossless master of a WAV upload', () => {
  it.each([
    [44100, 2, 16],
    [48000, 1, 24],
    [96000, 2, 24],
  ] as const)('keeps a %i Hz, %i-channel, %i-bit WAV as FLAC, sample for sample', async (rate, channels, bits) => {
    const source = wav(rate, channels, bits, Math.round(rate * 1.3));
    const flac = await master(source);
    expect(Buffer.from(flac.subarray(0, 4)).toString('latin1')).toBe('fLaC');
    const original = await decodeAll(source, 'wav');
    const kept = await decodeAll(flac, 'flac');
    expect(kept.sampleRate).toBe(rate);
    expect(kept.channels.length).toBe(channels);
    for (let c = 0; c < channels; c++) expect(quantise(kept.channels[c], bits)).toEqual(quantise(original.channels[c], bits));
    expect(flac.length).toBeLessThan(source.length); // smaller than the WAV, same samples
  });

  it('folds a 5.1 WAV to stereo as the radio would air it', async () => {
    const source = wav(44100, 6, 16, 44100);
    const kept = await decodeAll(await master(source), 'flac');
    const folded = toStereo((await decodeAll(source, 'wav')).channels);
    expect(kept.channels.length).toBe(2);
    // 24-bit holds the fold-down (a sum of 16-bit samples scaled by -3 dB) to within half a 24-bit step.
    for (let c = 0; c < 2; c++) {
      let worst = 0;
      for (let i = 0; i < folded[c].length; i++) worst = Math.max(worst, Math.abs(kept.channels[c][i] - Math.max(-1, Math.min(1 - 2 ** -23, folded[c][i]))));
      expect(worst).toBeLessThanOrEqual(2 ** -24 + 1e-9);
    }
  });

  it('is not asked of an MP3 master, and not made unless asked', async () => {
    const source = wav(44100, 2, 16, 44100);
    await expect(streamMp3Renditions(source, 'mp3', [128], async () => undefined, { losslessMaster: true })).rejects.toThrow(/WAV master/);
    const plain = await streamMp3Renditions(source, 'wav', [128], async () => undefined);
    expect(plain.losslessMaster).toBeUndefined();
  });
});
