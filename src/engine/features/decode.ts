/**
 * Step 1 of the feature pipeline: compressed or PCM bytes -> mono Float32 PCM at the working rate.
 *
 * Decoding runs chunk by chunk (a slice of MP3 bytes or of WAV frames at a time) through a downmix and a
 * streaming resampler, so at no point is the whole master held at its source rate or channel count; only
 * the mono working-rate output grows (about 5 MB per minute at 22050 Hz).
 */

import { MPEGDecoder } from 'mpg123-decoder';
import { AudioDecodeError } from './errors.js';
import { StreamingResampler } from './resample.js';
import { readWavLayout, wavMonoChunks } from './decode-wav.js';

export type AudioFormat = 'mp3' | 'wav';

/** 22050 Hz keeps everything up to 11 kHz, which is all that tempo, key, chroma and MFCCs look at. */
export const WORKING_SAMPLE_RATE = 22050;

const MP3_BYTES_PER_CHUNK = 64 * 1024;

export interface DecodedAudio {
  pcm: Float32Array;
  sampleRate: number;
}

export interface DecodeOptions {
  sampleRate?: number;
  /** Stop after this much audio; masters longer than this gain nothing for style features. */
  maxDurationSec?: number;
}

export async function decodeAudio(bytes: Uint8Array, format: AudioFormat, options: DecodeOptions = {}): Promise<DecodedAudio> {
  const sampleRate = options.sampleRate ?? WORKING_SAMPLE_RATE;
  const limit = options.maxDurationSec !== undefined ? Math.floor(options.maxDurationSec * sampleRate) : Infinity;
  const collector = new ChunkCollector(limit);
  if (format === 'wav') decodeWav(bytes, sampleRate, collector);
  else if (format === 'mp3') await decodeMp3(bytes, sampleRate, collector);
  else throw new AudioDecodeError(String(format), 'unknown format');
  return { pcm: collector.concat(), sampleRate };
}

function decodeWav(bytes: Uint8Array, targetRate: number, out: ChunkCollector): void {
  const layout = readWavLayout(bytes);
  const resampler = new StreamingResampler(layout.sampleRate, targetRate);
  for (const chunk of wavMonoChunks(bytes, layout)) {
    out.add(resampler.push(chunk));
    if (out.full) return;
  }
  out.add(resampler.flush());
}

async function decodeMp3(bytes: Uint8Array, targetRate: number, out: ChunkCollector): Promise<void> {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    let resampler: StreamingResampler | undefined;
    let decodedAny = false;
    for (let offset = 0; offset < bytes.length && !out.full; offset += MP3_BYTES_PER_CHUNK) {
      const result = decoder.decode(bytes.subarray(offset, offset + MP3_BYTES_PER_CHUNK));
      if (result.samplesDecoded === 0) continue;
      decodedAny = true;
      resampler ??= new StreamingResampler(result.sampleRate, targetRate);
      out.add(resampler.push(downmix(result.channelData, result.samplesDecoded)));
    }
    if (!decodedAny || !resampler) throw new AudioDecodeError('mp3', 'no MPEG audio frames found');
    out.add(resampler.flush());
  } finally {
    decoder.free();
  }
}

function downmix(channels: Float32Array[], length: number): Float32Array {
  const mono = new Float32Array(length);
  for (const channel of channels) for (let i = 0; i < length; i++) mono[i] += channel[i];
  if (channels.length > 1) for (let i = 0; i < length; i++) mono[i] /= channels.length;
  return mono;
}

/** Gathers output chunks and joins them once at the end, honouring the duration limit. */
class ChunkCollector {
  private chunks: Float32Array[] = [];
  private length = 0;

  constructor(private readonly limit: number) {}

  get full(): boolean {
    return this.length >= this.limit;
  }

  add(chunk: Float32Array): void {
    const room = this.limit - this.length;
    if (room <= 0 || chunk.length === 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.length += kept.length;
  }

  concat(): Float32Array {
    const pcm = new Float32Array(this.length);
    let offset = 0;
    for (const chunk of this.chunks) {
      pcm.set(chunk, offset);
      offset += chunk.length;
    }
    this.chunks = [];
    return pcm;
  }
}
