/**
 * What an uploaded file is, checked before anything is stored: music-metadata sniffs the container from
 * the bytes (never from a name or a client's Content-Type) and reads the tags; the file's structure is
 * checked for truncation (an MP3 whose last frame is cut, a WAV whose data chunk is shorter than its header
 * says); then the whole file is decoded, which proves it is playable and measures its integrated loudness
 * (BS.1770) on the way. MP3 (MPEG Layer III), WAV (PCM or float), FLAC (native, not Ogg) and AIFF / AIFF-C
 * (uncompressed PCM or float, mono or stereo) are accepted: those are the formats the installed decoders read
 * (aiff.ts for AIFF); any other container is refused as unsupported.
 *
 * A FLAC file must declare its length (STREAMINFO): that is what tells a whole file from one cut short at a
 * frame boundary, which decodes cleanly. An AIFF is cut short when its sample data is less than COMM says.
 *
 * What the header declares is judged before a sample is decoded (`out_of_range`, `too_long`): a sample rate
 * outside 8-192 kHz, more than 8 channels, or a length past the caller's limit. A few hundred bytes can
 * declare hours of audio at 1 Hz; decoding and rendering them is what must not happen.
 */
import { parseBuffer, type IAudioMetadata } from 'music-metadata';
import { AudioDecodeError } from '../features/errors.js';
import { readWavLayout } from '../features/decode-wav.js';
import { LoudnessMeter } from './loudness.js';
import { parseMp3 } from './mp3-frames.js';
import { aiffFrameBytes, readAiffLayout } from './aiff.js';
import { id3TagLength } from './id3.js';
import { decodePcm, readFlacInfo, type DecodeStats, type PcmFormat } from './pcm.js';

export type AudioRejection = 'not_audio' | 'unsupported_format' | 'truncated' | 'undecodable' | 'too_short' | 'out_of_range' | 'too_long';

/** What an upload may declare; checked from the header, before decoding. */
export interface AudioLimits {
  /** The longest audio accepted (STATION_UPLOAD_MAX_SEC). */
  maxDurationSec: number;
}

export const SAMPLE_RATE_RANGE = { min: 8000, max: 192_000 } as const;
export const CHANNEL_RANGE = { min: 1, max: 8 } as const;

/** Why a file is not accepted as audio; the message is safe to show to the uploader. */
export class AudioRejectedError extends Error {
  constructor(
    readonly reason: AudioRejection,
    message: string,
  ) {
    super(message);
    this.name = 'AudioRejectedError';
  }
}

export interface AudioTags {
  title: string | null;
  artist: string | null;
  album: string | null;
  genre: string | null;
  year: number | null;
  /** Normalised (upper case, no hyphens) when the tag holds a well-formed ISRC; null otherwise. */
  isrc: string | null;
}

export interface AudioInspection {
  format: PcmFormat;
  /**
   * Where the audio file starts in the bytes: after an ID3v2 tag some taggers put before a FLAC stream (not
   * part of FLAC; the stream from here on is what is kept). 0 for everything else.
   */
  streamStart: number;
  /** As music-metadata names them: container 'MPEG' or 'WAVE', codec 'MPEG 1 Layer 3', 'PCM'... */
  container: string;
  codec: string | null;
  sampleRate: number;
  channels: number;
  /** Average bitrate of the file (a WAV's is its PCM rate). */
  bitrateKbps: number | null;
  /** Measured from the decoded samples, not from the header. */
  durationSec: number;
  /** Integrated loudness in LUFS; null for silence. */
  loudnessLufs: number | null;
  tags: AudioTags;
}

export const MIN_DURATION_SEC = 1;
const ISRC = /^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$/;
/** Junk an MP3 may carry between or after frames (APE tags, padding) before it counts as corrupt. */
const MAX_JUNK_SHARE = 0.05;
/** A WAV data size written by a recorder that never learned the final length. */
const UNKNOWN_WAV_SIZES = new Set([0, 0xffffffff]);

export function normaliseIsrc(value: string | null | undefined): string | null {
  const compact = value?.replace(/[\s-]/g, '').toUpperCase() ?? '';
  return ISRC.test(compact) ? compact : null;
}

export async function inspectAudio(bytes: Uint8Array, limits: AudioLimits): Promise<AudioInspection> {
  const metadata = await readMetadata(bytes);
  const format = formatOf(metadata);
  const streamStart = format === 'flac' ? id3TagLength(bytes) : 0;
  const stream = bytes.subarray(streamStart);
  const expectedFrames = checkStructure(stream, format, limits);
  const { frames, sampleRate, channels, loudnessLufs } = await decodeAll(stream, format, expectedFrames);
  const durationSec = frames / sampleRate;
  if (durationSec < MIN_DURATION_SEC)
    throw new AudioRejectedError('too_short', `the audio lasts ${durationSec.toFixed(2)} s; at least ${MIN_DURATION_SEC} s is needed`);
  const bitrate = metadata.format.bitrate;
  return {
    format,
    streamStart,
    container: metadata.format.container ?? format.toUpperCase(),
    codec: metadata.format.codec ?? null,
    sampleRate,
    channels,
    bitrateKbps: bitrate && Number.isFinite(bitrate) ? Math.round(bitrate / 1000) : null,
    durationSec,
    loudnessLufs,
    tags: tagsOf(metadata),
  };
}

async function readMetadata(bytes: Uint8Array): Promise<IAudioMetadata> {
  try {
    // No MIME type and no file name: the container is recognised from the bytes alone.
    const metadata = await parseBuffer(bytes, undefined, { skipCovers: true });
    if (!metadata.format.container || metadata.format.hasAudio === false) throw new Error('no audio stream');
    return metadata;
  } catch {
    // A FLAC or AIFF whose header is itself cut short is a truncated file of a supported format, not "not audio".
    if (startsLikeLossless(bytes)) throw new AudioRejectedError('truncated', 'the file is truncated: its header is incomplete');
    throw new AudioRejectedError('not_audio', 'the file is not an audio file');
  }
}

function startsLikeLossless(bytes: Uint8Array): boolean {
  const stream = bytes.subarray(id3TagLength(bytes));
  const tag = (at: number) => String.fromCharCode(...stream.subarray(at, at + 4));
  return tag(0) === 'fLaC' || (tag(0) === 'FORM' && (tag(8) === 'AIFF' || tag(8) === 'AIFC'));
}

function formatOf(metadata: IAudioMetadata): PcmFormat {
  const { container = '', codec = '' } = metadata.format;
  if (container === 'MPEG' && /layer 3/i.test(codec)) return 'mp3';
  if (container === 'WAVE' && /^(PCM|IEEE_FLOAT)/i.test(codec)) return 'wav';
  if (container === 'FLAC') return 'flac';
  // AIFF-C's compression is judged from the COMM chunk itself (aiff.ts): music-metadata names it loosely.
  if (container === 'AIFF' || container === 'AIFF-C') return 'aiff';
  const what = [container, codec].filter(Boolean).join(', ');
  throw new AudioRejectedError('unsupported_format', `${what} audio is not supported; upload MP3, WAV, FLAC or AIFF`);
}

/**
 * Refuses a file whose header declares what is not accepted, cut short or mostly junk; returns how many PCM
 * frames its structure promises (null: unknown).
 */
function checkStructure(bytes: Uint8Array, format: PcmFormat, limits: AudioLimits): number | null {
  if (format === 'wav') {
    const layout = readLayout(bytes);
    const frameBytes = (layout.bitsPerSample / 8) * layout.channels;
    const declaredBytes = UNKNOWN_WAV_SIZES.has(layout.declaredDataLength) ? layout.dataLength : Math.max(layout.dataLength, layout.declaredDataLength);
    checkDeclared(
      { sampleRate: layout.sampleRate, channels: layout.channels, durationSec: frameBytes > 0 ? declaredBytes / frameBytes / layout.sampleRate : 0 },
      limits,
    );
    const cut = !UNKNOWN_WAV_SIZES.has(layout.declaredDataLength) && layout.declaredDataLength > layout.dataLength;
    if (cut || layout.dataLength % frameBytes !== 0) {
      throw new AudioRejectedError('truncated', `the file is truncated: its data chunk holds ${layout.dataLength} of ${layout.declaredDataLength} bytes`);
    }
    return layout.dataLength / frameBytes;
  }
  if (format === 'flac') return checkFlac(bytes, limits);
  if (format === 'aiff') return checkAiff(bytes, limits);
  const parsed = parseMp3(bytes);
  if (parsed.frames.length === 0) throw new AudioRejectedError('undecodable', 'no MPEG audio frames were found');
  // MPEG rates (8-48 kHz) and channels (1-2) are always in range; the length is the sum of the frames'.
  const durationSec = parsed.frames.reduce((sum, frame) => sum + frame.durationMs, 0) / 1000;
  checkDeclared({ sampleRate: parsed.frames[0].sampleRate, channels: 1, durationSec }, limits);
  if (parsed.skipped.truncatedTail) throw new AudioRejectedError('truncated', 'the file is truncated: it ends inside an MPEG frame');
  if (parsed.skipped.garbageBytes > MAX_JUNK_SHARE * bytes.length) {
    throw new AudioRejectedError('undecodable', `${parsed.skipped.garbageBytes} bytes of the file are neither MPEG frames nor tags`);
  }
  return null;
}

function checkFlac(bytes: Uint8Array, limits: AudioLimits): number {
  let info;
  try {
    info = readFlacInfo(bytes);
  } catch (error) {
    const reason = error instanceof AudioDecodeError && /truncated/.test(error.message) ? 'truncated' : 'undecodable';
    throw new AudioRejectedError(reason, error instanceof AudioDecodeError ? error.message : 'the FLAC structure cannot be read');
  }
  checkDeclared({ sampleRate: info.sampleRate, channels: info.channels, durationSec: info.totalSamples / info.sampleRate }, limits);
  if (info.totalSamples === 0) {
    throw new AudioRejectedError('undecodable', 'the FLAC stream does not declare its length, so a file cut short cannot be told from a whole one');
  }
  return info.totalSamples;
}

function checkAiff(bytes: Uint8Array, limits: AudioLimits): number {
  let layout;
  try {
    layout = readAiffLayout(bytes);
  } catch (error) {
    if (error instanceof AudioDecodeError && /compression|sample size/.test(error.message)) throw new AudioRejectedError('unsupported_format', error.message);
    throw new AudioRejectedError('undecodable', error instanceof AudioDecodeError ? error.message : 'the AIFF structure cannot be read');
  }
  checkDeclared({ sampleRate: layout.sampleRate, channels: layout.channels, durationSec: layout.declaredFrames / layout.sampleRate }, limits);
  // AIFF names its channels in an order of its own for 3 or more (L, C, R, ... ; AIFF 1.3, p. 9), which
  // no fold-down here follows: a surround AIFF would be aired with its channels in the wrong places.
  if (layout.channels > 2)
    throw new AudioRejectedError('unsupported_format', `AIFF with ${layout.channels} channels is not supported; upload it as WAV or FLAC`);
  const held = Math.floor(layout.dataLength / aiffFrameBytes(layout));
  if (held < layout.declaredFrames) {
    throw new AudioRejectedError('truncated', `the file is truncated: it holds ${held} of the ${layout.declaredFrames} sample frames its header declares`);
  }
  return layout.declaredFrames;
}

function checkDeclared(header: { sampleRate: number; channels: number; durationSec: number }, limits: AudioLimits): void {
  const { sampleRate, channels, durationSec } = header;
  if (!(sampleRate >= SAMPLE_RATE_RANGE.min && sampleRate <= SAMPLE_RATE_RANGE.max)) {
    throw new AudioRejectedError(
      'out_of_range',
      `the sample rate is ${sampleRate} Hz; uploads take ${SAMPLE_RATE_RANGE.min / 1000}-${SAMPLE_RATE_RANGE.max / 1000} kHz`,
    );
  }
  if (!(channels >= CHANNEL_RANGE.min && channels <= CHANNEL_RANGE.max)) {
    throw new AudioRejectedError('out_of_range', `the file has ${channels} channels; uploads take ${CHANNEL_RANGE.min} to ${CHANNEL_RANGE.max}`);
  }
  if (durationSec > limits.maxDurationSec) {
    throw new AudioRejectedError('too_long', `the audio lasts ${durationSec.toFixed(1)} s, longer than ${limits.maxDurationSec} s`);
  }
}

function readLayout(bytes: Uint8Array) {
  try {
    return readWavLayout(bytes);
  } catch (error) {
    throw new AudioRejectedError('undecodable', error instanceof AudioDecodeError ? error.message : 'the WAV structure cannot be read');
  }
}

async function decodeAll(bytes: Uint8Array, format: PcmFormat, expectedFrames: number | null) {
  const stats: DecodeStats = { decodeErrors: 0 };
  let meter: LoudnessMeter | null = null;
  let frames = 0;
  try {
    for await (const chunk of decodePcm(bytes, format, stats)) {
      meter ??= new LoudnessMeter(chunk.sampleRate, chunk.channels.length);
      meter.push(chunk.channels, chunk.frames);
      frames += chunk.frames;
    }
  } catch (error) {
    throw new AudioRejectedError('undecodable', error instanceof AudioDecodeError ? error.message : 'the audio cannot be decoded');
  }
  if (!meter || frames === 0) throw new AudioRejectedError('undecodable', 'the file holds no decodable audio');
  if (stats.decodeErrors > 0) throw new AudioRejectedError('undecodable', `${stats.decodeErrors} MPEG frames cannot be decoded`);
  // A FLAC stream cut at a frame boundary (or with a damaged frame, which the decoder drops) decodes short.
  if (expectedFrames !== null && frames < expectedFrames)
    throw new AudioRejectedError('truncated', `the file is cut short or damaged: ${frames} of the ${expectedFrames} sample frames its header declares decode`);
  if (expectedFrames !== null && frames !== expectedFrames) throw new AudioRejectedError('undecodable', 'the decoded length differs from the file header');
  return { frames, sampleRate: meter.sampleRate, channels: meter.channelCount, loudnessLufs: meter.integrated() };
}

function tagsOf(metadata: IAudioMetadata): AudioTags {
  const { common } = metadata;
  const text = (value: string | undefined) => (value && value.trim() !== '' ? value.trim() : null);
  return {
    title: text(common.title),
    artist: text(common.artist),
    album: text(common.album),
    genre: text(common.genre?.[0]),
    year: common.year && Number.isInteger(common.year) ? common.year : null,
    isrc: normaliseIsrc(common.isrc?.[0]),
  };
}
