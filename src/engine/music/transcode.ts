/**
 * Re-encodes an MP3 at another bitrate (the radio streams every track at stream_quality, whatever the
 * master's bitrate). Decoded and re-encoded chunk by chunk, so memory stays flat; the ID3 tag (and with it
 * an AI label) is carried over to the new file.
 */
import { MPEGDecoder } from 'mpg123-decoder';
import type { AudioQuality } from '../types.js';
import { createMp3Stream } from '../audio/encode.js';
import { id3TagLength } from '../audio/id3.js';

const CHUNK_BYTES = 64 * 1024;

export async function transcodeMp3(mp3: Uint8Array, quality: AudioQuality): Promise<Buffer> {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  const parts: Uint8Array[] = [];
  const tagLength = id3TagLength(mp3);
  if (tagLength > 0) parts.push(mp3.subarray(0, tagLength));
  let encoder: Awaited<ReturnType<typeof createMp3Stream>> | null = null;
  try {
    for (let offset = tagLength; offset < mp3.length; offset += CHUNK_BYTES) {
      const decoded = decoder.decode(mp3.subarray(offset, offset + CHUNK_BYTES));
      if (decoded.samplesDecoded === 0) continue;
      encoder ??= await createMp3Stream(quality, decoded.sampleRate);
      const [left, right] = decoded.channelData;
      parts.push(encoder.write(left.subarray(0, decoded.samplesDecoded), (right ?? left).subarray(0, decoded.samplesDecoded)));
    }
    if (!encoder) throw new Error('no MPEG audio frames to transcode');
    parts.push(encoder.finish());
  } finally {
    decoder.free();
  }
  return Buffer.concat(parts);
}
