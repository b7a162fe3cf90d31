/**
 * MP3 bytes -> frames, for a live stream that splices files together frame by frame. Whatever is not audio
 * is left out: ID3v2 tags (front, or appended), an ID3v1 tag at the end, and the Xing/Info/VBRI header frame
 * (a silent frame whose frame count and seek table describe the whole file: mid-stream it would announce the
 * wrong length to a player). Garbage is skipped by resyncing on the next header that a second header confirms.
 * Only Layer III is accepted (MPEG-1, 2 and 2.5); the station encodes MPEG-1 Layer III, 44.1 kHz.
 * Uploads use it too, to tell a file cut short (its last frame incomplete) from a whole one.
 */
import { id3TagLength } from './id3.js';

export interface Mp3FrameHeader {
  /** 1, 2 or 2.5 */
  version: 1 | 2 | 2.5;
  bitrateKbps: number;
  sampleRate: number;
  padding: boolean;
  /** A 16-bit CRC follows the header. */
  hasCrc: boolean;
  mono: boolean;
  /** Bytes, header included. */
  length: number;
  /** PCM samples per channel: 1152 (MPEG-1) or 576 (MPEG-2/2.5). */
  samples: number;
}

export interface Mp3Frame {
  offset: number;
  length: number;
  bitrateKbps: number;
  sampleRate: number;
  durationMs: number;
}

export interface Mp3Parse {
  frames: Mp3Frame[];
  durationMs: number;
  skipped: {
    /** Bytes of ID3v2 tags (leading and any found between frames). */
    id3v2Bytes: number;
    id3v1: boolean;
    infoFrame: 'Xing' | 'Info' | 'VBRI' | null;
    /** Bytes that were neither frames nor tags, including a truncated last frame. */
    garbageBytes: number;
    /** The data ends inside a frame whose header announced more bytes: the file was cut short. */
    truncatedTail: boolean;
  };
}

const BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES_V1 = [44100, 48000, 32000];

/** The Layer III frame header at `offset`, or null when the four bytes there are not one. */
export function parseFrameHeader(bytes: Uint8Array, offset: number): Mp3FrameHeader | null {
  if (offset < 0 || offset + 4 > bytes.length) return null;
  const b1 = bytes[offset + 1];
  const b2 = bytes[offset + 2];
  const b3 = bytes[offset + 3];
  if (bytes[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const versionBits = (b1 >> 3) & 3; // 0 = 2.5, 1 = reserved, 2 = MPEG-2, 3 = MPEG-1
  const layerBits = (b1 >> 1) & 3; // 1 = Layer III
  const bitrateIndex = b2 >> 4;
  const sampleRateIndex = (b2 >> 2) & 3;
  if (versionBits === 1 || layerBits !== 1) return null;
  if (bitrateIndex === 0 || bitrateIndex === 15 || sampleRateIndex === 3) return null; // free format, bad, reserved
  if ((b3 & 3) === 2) return null; // reserved emphasis
  const version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 2.5;
  const bitrateKbps = (version === 1 ? BITRATES_V1_L3 : BITRATES_V2_L3)[bitrateIndex];
  const sampleRate = SAMPLE_RATES_V1[sampleRateIndex] / (version === 1 ? 1 : version === 2 ? 2 : 4);
  const padding = ((b2 >> 1) & 1) === 1;
  const samples = version === 1 ? 1152 : 576;
  const length = Math.floor(((samples / 8) * bitrateKbps * 1000) / sampleRate) + (padding ? 1 : 0);
  return { version, bitrateKbps, sampleRate, padding, hasCrc: (b1 & 1) === 0, mono: b3 >> 6 === 3, length, samples };
}

/** Frames that can follow each other in one stream: same MPEG version and sample rate, both mono or both not. */
function compatible(a: Mp3FrameHeader, b: Mp3FrameHeader): boolean {
  return a.version === b.version && a.sampleRate === b.sampleRate && a.mono === b.mono;
}

/** The VBR header tag inside a frame (it sits where the first granule's side information ends), if any. */
function infoTagOf(bytes: Uint8Array, offset: number, header: Mp3FrameHeader): 'Xing' | 'Info' | 'VBRI' | null {
  const sideInfo = header.version === 1 ? (header.mono ? 17 : 32) : header.mono ? 9 : 17;
  const at = (position: number) => Buffer.from(bytes.buffer, bytes.byteOffset + position, 4).toString('latin1');
  const xingAt = offset + 4 + (header.hasCrc ? 2 : 0) + sideInfo;
  if (xingAt + 4 <= offset + header.length) {
    const tag = at(xingAt);
    if (tag === 'Xing' || tag === 'Info') return tag;
  }
  if (offset + 36 + 4 <= offset + header.length && at(offset + 36) === 'VBRI') return 'VBRI';
  return null;
}

function hasId3v1(bytes: Uint8Array): boolean {
  const at = bytes.length - 128;
  return at >= 0 && bytes[at] === 0x54 && bytes[at + 1] === 0x41 && bytes[at + 2] === 0x47; // "TAG"
}

export function parseMp3(bytes: Uint8Array): Mp3Parse {
  const skipped: Mp3Parse['skipped'] = { id3v2Bytes: 0, id3v1: hasId3v1(bytes), infoFrame: null, garbageBytes: 0, truncatedTail: false };
  const end = bytes.length - (skipped.id3v1 ? 128 : 0);
  const frames: Mp3Frame[] = [];
  let durationMs = 0;
  let locked: Mp3FrameHeader | null = null; // the last accepted header while in sync
  let firstFrame = true;
  let offset = 0;

  while (offset + 4 <= end) {
    const tagLength = id3v2At(bytes, offset, end);
    if (tagLength > 0) {
      skipped.id3v2Bytes += tagLength;
      offset += tagLength;
      locked = null;
      continue;
    }
    const header = parseFrameHeader(bytes, offset);
    if (header && offset + header.length > end) {
      // A truncated last frame (or a false sync near the end): nothing after it can be audio either.
      skipped.garbageBytes += end - offset;
      skipped.truncatedTail = true;
      break;
    }
    if (header && (!locked || compatible(locked, header)) && confirmed(bytes, offset, header, end, locked !== null)) {
      if (firstFrame && (skipped.infoFrame = infoTagOf(bytes, offset, header)) !== null) {
        // The VBR/LAME header frame carries no audio.
      } else {
        const frameMs = (header.samples * 1000) / header.sampleRate;
        frames.push({ offset, length: header.length, bitrateKbps: header.bitrateKbps, sampleRate: header.sampleRate, durationMs: frameMs });
        durationMs += frameMs;
      }
      firstFrame = false;
      locked = header;
      offset += header.length;
      continue;
    }
    locked = null;
    skipped.garbageBytes++;
    offset++;
  }
  if (offset < end && offset + 4 > end) skipped.garbageBytes += end - offset;
  return { frames, durationMs, skipped };
}

/**
 * A header counts when the next frame starts where it says (or the data ends there). In sync, a frame whose
 * successor is garbage still counts (a frame before junk) unless a confirmed header starts inside it: then it
 * was cut short and the real next frame begins within it.
 */
function confirmed(bytes: Uint8Array, offset: number, header: Mp3FrameHeader, end: number, inSync: boolean): boolean {
  const next = offset + header.length;
  if (end - next < 4) return true;
  const following = parseFrameHeader(bytes, next);
  if (following !== null && compatible(header, following)) return true;
  if (!inSync) return false;
  for (let inside = offset + 1; inside < next; inside++) {
    const candidate = parseFrameHeader(bytes, inside);
    if (candidate && compatible(header, candidate) && confirmed(bytes, inside, candidate, end, false)) return false;
  }
  return true;
}

/** Length of a well-formed ID3v2 tag starting at `offset` that ends before `end`, else 0. */
function id3v2At(bytes: Uint8Array, offset: number, end: number): number {
  if (bytes[offset] !== 0x49 || end - offset < 10) return 0; // "I"
  const majorVersion = bytes[offset + 3];
  if (majorVersion < 2 || majorVersion > 4 || bytes[offset + 4] === 0xff) return 0;
  for (let i = 6; i < 10; i++) if (bytes[offset + i] >= 0x80) return 0;
  const length = id3TagLength(bytes.subarray(offset, offset + 10));
  return offset + length <= end ? length : 0;
}

/**
 * A frame of digital silence built by hand: header, all-zero side information (main_data_begin 0, no
 * Huffman bits, so it never borrows from the bit reservoir of whatever came before) and zero padding.
 * Any decoder renders it as 1152 samples of silence; repeating it keeps a connection alive between tracks.
 */
export function silentFrame(bitrateKbps: number, sampleRate = 44100): Buffer {
  const bitrateIndex = BITRATES_V1_L3.indexOf(bitrateKbps);
  const sampleRateIndex = SAMPLE_RATES_V1.indexOf(sampleRate);
  if (bitrateIndex <= 0 || sampleRateIndex < 0) throw new RangeError(`no MPEG-1 Layer III frame at ${bitrateKbps} kbps, ${sampleRate} Hz`);
  const length = Math.floor((144 * bitrateKbps * 1000) / sampleRate);
  const frame = Buffer.alloc(length);
  frame[0] = 0xff;
  frame[1] = 0xfb; // MPEG-1, Layer III, no CRC
  frame[2] = (bitrateIndex << 4) | (sampleRateIndex << 2); // no padding
  frame[3] = 0x44; // joint stereo (no M/S, no intensity), original
  return frame;
}
