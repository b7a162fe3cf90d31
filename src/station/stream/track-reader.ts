/**
 * A track as the playout timeline reads it: stereo PCM at 44.1 kHz, decoded a few kilobytes at a time while
 * it plays (never the whole file at once), resampled when the master has another rate, with its leading
 * and trailing silence cut off (`startSample`, `length`, from its analysis).
 *
 * `fill()` decodes ahead, yielding to the event loop between bites; `take()` is synchronous and copies out
 * what was decoded, padding with zeros past the end.
 */
import { toStereo } from '../../engine/audio/renditions.js';
import { decodePcm, type PcmChunk, type PcmFormat } from '../../engine/audio/pcm.js';
import { StreamingResampler } from '../../engine/features/resample.js';

export const TIMELINE_RATE = 44100;
/** About 0.5 s of 128 kbps MP3 per bite: a few milliseconds of decoding between two yields. */
const MP3_BITE_BYTES = 8 * 1024;
/** About 0.5 s of a 16-bit stereo FLAC master per bite. */
const FLAC_BITE_BYTES = 64 * 1024;
const WAV_BITE_FRAMES = 16 * 1024;

/**
 * What the bytes are: FLAC (the station's own masters since they are kept lossless), RIFF/WAVE, or else MP3
 * (older station masters, the renditions and most uploads).
 */
export function sniffFormat(bytes: Uint8Array): PcmFormat {
  const tag = (at: number) => String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
  if (bytes.length >= 4 && tag(0) === 'fLaC') return 'flac';
  return bytes.length >= 12 && tag(0) === 'RIFF' && tag(8) === 'WAVE' ? 'wav' : 'mp3';
}

export class TrackReader {
  private readonly chunks: [Float32Array, Float32Array][] = [];
  private head = 0; // read offset into chunks[0]
  private available = 0;
  private toSkip: number;
  private toDeliver: number;
  private decoded: AsyncGenerator<PcmChunk> | null;
  private resamplers: [StreamingResampler, StreamingResampler] | null = null;
  private rateChecked = false;

  constructor(
    bytes: Uint8Array,
    format: PcmFormat,
    startSample: number,
    readonly length: number,
  ) {
    this.toSkip = Math.max(0, startSample);
    this.toDeliver = Math.max(0, length);
    this.decoded = decodePcm(bytes, format, undefined, { mp3ChunkBytes: MP3_BITE_BYTES, flacChunkBytes: FLAC_BITE_BYTES, wavChunkFrames: WAV_BITE_FRAMES });
  }

  /** Samples decoded and not yet taken. */
  get buffered(): number {
    return this.available;
  }

  /** Decodes until `count` samples are ready (or the track has no more). */
  async fill(count: number): Promise<void> {
    while (this.available < count && this.decoded) {
      const next = await this.decoded.next();
      if (next.done) {
        this.finishDecoding();
        break;
      }
      const [left, right] = this.toTimeline(next.value);
      this.append(left, right);
    }
  }

  /** Hands the next `count` decoded samples (or fewer, if fewer are decoded) to `visit`, without taking them. */
  peek(count: number, visit: (left: Float32Array, right: Float32Array) => void): void {
    let left = count;
    let head = this.head;
    for (const [l, r] of this.chunks) {
      if (left <= 0) break;
      const n = Math.min(left, l.length - head);
      visit(l.subarray(head, head + n), r.subarray(head, head + n));
      left -= n;
      head = 0;
    }
  }

  /** Copies the next `count` samples into `left`/`right` (zeros past the end or beyond what was decoded). */
  take(count: number, left: Float32Array, right: Float32Array): void {
    let written = 0;
    while (written < count && this.chunks.length > 0) {
      const [l, r] = this.chunks[0];
      const n = Math.min(count - written, l.length - this.head);
      left.set(l.subarray(this.head, this.head + n), written);
      right.set(r.subarray(this.head, this.head + n), written);
      written += n;
      this.head += n;
      this.available -= n;
      if (this.head === l.length) {
        this.chunks.shift();
        this.head = 0;
      }
    }
    if (written < count) {
      left.fill(0, written, count);
      right.fill(0, written, count);
    }
  }

  /** Frees the decoder (a track dropped before its end). */
  close(): void {
    void this.decoded?.return(undefined);
    this.decoded = null;
    this.chunks.length = 0;
    this.available = 0;
  }

  private toTimeline(chunk: PcmChunk): [Float32Array, Float32Array] {
    if (!this.rateChecked) {
      this.rateChecked = true;
      if (chunk.sampleRate !== TIMELINE_RATE) {
        this.resamplers = [new StreamingResampler(chunk.sampleRate, TIMELINE_RATE), new StreamingResampler(chunk.sampleRate, TIMELINE_RATE)];
      }
    }
    const [left, right] = toStereo(chunk.channels);
    if (!this.resamplers) return [left, right];
    return [this.resamplers[0].push(left), this.resamplers[1].push(right)];
  }

  private finishDecoding(): void {
    if (this.resamplers) this.append(this.resamplers[0].flush(), this.resamplers[1].flush());
    this.decoded = null;
  }

  /** Keeps what lies between the skipped head and the end of the sound. */
  private append(left: Float32Array, right: Float32Array): void {
    let from = 0;
    if (this.toSkip > 0) {
      from = Math.min(left.length, this.toSkip);
      this.toSkip -= from;
    }
    const to = Math.min(left.length, from + this.toDeliver);
    if (to <= from) return;
    this.toDeliver -= to - from;
    // The decoder hands out fresh arrays; only a part of one needs its own copy.
    this.chunks.push(from === 0 && to === left.length ? [left, right] : [left.slice(from, to), right.slice(from, to)]);
    this.available += to - from;
    if (this.toDeliver === 0) {
      void this.decoded?.return(undefined); // nothing after the last sound is needed
      this.decoded = null;
    }
  }
}
