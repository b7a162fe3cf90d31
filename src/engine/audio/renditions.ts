/**
 * Stream renditions of an uploaded master: one decode pass feeds one LAME encoder per bitrate (the radio's
 * MP3 encoder, engine/audio/encode.ts), so every rendition comes from the master itself, never from another
 * lossy copy. It runs on an engine worker thread (task `renderRenditions`), never on the API's, and hands
 * its bytes on as it goes, so no rendition is ever held whole. LAME's MPEG-1 Layer III takes 32, 44.1 or
 * 48 kHz; a master at another rate is resampled to 44.1 kHz. Mono masters play on both channels; surround masters are folded down to stereo (ITU-R BS.775).
 *
 * A WAV or AIFF master can also be kept as FLAC in the same pass (`losslessMaster`, issue 18): at its own rate, its
 * samples as they are (8- and 16-bit as 16-bit, 24- and 32-bit integer as 24-bit; float as 24-bit, 144 dB
 * down), mono as mono, surround folded to stereo (24-bit) as the radio would fold it. The radio airs that FLAC and
 * encodes its stream from it, so what airs is one lossy encode from the upload.
 */
import type { AudioQuality } from '../types.js';
import { readWavLayout } from '../features/decode-wav.js';
import { readAiffLayout } from './aiff.js';
import { StreamingResampler } from '../features/resample.js';
import { createMp3Stream, type Mp3Stream } from './encode.js';
import { createFlacStream, quantise, type FlacStream } from './flac-encode.js';
import { decodePcm, type PcmFormat } from './pcm.js';

export const RENDITION_BITRATES = [128, 192, 320] as const;
export type RenditionBitrate = (typeof RENDITION_BITRATES)[number];

const ENCODER_RATES = new Set([32000, 44100, 48000]);
const FALLBACK_RATE = 44100;
/** -3 dB: what the centre and surround channels contribute to each side of a stereo fold-down. */
const FOLD = Math.SQRT1_2;

const qualityOf = (kbps: RenditionBitrate): AudioQuality => `${kbps}kbps`;

/** Input frames per slice: about a second of audio, so one slice is a few milliseconds of encoding per bitrate. */
const SLICE_FRAMES = 48_000;
/** Encoded bytes gathered per rendition before they are handed on (fewer, larger messages). */
const FLUSH_BYTES = 64 * 1024;

/** Where the renditions' bytes go as they are made, in order; awaited, so a slow consumer slows the render. */
export type RenditionSink = (chunks: { bitrateKbps: RenditionBitrate; bytes: Uint8Array }[]) => Promise<void>;

export interface RenderOptions {
  /** Checked between slices; once true the render stops with an error (the caller's job is retried later). */
  shouldStop?: () => boolean;
  /** Input frames per slice (tests use small ones). */
  sliceFrames?: number;
  /** Also encode the (WAV or AIFF) master as FLAC in the same decode pass; returned whole as `losslessMaster`. */
  losslessMaster?: boolean;
}

/** Uncompressed formats whose samples are kept as a FLAC master; the others (FLAC, MP3) are their own master. */
export const LOSSLESS_SOURCES: readonly PcmFormat[] = ['wav', 'aiff'];

/** The FLAC sample size that holds a WAV's or AIFF's samples: exactly for 8-24-bit integer PCM, 24-bit otherwise. */
export function flacBitsFor(master: Uint8Array, format: PcmFormat = 'wav'): 16 | 24 {
  const { bitsPerSample, isFloat } = format === 'aiff' ? readAiffLayout(master) : readWavLayout(master);
  return !isFloat && bitsPerSample <= 16 ? 16 : 24;
}

/**
 * Renders every bitrate from the master in bounded slices: decode a chunk, cut it into slices of at most
 * `sliceFrames` input frames, resample and encode each slice, and hand the bytes to `sink` once a
 * rendition has gathered FLUSH_BYTES (and at the end). Nothing holds a whole rendition: memory is one
 * decoded chunk plus a few encoded buffers, whatever the length. Returns the input frames rendered.
 */
export async function streamMp3Renditions(
  master: Uint8Array,
  format: PcmFormat,
  bitrates: readonly RenditionBitrate[],
  sink: RenditionSink,
  options: RenderOptions = {},
): Promise<{ frames: number; losslessMaster?: Uint8Array }> {
  const sliceFrames = options.sliceFrames ?? SLICE_FRAMES;
  if (options.losslessMaster && !LOSSLESS_SOURCES.includes(format))
    throw new Error(`a lossless master is made from a WAV master or an AIFF master, not ${format}`);
  const flacBits = options.losslessMaster ? flacBitsFor(master, format) : null;
  let flac: FlacStream | null = null;
  const flacParts: Uint8Array[] = [];
  const pending = new Map<RenditionBitrate, Uint8Array[]>(bitrates.map((kbps) => [kbps, []]));
  const pendingBytes = new Map<RenditionBitrate, number>(bitrates.map((kbps) => [kbps, 0]));
  let encoders: Map<RenditionBitrate, Mp3Stream> | null = null;
  let resamplers: [StreamingResampler, StreamingResampler] | null = null;
  let frames = 0;

  const flush = async (all: boolean) => {
    if (!all && ![...pendingBytes.values()].some((n) => n >= FLUSH_BYTES)) return;
    const chunks = bitrates.map((kbps) => ({ bitrateKbps: kbps, bytes: concat(pending.get(kbps)!, pendingBytes.get(kbps)!) }));
    for (const kbps of bitrates) {
      pending.set(kbps, []);
      pendingBytes.set(kbps, 0);
    }
    await sink(chunks.filter((c) => c.bytes.length > 0));
  };
  const encode = async (left: Float32Array, right: Float32Array) => {
    for (const [kbps, encoder] of encoders!) add(kbps, encoder.write(left, right));
    await flush(false);
  };
  const add = (kbps: RenditionBitrate, bytes: Uint8Array) => {
    if (bytes.length === 0) return;
    pending.get(kbps)!.push(bytes);
    pendingBytes.set(kbps, pendingBytes.get(kbps)! + bytes.length);
  };

  for await (const chunk of decodePcm(master, format)) {
    if (!encoders) {
      const rate = ENCODER_RATES.has(chunk.sampleRate) ? chunk.sampleRate : FALLBACK_RATE;
      if (rate !== chunk.sampleRate) resamplers = [new StreamingResampler(chunk.sampleRate, rate), new StreamingResampler(chunk.sampleRate, rate)];
      encoders = new Map();
      for (const kbps of bitrates) encoders.set(kbps, await createMp3Stream(qualityOf(kbps), rate));
    }
    const [left, right] = toStereo(chunk.channels);
    if (flacBits !== null) {
      const mono = chunk.channels.length === 1;
      // A fold-down makes new values (sums scaled by -3 dB): 24-bit keeps them to 144 dB.
      const bits = chunk.channels.length > 2 ? 24 : flacBits;
      flac ??= createFlacStream({ sampleRate: chunk.sampleRate, channels: mono ? 1 : 2, bitsPerSample: bits });
      if (flacParts.length === 0) flacParts.push(flac.header());
      flacParts.push(flac.write((mono ? [left] : [left, right]).map((c) => quantise(c, bits))));
    }
    for (let start = 0; start < chunk.frames; start += sliceFrames) {
      if (options.shouldStop?.()) throw new Error('the render was stopped');
      const end = Math.min(chunk.frames, start + sliceFrames);
      const l = left.subarray(start, end);
      const r = right.subarray(start, end);
      if (resamplers) await encode(resamplers[0].push(l), resamplers[1].push(r));
      else await encode(l, r);
      frames += end - start;
    }
  }
  if (!encoders) throw new Error('the master holds no audio');
  if (resamplers) await encode(resamplers[0].flush(), resamplers[1].flush());
  for (const [kbps, encoder] of encoders) add(kbps, encoder.finish());
  await flush(true);
  if (!flac) return { frames };
  const end = flac.finish();
  flacParts.push(end.frames);
  const losslessMaster = concat(
    flacParts,
    flacParts.reduce((n, p) => n + p.length, 0),
  );
  losslessMaster.set(end.header, 0); // the header again, now with the length and the MD5
  return { frames, losslessMaster };
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Any channel layout as left and right: mono on both sides, surround folded down (ITU-R BS.775). */
export function toStereo(channels: Float32Array[]): [Float32Array, Float32Array] {
  if (channels.length === 1) return [channels[0], channels[0]];
  if (channels.length === 2) return [channels[0], channels[1]];
  // L R C [LFE] Ls Rs in WAV order; the LFE is left out, as in the usual fold-down.
  const [l, r, c] = channels;
  const surround = channels.length >= 6 ? [channels[4], channels[5]] : channels.length === 5 ? [channels[3], channels[4]] : [null, null];
  const left = new Float32Array(l.length);
  const right = new Float32Array(l.length);
  for (let i = 0; i < l.length; i++) {
    left[i] = l[i] + FOLD * (c[i] + (surround[0]?.[i] ?? 0));
    right[i] = r[i] + FOLD * (c[i] + (surround[1]?.[i] ?? 0));
  }
  return [left, right];
}
