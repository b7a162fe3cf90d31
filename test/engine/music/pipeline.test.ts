import { describe, expect, it } from 'vitest';
import { inflateSync } from 'node:zlib';
import { generateTrack, type GenerateTrackRequest } from '../../../src/engine/music/pipeline.js';
import { emptyAudioModel } from '../../../src/engine/compose/audio-model.js';
import { TRAINED_ALGORITHMIC_MEDIA, id3TagLength, withId3Tag } from '../../../src/engine/audio/id3.js';
import { LOFI_CONTEXT, SYNTHWAVE_CONTEXT, parseMp3Frames } from './helpers.js';
import { parseBuffer } from 'music-metadata';
import { createMp3Stream } from '../../../src/engine/audio/encode.js';
import { nullDepth } from '../../../src/engine/audio/null-depth.js';
import { decodePcm, type PcmFormat } from '../../../src/engine/audio/pcm.js';

async function decodeLeft(bytes: Uint8Array, format: PcmFormat): Promise<Float32Array> {
  const parts: Float32Array[] = [];
  for await (const chunk of decodePcm(bytes, format)) parts.push(chunk.channels[0]);
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** One stream encode (the radio's LAME at 128 kbps) of a mono signal on both channels, decoded back. */
async function streamEncodeLeft(left: Float32Array): Promise<Float32Array> {
  const encoder = await createMp3Stream('128kbps');
  const parts: Uint8Array[] = [];
  for (let i = 0; i < left.length; i += 8192) parts.push(encoder.write(left.subarray(i, i + 8192), left.subarray(i, i + 8192)));
  parts.push(encoder.finish());
  return decodeLeft(Buffer.concat(parts), 'mp3');
}

const base: GenerateTrackRequest = {
  context: LOFI_CONTEXT,
  seed: 1234,
  maxDurationSec: 10,
  quality: '128kbps',
  model: emptyAudioModel(),
  modelVersion: 'audio-test-1',
  label: { stationName: 'Test FM' },
};

describe('generateTrack end to end', () => {
  it('produces a valid MPEG-1 Layer III stream of the requested bitrate and duration, labelled as AI', async () => {
    const progress: number[] = [];
    const track = await generateTrack(base, (pct) => progress.push(pct));
    const frames = parseMp3Frames(track.mp3!);
    expect(frames.allMpeg1Layer3).toBe(true);
    expect([...frames.bitrates]).toEqual([128]);
    expect([...frames.sampleRates]).toEqual([44100]);
    expect(Math.abs(frames.durationSec - 10)).toBeLessThan(0.5);
    expect(track.durationSec).toBe(10);
    expect(track.bpm).toBeGreaterThanOrEqual(72);
    expect(track.bpm).toBeLessThanOrEqual(88);
    expect(track.mode).toBe('minor');
    expect(progress.at(-1)).toBe(100);

    const tag = track.mp3!.subarray(0, id3TagLength(track.mp3!)).toString('utf8');
    expect(tag.startsWith('ID3\u0004')).toBe(true);
    for (const text of ['TIT2', track.title, 'Test FM', 'model_version', 'audio-test-1', TRAINED_ALGORITHMIC_MEDIA]) expect(tag).toContain(text);

    // Waveform in audiowaveform's shape, covering the track, with real signal in it.
    expect(track.waveform.length).toBe(Math.ceil((10 * 44100) / track.waveform.samples_per_pixel));
    expect(track.waveform.data).toHaveLength(track.waveform.length * 2);
    expect(Math.max(...track.waveform.data)).toBeGreaterThan(20);

    // Cover: a real 512x512 RGB PNG.
    expect(track.coverPng.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(track.coverPng.readUInt32BE(16)).toBe(512);
    const idatLength = track.coverPng.readUInt32BE(33);
    expect(track.coverPng.subarray(37, 41).toString('latin1')).toBe('IDAT');
    expect(inflateSync(track.coverPng.subarray(41, 41 + idatLength)).length).toBe(512 * (512 * 3 + 1));
  });

  it('keeps a lossless FLAC master, labelled, and encodes the MP3 once from its samples', async () => {
    const track = await generateTrack(base);
    const info = await parseBuffer(track.master, { mimeType: 'audio/flac' });
    expect(info.format.container).toBe('FLAC');
    expect(info.format.lossless).toBe(true);
    expect(info.format.sampleRate).toBe(44100);
    expect(info.format.numberOfChannels).toBe(2);
    expect(info.format.bitsPerSample).toBe(16);
    expect(info.format.duration).toBeCloseTo(10, 6);
    expect(info.common.title).toBe(track.title);
    const comments = Object.fromEntries((info.native.vorbis ?? []).map((tag) => [tag.id, tag.value]));
    expect(comments).toMatchObject({ STATION: 'Test FM', MODEL_VERSION: 'audio-test-1', DIGITAL_SOURCE_TYPE: TRAINED_ALGORITHMIC_MEDIA });

    // The MP3 is one encode from the master; encoding it again (what the stream did to an MP3 master) costs
    // several dB of null depth (deterministic: about -22.8 dB once, -19.0 dB twice when written), which a
    // stream encoded from the master does not.
    const master = await decodeLeft(track.master, 'flac');
    expect(master.length).toBe(10 * 44100);
    const mp3 = await decodeLeft(track.mp3!, 'mp3');
    const once = nullDepth(master, mp3);
    const twice = nullDepth(master, await streamEncodeLeft(mp3));
    const fromMaster = nullDepth(master, await streamEncodeLeft(master));
    expect(once.db).toBeLessThan(-15);
    expect(twice.db).toBeGreaterThan(once.db + 2);
    expect(fromMaster.db).toBeLessThan(twice.db - 2);
  });

  it('is byte-identical for the same seed and differs for another seed', async () => {
    const [a, b, c] = await Promise.all([generateTrack(base), generateTrack(base), generateTrack({ ...base, seed: 99 })]);
    expect(a.mp3!.equals(b.mp3!)).toBe(true);
    expect(a.master.equals(b.master)).toBe(true);
    expect(a.coverPng.equals(b.coverPng)).toBe(true);
    const audioA = a.mp3!.subarray(id3TagLength(a.mp3!));
    const audioC = c.mp3!.subarray(id3TagLength(c.mp3!));
    expect(audioA.equals(audioC)).toBe(false);
    expect(a.coverPng.equals(c.coverPng)).toBe(false);
  });

  it('encodes at 192 and 320 kbps', async () => {
    for (const quality of ['192kbps', '320kbps'] as const) {
      const track = await generateTrack({ ...base, context: SYNTHWAVE_CONTEXT, quality, maxDurationSec: 8 });
      const frames = parseMp3Frames(track.mp3!);
      expect([...frames.bitrates]).toEqual([Number.parseInt(quality, 10)]);
      expect(Math.abs(frames.durationSec - 8)).toBeLessThan(0.5);
    }
  });

  it('re-labels an MP3 after registration without touching the audio', async () => {
    const track = await generateTrack({ ...base, maxDurationSec: 8 });
    const relabelled = withId3Tag(track.mp3!, { title: track.title, stationName: 'Test FM', modelVersion: 'audio-test-1', stationTrackId: 'st_123' });
    expect(relabelled.subarray(id3TagLength(relabelled)).equals(track.mp3!.subarray(id3TagLength(track.mp3!)))).toBe(true);
    expect(relabelled.subarray(0, id3TagLength(relabelled)).toString('utf8')).toContain('station_track_id\u0000st_123');
  });
});
