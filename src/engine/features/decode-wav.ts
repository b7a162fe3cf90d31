/**
 * Minimal RIFF/WAVE reader that yields mono chunks straight from the byte buffer. Written here rather than
 * using wavefile because wavefile converts the whole file to Float64 per channel first, which for a long
 * stereo master is several times the memory of the mono working signal we actually want.
 *
 * Supports integer PCM (8/16/24/32 bit), IEEE float (32/64 bit) and WAVE_FORMAT_EXTENSIBLE wrapping either.
 */

import { AudioDecodeError } from './errors.js';

const FORMAT_PCM = 1;
const FORMAT_FLOAT = 3;
const FORMAT_EXTENSIBLE = 0xfffe;

export interface WavLayout {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  isFloat: boolean;
  dataOffset: number;
  dataLength: number;
  /** The data chunk's size as its header states it; more than dataLength when the file was cut short. */
  declaredDataLength: number;
}

export function readWavLayout(bytes: Uint8Array): WavLayout {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || tag(bytes, 0) !== 'RIFF' || tag(bytes, 8) !== 'WAVE') {
    throw new AudioDecodeError('wav', 'not a RIFF/WAVE file');
  }
  let fmt: Omit<WavLayout, 'dataOffset' | 'dataLength' | 'declaredDataLength'> | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = tag(bytes, offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      let formatTag = view.getUint16(body, true);
      const channels = view.getUint16(body + 2, true);
      const sampleRate = view.getUint32(body + 4, true);
      const bitsPerSample = view.getUint16(body + 14, true);
      // The real format of an extensible file is the first two bytes of its sub-format GUID.
      if (formatTag === FORMAT_EXTENSIBLE && size >= 26) formatTag = view.getUint16(body + 24, true);
      if (formatTag !== FORMAT_PCM && formatTag !== FORMAT_FLOAT) {
        throw new AudioDecodeError('wav', `unsupported WAV format tag ${formatTag}`);
      }
      fmt = { sampleRate, channels, bitsPerSample, isFloat: formatTag === FORMAT_FLOAT };
    } else if (id === 'data') {
      if (!fmt) throw new AudioDecodeError('wav', 'data chunk before fmt chunk');
      // Streams written before their length was known carry a bogus size; clamp to what is there.
      const dataLength = Math.min(size, bytes.length - body);
      return { ...fmt, dataOffset: body, dataLength, declaredDataLength: size };
    }
    offset = body + size + (size % 2); // chunks are word-aligned
  }
  throw new AudioDecodeError('wav', 'no data chunk');
}

/** Yields the file as mono Float32 chunks of at most `framesPerChunk` frames, at the file's own rate. */
export function* wavMonoChunks(bytes: Uint8Array, layout: WavLayout, framesPerChunk = 65536): Generator<Float32Array> {
  const { channels, bytesPerSample, frameBytes, read } = frameReader(layout);
  const view = new DataView(bytes.buffer, bytes.byteOffset + layout.dataOffset, layout.dataLength);
  const totalFrames = Math.floor(layout.dataLength / frameBytes);
  for (let start = 0; start < totalFrames; start += framesPerChunk) {
    const count = Math.min(framesPerChunk, totalFrames - start);
    const out = new Float32Array(count);
    for (let f = 0; f < count; f++) {
      let sum = 0;
      const base = (start + f) * frameBytes;
      for (let c = 0; c < channels; c++) sum += read(view, base + c * bytesPerSample);
      out[f] = sum / channels;
    }
    yield out;
  }
}

/** Yields the file as one Float32 array per channel, at most `framesPerChunk` frames at a time (loudness, renditions). */
export function* wavChannelChunks(bytes: Uint8Array, layout: WavLayout, framesPerChunk = 65536): Generator<Float32Array[]> {
  const { channels, bytesPerSample, frameBytes, read } = frameReader(layout);
  const view = new DataView(bytes.buffer, bytes.byteOffset + layout.dataOffset, layout.dataLength);
  const totalFrames = Math.floor(layout.dataLength / frameBytes);
  for (let start = 0; start < totalFrames; start += framesPerChunk) {
    const count = Math.min(framesPerChunk, totalFrames - start);
    const out = Array.from({ length: channels }, () => new Float32Array(count));
    for (let f = 0; f < count; f++) {
      const base = (start + f) * frameBytes;
      for (let c = 0; c < channels; c++) out[c][f] = read(view, base + c * bytesPerSample);
    }
    yield out;
  }
}

function frameReader(layout: WavLayout) {
  const { channels, bitsPerSample, isFloat } = layout;
  const bytesPerSample = bitsPerSample / 8;
  if (channels < 1 || !Number.isInteger(bytesPerSample) || bytesPerSample < 1) {
    throw new AudioDecodeError('wav', `unsupported layout: ${channels} channels, ${bitsPerSample} bits`);
  }
  return { channels, bytesPerSample, frameBytes: bytesPerSample * channels, read: sampleReader(bitsPerSample, isFloat) };
}

function sampleReader(bits: number, isFloat: boolean): (view: DataView, at: number) => number {
  if (isFloat && bits === 32) return (v, at) => v.getFloat32(at, true);
  if (isFloat && bits === 64) return (v, at) => v.getFloat64(at, true);
  if (!isFloat && bits === 8) return (v, at) => (v.getUint8(at) - 128) / 128; // 8-bit WAV is unsigned
  if (!isFloat && bits === 16) return (v, at) => v.getInt16(at, true) / 32768;
  if (!isFloat && bits === 24) {
    return (v, at) => (v.getUint8(at) | (v.getUint8(at + 1) << 8) | (v.getInt8(at + 2) << 16)) / 8388608;
  }
  if (!isFloat && bits === 32) return (v, at) => v.getInt32(at, true) / 2147483648;
  throw new AudioDecodeError('wav', `unsupported sample format: ${bits}-bit ${isFloat ? 'float' : 'integer'}`);
}

function tag(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
}
