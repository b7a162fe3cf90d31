/**
 * Compressed or PCM bytes -> Float32 PCM, one array per channel, chunk by chunk at the file's own rate:
 * MP3 through mpg123 compiled to WebAssembly (mpg123-decoder, the decoder the feature extractor and the
 * radio's transcoder already use), FLAC (the station's own masters, flac-encode.ts) through
 * @wasm-audio-decoders/flac (libFLAC-derived, from the same family as mpg123-decoder; also FLAC uploads),
 * WAV through the RIFF reader of the feature extractor, AIFF through aiff.ts (uploads only; a master never
 * stays AIFF). Nothing is resampled or downmixed here: loudness needs the channels as they are.
 *
 * The generator yields to the event loop after every chunk, so decoding a long upload inside the API
 * process never holds other requests for more than a few milliseconds at a time.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { FLACDecoder } from '@wasm-audio-decoders/flac';
import { MPEGDecoder } from 'mpg123-decoder';
import { AudioDecodeError } from '../features/errors.js';
import { readWavLayout, wavChannelChunks } from '../features/decode-wav.js';
import { aiffChannelChunks, readAiffLayout } from './aiff.js';

export type PcmFormat = 'mp3' | 'wav' | 'flac' | 'aiff';

export interface PcmChunk {
  channels: Float32Array[];
  frames: number;
  sampleRate: number;
}

/** Counters the caller reads once the generator is done. */
export interface DecodeStats {
  /** Frames the MP3 decoder refused (corrupt data it skipped). */
  decodeErrors: number;
}

const MP3_BYTES_PER_CHUNK = 64 * 1024;
const WAV_FRAMES_PER_CHUNK = 32 * 1024;
const FLAC_BYTES_PER_CHUNK = 256 * 1024;

export interface DecodeOptions {
  /** MP3 bytes decoded between two yields (64 KB: about 4 s at 128 kbps); the live stream takes smaller bites. */
  mp3ChunkBytes?: number;
  /** FLAC bytes decoded between two yields (a 16-bit stereo master holds about 1 s in 100 KB). */
  flacChunkBytes?: number;
  /** WAV and AIFF frames per chunk. */
  wavChunkFrames?: number;
}

export async function* decodePcm(
  bytes: Uint8Array,
  format: PcmFormat,
  stats: DecodeStats = { decodeErrors: 0 },
  options: DecodeOptions = {},
): AsyncGenerator<PcmChunk> {
  if (format === 'wav') yield* decodeWavPcm(bytes, options.wavChunkFrames ?? WAV_FRAMES_PER_CHUNK);
  else if (format === 'mp3') yield* decodeMp3Pcm(bytes, stats, options.mp3ChunkBytes ?? MP3_BYTES_PER_CHUNK);
  else if (format === 'flac') yield* decodeFlacPcm(bytes, stats, options.flacChunkBytes ?? FLAC_BYTES_PER_CHUNK);
  else if (format === 'aiff') yield* decodeAiffPcm(bytes, options.wavChunkFrames ?? WAV_FRAMES_PER_CHUNK);
  else throw new AudioDecodeError(String(format), 'unknown format');
}

async function* decodeWavPcm(bytes: Uint8Array, framesPerChunk: number): AsyncGenerator<PcmChunk> {
  const layout = readWavLayout(bytes);
  for (const channels of wavChannelChunks(bytes, layout, framesPerChunk)) {
    yield { channels, frames: channels[0].length, sampleRate: layout.sampleRate };
    await nextTurn();
  }
}

async function* decodeAiffPcm(bytes: Uint8Array, framesPerChunk: number): AsyncGenerator<PcmChunk> {
  const layout = readAiffLayout(bytes);
  for (const channels of aiffChannelChunks(bytes, layout, framesPerChunk)) {
    yield { channels, frames: channels[0].length, sampleRate: layout.sampleRate };
    await nextTurn();
  }
}

async function* decodeMp3Pcm(bytes: Uint8Array, stats: DecodeStats, chunkBytes: number): AsyncGenerator<PcmChunk> {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    let sampleRate: number | null = null;
    for (let offset = 0; offset < bytes.length; offset += chunkBytes) {
      const result = decoder.decode(bytes.subarray(offset, offset + chunkBytes));
      stats.decodeErrors += result.errors.length;
      if (result.samplesDecoded > 0) {
        sampleRate ??= result.sampleRate;
        // One rate per file: a stream that switches mid-way is not something a rendition can keep.
        if (result.sampleRate !== sampleRate) throw new AudioDecodeError('mp3', `the sample rate changes mid-file (${sampleRate} -> ${result.sampleRate} Hz)`);
        const channels = result.channelData.map((channel) => channel.slice(0, result.samplesDecoded));
        yield { channels, frames: result.samplesDecoded, sampleRate };
      }
      await nextTurn();
    }
  } finally {
    decoder.free();
  }
}

async function* decodeFlacPcm(bytes: Uint8Array, stats: DecodeStats, chunkBytes: number): AsyncGenerator<PcmChunk> {
  const layout = readFlacInfo(bytes);
  const decoder = new FLACDecoder();
  await decoder.ready;
  try {
    let sampleRate: number | null = null;
    let remaining = layout.totalSamples > 0 ? layout.totalSamples : Number.POSITIVE_INFINITY;
    // The decoder's frame parser hands out a frame once it has seen the next frame's header, and its flush()
    // drops a last frame shorter than 14 bytes (a constant or tiny final block). So after the stream it is
    // fed a copy of the first frame's header as a guard, which ends the last frame and is itself never
    // decoded (nothing follows it and there is no flush); STREAMINFO's length caps what is handed out.
    const guard = bytes.subarray(layout.firstFrame, Math.min(bytes.length, layout.firstFrame + 32));
    for (let offset = 0; offset <= bytes.length && remaining > 0; offset += chunkBytes) {
      const last = offset + chunkBytes >= bytes.length;
      const parts = [await decoder.decode(bytes.subarray(offset, offset + chunkBytes))];
      if (last) parts.push(await decoder.decode(guard.slice()));
      for (const part of parts) {
        stats.decodeErrors += part.errors.length;
        const frames = Math.min(part.samplesDecoded, remaining);
        if (frames <= 0) continue;
        remaining -= frames;
        sampleRate ??= part.sampleRate;
        if (part.sampleRate !== sampleRate) throw new AudioDecodeError('flac', `the sample rate changes mid-file (${sampleRate} -> ${part.sampleRate} Hz)`);
        // The decoder divides by 2^(bits-1) - 1; every other reader here (and the encoder) by 2^(bits-1).
        const full = 2 ** (part.bitDepth - 1);
        const rescale = (full - 1) / full;
        const channels = part.channelData.map((channel) => {
          const out = channel.slice(0, frames);
          for (let i = 0; i < out.length; i++) out[i] *= rescale;
          return out;
        });
        yield { channels, frames, sampleRate };
      }
      await nextTurn();
      if (last) break;
    }
  } finally {
    decoder.free();
  }
}

/** What a native FLAC stream's STREAMINFO declares, and where its first frame starts (after the metadata blocks). */
export interface FlacInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Samples per channel; 0 when the encoder did not know the length. */
  totalSamples: number;
  firstFrame: number;
}

export function readFlacInfo(bytes: Uint8Array): FlacInfo {
  const tag = String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]);
  if (bytes.length < 42 || tag !== 'fLaC') throw new AudioDecodeError('flac', 'not a FLAC stream');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if ((view.getUint8(4) & 0x7f) !== 0) throw new AudioDecodeError('flac', 'the first metadata block is not STREAMINFO');
  // STREAMINFO body (from byte 8): block sizes (4 bytes), frame sizes (6), then 20 bits of rate, 3 of
  // channels - 1, 5 of bits - 1 and 36 of length.
  const packed = view.getUint32(8 + 10);
  const sampleRate = packed >>> 12;
  const channels = ((packed >>> 9) & 0x07) + 1;
  const bitsPerSample = ((packed >>> 4) & 0x1f) + 1;
  const totalSamples = (packed & 0x0f) * 2 ** 32 + view.getUint32(8 + 14);
  let offset = 4;
  for (;;) {
    if (offset + 4 > bytes.length) throw new AudioDecodeError('flac', 'truncated metadata');
    const head = view.getUint32(offset);
    offset += 4 + (head & 0xffffff);
    if (head >>> 31) {
      if (offset > bytes.length) throw new AudioDecodeError('flac', 'truncated metadata');
      return { sampleRate, channels, bitsPerSample, totalSamples, firstFrame: offset };
    }
  }
}
