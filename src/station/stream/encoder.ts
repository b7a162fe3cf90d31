/**
 * The stream's one MP3 encoder per quality: LAME (the radio's createMp3Stream) fed the timeline block by
 * block, its output cut into whole frames so the broadcaster can pace and fan them out frame by frame.
 *
 * A decoder hears input sample j of an encoder at output sample j + CODEC_DELAY_SAMPLES of that encoder's
 * frames: LAME's 576-sample encoder delay plus the 529 samples of the MP3 synthesis filter (measured with
 * mpg123; test/station/playout-timeline.test.ts checks the alignment it gives).
 */
import { parseFrameHeader } from '../../engine/audio/mp3-frames.js';
import { createMp3Stream, type Mp3Stream } from '../../engine/audio/encode.js';
import type { AudioQuality } from '../../engine/types.js';

export const CODEC_DELAY_SAMPLES = 1105;
export const SAMPLES_PER_FRAME = 1152;

export class StreamEncoder {
  private pending: Buffer = Buffer.alloc(0);

  private constructor(
    private readonly stream: Mp3Stream,
    readonly bitrateKbps: number,
  ) {}

  static async create(bitrateKbps: number): Promise<StreamEncoder> {
    const quality: AudioQuality = bitrateKbps >= 320 ? '320kbps' : bitrateKbps >= 192 ? '192kbps' : '128kbps';
    return new StreamEncoder(await createMp3Stream(quality), Number.parseInt(quality, 10));
  }

  /** Encodes a stereo block; returns the frames completed so far. */
  encode(left: Float32Array, right: Float32Array): Buffer[] {
    return this.frames(this.stream.write(left, right));
  }

  /** Flushes the encoder (zero padding to a whole frame); returns its last frames. */
  finish(): Buffer[] {
    return this.frames(this.stream.finish());
  }

  private frames(bytes: Uint8Array): Buffer[] {
    if (bytes.length > 0) this.pending = this.pending.length === 0 ? Buffer.from(bytes) : Buffer.concat([this.pending, bytes]);
    const out: Buffer[] = [];
    let at = 0;
    while (this.pending.length - at >= 4) {
      const header = parseFrameHeader(this.pending, at);
      if (!header) {
        at++; // never expected from LAME; resync rather than send garbage
        continue;
      }
      if (this.pending.length - at < header.length) break;
      out.push(this.pending.subarray(at, at + header.length));
      at += header.length;
    }
    this.pending = at === 0 ? this.pending : Buffer.from(this.pending.subarray(at));
    return out;
  }
}
