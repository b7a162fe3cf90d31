import { MPEGDecoder } from 'mpg123-decoder';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseFrameHeader, parseMp3, silentFrame } from '../../../src/engine/audio/mp3-frames.js';
import { audioBytes, tagged, toneMp3 } from './helpers.js';

let tone: Buffer;

beforeAll(async () => {
  tone = await toneMp3(440, 2);
});

describe('parseMp3', () => {
  it('walks a LAME file frame by frame: MPEG-1 Layer III, 128 kbps, 26.1 ms a frame, contiguous', () => {
    const { frames, durationMs, skipped } = parseMp3(tone);
    expect(frames.length).toBeGreaterThan(70);
    expect(skipped).toEqual({ id3v2Bytes: 0, id3v1: false, infoFrame: null, garbageBytes: 0, truncatedTail: false });
    for (const [i, frame] of frames.entries()) {
      expect(frame.bitrateKbps).toBe(128);
      expect(frame.sampleRate).toBe(44100);
      expect(frame.durationMs).toBeCloseTo(1152_000 / 44100, 9);
      expect(frame.length === 417 || frame.length === 418).toBe(true);
      if (i > 0) expect(frame.offset).toBe(frames[i - 1].offset + frames[i - 1].length);
    }
    expect(frames.at(-1)!.offset + frames.at(-1)!.length).toBe(tone.length);
    expect(durationMs).toBeCloseTo(frames.length * (1152_000 / 44100), 6);
  });

  it('leaves out the ID3v2 tag, the Info frame and the ID3v1 tag', () => {
    const file = tagged(tone, 'A440');
    const parsed = parseMp3(file);
    expect(parsed.skipped.id3v2Bytes).toBeGreaterThan(100);
    expect(parsed.skipped.id3v1).toBe(true);
    expect(parsed.skipped.infoFrame).toBe('Info');
    expect(parsed.skipped.garbageBytes).toBe(0);
    expect(audioBytes(file).equals(tone)).toBe(true);
  });

  it('resyncs after garbage, false syncs and a truncated last frame, keeping every real frame', () => {
    const frames = parseMp3(tone).frames.map((f) => tone.subarray(f.offset, f.offset + f.length));
    const falseSync = Buffer.from([0xff, 0xfb, 0x90, 0x64, 1, 2, 3, 0xff, 0xfa, 0x00]); // headers with nothing behind
    const noise = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 97 + 13) & 0xff));
    const corrupted = Buffer.concat([
      noise,
      ...frames.slice(0, 10),
      falseSync,
      ...frames.slice(10, 40),
      noise,
      Buffer.from('ID3 but not a tag'),
      ...frames.slice(40),
      frames[5].subarray(0, 200), // cut short
    ]);
    const parsed = parseMp3(corrupted);
    const recovered = Buffer.concat(parsed.frames.map((f) => corrupted.subarray(f.offset, f.offset + f.length)));
    expect(recovered.equals(tone)).toBe(true);
    expect(parsed.skipped.garbageBytes).toBe(noise.length * 2 + falseSync.length + 17 + 200);
    expect(parsed.skipped.truncatedTail).toBe(true);
  });

  it('finds nothing in bytes that are not MP3', () => {
    expect(parseMp3(Buffer.alloc(0)).frames).toEqual([]);
    expect(parseMp3(Buffer.from('RIFF....WAVEfmt not an mp3 at all')).frames).toEqual([]);
    expect(parseMp3(Buffer.alloc(5000, 0xff)).frames).toEqual([]);
  });
});

describe('parseFrameHeader', () => {
  it('reads MPEG-1 and MPEG-2 Layer III headers and rejects other layers, free format and reserved values', () => {
    expect(parseFrameHeader(Buffer.from([0xff, 0xfb, 0x90, 0x64]), 0)).toMatchObject({
      version: 1,
      bitrateKbps: 128,
      sampleRate: 44100,
      length: 417,
      samples: 1152,
    });
    expect(parseFrameHeader(Buffer.from([0xff, 0xfb, 0xb2, 0x44]), 0)).toMatchObject({ bitrateKbps: 192, padding: true, length: 627 });
    expect(parseFrameHeader(Buffer.from([0xff, 0xfb, 0xe0, 0x44]), 0)).toMatchObject({ bitrateKbps: 320, length: 1044 });
    expect(parseFrameHeader(Buffer.from([0xff, 0xf3, 0x84, 0xc4]), 0)).toMatchObject({
      version: 2,
      bitrateKbps: 64,
      sampleRate: 24000,
      mono: true,
      samples: 576,
    });
    expect(parseFrameHeader(Buffer.from([0xff, 0xfd, 0x90, 0x64]), 0)).toBeNull(); // Layer II
    expect(parseFrameHeader(Buffer.from([0xff, 0xfb, 0x00, 0x64]), 0)).toBeNull(); // free format
    expect(parseFrameHeader(Buffer.from([0xff, 0xfb, 0x9c, 0x64]), 0)).toBeNull(); // reserved sample rate
    expect(parseFrameHeader(Buffer.from([0xff, 0xeb, 0x90, 0x64]), 0)).toBeNull(); // reserved version
  });
});

describe('silentFrame', () => {
  it('is one valid frame per bitrate that decoders render as digital silence, even after music', async () => {
    for (const [bitrate, length] of [
      [128, 417],
      [192, 626],
      [320, 1044],
    ] as const) {
      const frame = silentFrame(bitrate);
      expect(frame.length).toBe(length);
      expect(parseMp3(Buffer.concat([frame, frame])).frames.map((f) => f.bitrateKbps)).toEqual([bitrate, bitrate]);
    }
    const decoder = new MPEGDecoder();
    await decoder.ready;
    const silence = Buffer.concat(Array.from({ length: 20 }, () => silentFrame(128)));
    const decoded = decoder.decode(Buffer.concat([tone, silence, tone]));
    decoder.free();
    expect(decoded.errors).toEqual([]);
    const toneSamples = decoded.samplesDecoded - 20 * 1152;
    // The silent run, past one granule that still carries the tone's overlap-add tail, is exactly zero.
    const start = toneSamples / 2 + 576;
    const run = decoded.channelData[0].subarray(start, start + 19 * 1152 - 576);
    expect(Math.max(...run.map(Math.abs))).toBe(0);
  });
});
