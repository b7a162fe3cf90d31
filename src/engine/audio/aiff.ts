/**
 * AIFF and AIFF-C (uncompressed) read straight from the bytes: the layout from the COMM and SSND chunks, then
 * the samples as Float32 per channel, chunk by chunk, at the file's own rate.
 *
 * Written here rather than taken from npm: AIFF is a few dozen lines of big-endian PCM, and the AIFF readers
 * on npm are either unmaintained for years or convert the whole file to Float64 first (several times the
 * memory of a long upload). The values are the integer samples over 2^(bits-1), as the WAV reader and the
 * FLAC encoder's `quantise` count them, so an 8-24-bit file is kept bit-exact as FLAC (renditions.ts).
 *
 * Accepted: AIFF (signed big-endian PCM, 8/16/24/32-bit) and AIFF-C with the compression types `NONE` and
 * `twos` (big-endian PCM), `sowt` (little-endian PCM) and `fl32`/`FL32` (32-bit float). Other AIFF-C
 * compressions (u-law, IMA ADPCM...) are refused.
 */
import { AudioDecodeError } from '../features/errors.js';

export interface AiffLayout {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  isFloat: boolean;
  littleEndian: boolean;
  /** Sample frames COMM declares. */
  declaredFrames: number;
  dataOffset: number;
  /** Bytes of sample data the file holds (less than declared when it was cut short). */
  dataLength: number;
  /** The AIFF-C compression type ('NONE' for plain AIFF). */
  compression: string;
}

const PCM_COMPRESSIONS = new Set(['NONE', 'twos', 'sowt', 'fl32', 'FL32']);

export function isAiff(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && tag(bytes, 0) === 'FORM' && (tag(bytes, 8) === 'AIFF' || tag(bytes, 8) === 'AIFC');
}

export function readAiffLayout(bytes: Uint8Array): AiffLayout {
  if (!isAiff(bytes)) throw new AudioDecodeError('aiff', 'not an AIFF file');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const aifc = tag(bytes, 8) === 'AIFC';
  let comm: Omit<AiffLayout, 'dataOffset' | 'dataLength'> | null = null;
  let data: { offset: number; length: number } | null = null;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = tag(bytes, offset);
    const size = view.getUint32(offset + 4);
    const body = offset + 8;
    if (id === 'COMM') {
      if (body + 18 > bytes.length) throw new AudioDecodeError('aiff', 'the COMM chunk is cut short');
      const compression = aifc && size >= 22 && body + 22 <= bytes.length ? tag(bytes, body + 18) : 'NONE';
      if (!PCM_COMPRESSIONS.has(compression)) throw new AudioDecodeError('aiff', `AIFF-C compression '${compression.trim()}' is not supported`);
      const isFloat = compression === 'fl32' || compression === 'FL32';
      comm = {
        channels: view.getUint16(body),
        declaredFrames: view.getUint32(body + 2),
        bitsPerSample: isFloat ? 32 : view.getUint16(body + 6),
        sampleRate: extended80(view, body + 8),
        isFloat,
        littleEndian: compression === 'sowt',
        compression,
      };
    } else if (id === 'SSND') {
      if (body + 8 > bytes.length) throw new AudioDecodeError('aiff', 'the SSND chunk is cut short');
      // The sample data starts `offset` bytes after the chunk's 8-byte header (alignment padding).
      const start = body + 8 + view.getUint32(body);
      const end = Math.min(body + size, bytes.length);
      data = { offset: start, length: Math.max(0, end - start) };
    }
    offset = body + size + (size % 2); // chunks are word-aligned
  }
  if (!comm) throw new AudioDecodeError('aiff', 'no COMM chunk');
  if (![8, 16, 24, 32].includes(comm.bitsPerSample)) throw new AudioDecodeError('aiff', `unsupported sample size: ${comm.bitsPerSample} bits`);
  // A file of no frames may leave SSND out; otherwise it is missing because the file was cut before it.
  return { ...comm, dataOffset: data?.offset ?? bytes.length, dataLength: data?.length ?? 0 };
}

/** Bytes of one sample frame (all channels). */
export const aiffFrameBytes = (layout: AiffLayout) => (layout.bitsPerSample / 8) * layout.channels;

/** The whole frames the file holds, at most what COMM declares, as Float32 channels of at most `framesPerChunk`. */
export function* aiffChannelChunks(bytes: Uint8Array, layout: AiffLayout, framesPerChunk = 65536): Generator<Float32Array[]> {
  const { channels } = layout;
  const bytesPerSample = layout.bitsPerSample / 8;
  const frameBytes = aiffFrameBytes(layout);
  if (channels < 1) throw new AudioDecodeError('aiff', 'no channels');
  const read = sampleReader(layout);
  const view = new DataView(bytes.buffer, bytes.byteOffset + layout.dataOffset, layout.dataLength);
  const total = Math.min(layout.declaredFrames, Math.floor(layout.dataLength / frameBytes));
  for (let start = 0; start < total; start += framesPerChunk) {
    const count = Math.min(framesPerChunk, total - start);
    const out = Array.from({ length: channels }, () => new Float32Array(count));
    for (let f = 0; f < count; f++) {
      const base = (start + f) * frameBytes;
      for (let c = 0; c < channels; c++) out[c][f] = read(view, base + c * bytesPerSample);
    }
    yield out;
  }
}

function sampleReader({ bitsPerSample: bits, isFloat, littleEndian: le }: AiffLayout): (view: DataView, at: number) => number {
  if (isFloat) return (v, at) => v.getFloat32(at, le);
  if (bits === 8) return (v, at) => v.getInt8(at) / 128; // AIFF's 8-bit is signed, unlike WAV's
  if (bits === 16) return (v, at) => v.getInt16(at, le) / 32768;
  if (bits === 24) {
    return le
      ? (v, at) => (v.getUint8(at) | (v.getUint8(at + 1) << 8) | (v.getInt8(at + 2) << 16)) / 8388608
      : (v, at) => ((v.getInt8(at) << 16) | (v.getUint8(at + 1) << 8) | v.getUint8(at + 2)) / 8388608;
  }
  return (v, at) => v.getInt32(at, le) / 2147483648;
}

/** The sample rate, an IEEE 754 80-bit extended float (sign, 15-bit exponent, 64-bit mantissa with explicit 1). */
function extended80(view: DataView, at: number): number {
  const head = view.getUint16(at);
  const exponent = (head & 0x7fff) - 16383;
  const mantissa = view.getUint32(at + 2) * 2 ** 32 + view.getUint32(at + 6);
  const value = mantissa * 2 ** (exponent - 63);
  return head & 0x8000 ? -value : value;
}

function tag(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
}
