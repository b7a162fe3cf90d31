/**
 * Compressed or PCM bytes -> Float32 PCM, one array per channel, chunk by chunk at the file's own rate:
 * MP3 through mpg123 compiled to WebAssembly (mpg123-decoder, the decoder the feature extractor and the
 * radio's transcoder already use), WAV through the RIFF reader of the feature extractor. Nothing is
 * resampled or downmixed here: loudness needs the channels as they are.
 *
 * The generator yields to the event loop after every chunk, so decoding a long upload inside the API
 * process never holds other requests for more than a few milliseconds at a time.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MPEGDecoder } from 'mpg123-decoder';
import { AudioDecodeError } from '../features/errors.js';
import { readWavLayout, wavChannelChunks } from '../features/decode-wav.js';

export type PcmFormat = 'mp3' | 'wav';

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

export interface DecodeOptions {
  /** MP3 bytes decoded between two yields (64 KB: about 4 s at 128 kbps); the live stream takes smaller bites. */
  mp3ChunkBytes?: number;
  /** WAV frames per chunk. */
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
  else throw new AudioDecodeError(String(format), 'unknown format');
}

async function* decodeWavPcm(bytes: Uint8Array, framesPerChunk: number): AsyncGenerator<PcmChunk> {
  const layout = readWavLayout(bytes);
  for (const channels of wavChannelChunks(bytes, layout, framesPerChunk)) {
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
