/**
 * The AI label: an ID3v2.4 tag written by hand. It needs five frame kinds and ~60 lines, while ID3 libraries
 * on npm either target v2.3, pull in a lot of code, or cannot build a tag detached from a file; keeping it
 * here also lets the registry step prepend a fresh tag (with station_track_id) after registration.
 */
export const TRAINED_ALGORITHMIC_MEDIA = 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia';

export interface AiLabel {
  title: string;
  stationName: string;
  modelVersion: string;
  stationTrackId?: string;
  genre?: string;
  bpm?: number;
  key?: string; // "F#m", ID3 TKEY notation
}

function synchsafe(size: number): Buffer {
  if (size >= 1 << 28) throw new RangeError('ID3 frame too large');
  return Buffer.from([(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]);
}

function frame(id: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(id, 'latin1'), synchsafe(body.length), Buffer.from([0, 0]), body]);
}

const UTF8 = Buffer.from([3]);

function textFrame(id: string, text: string): Buffer {
  return frame(id, Buffer.concat([UTF8, Buffer.from(text, 'utf8')]));
}

function userTextFrame(description: string, value: string): Buffer {
  return frame('TXXX', Buffer.concat([UTF8, Buffer.from(description, 'utf8'), Buffer.from([0]), Buffer.from(value, 'utf8')]));
}

export function buildId3Tag(label: AiLabel): Buffer {
  const frames = [
    textFrame('TIT2', label.title),
    textFrame('TPE1', label.stationName),
    ...(label.genre ? [textFrame('TCON', label.genre)] : []),
    ...(label.bpm ? [textFrame('TBPM', String(Math.round(label.bpm)))] : []),
    ...(label.key ? [textFrame('TKEY', label.key)] : []),
    userTextFrame('station', label.stationName),
    userTextFrame('model_version', label.modelVersion),
    ...(label.stationTrackId ? [userTextFrame('station_track_id', label.stationTrackId)] : []),
    userTextFrame('track_origin', 'ai_generated'),
    userTextFrame('digital_source_type', TRAINED_ALGORITHMIC_MEDIA),
  ];
  const body = Buffer.concat(frames);
  // "ID3", version 2.4.0, no flags, synchsafe size of everything after the 10-byte header.
  return Buffer.concat([Buffer.from('ID3', 'latin1'), Buffer.from([4, 0, 0]), synchsafe(body.length), body]);
}

/** The same label as Vorbis comments, for the FLAC master (flac-encode.ts). */
export function vorbisLabel(label: AiLabel): [string, string][] {
  return [
    ['TITLE', label.title],
    ['ARTIST', label.stationName],
    ...(label.genre ? [['GENRE', label.genre] as [string, string]] : []),
    ...(label.bpm ? [['BPM', String(Math.round(label.bpm))] as [string, string]] : []),
    ...(label.key ? [['KEY', label.key] as [string, string]] : []),
    ['STATION', label.stationName],
    ['MODEL_VERSION', label.modelVersion],
    ...(label.stationTrackId ? [['STATION_TRACK_ID', label.stationTrackId] as [string, string]] : []),
    ['TRACK_ORIGIN', 'ai_generated'],
    ['DIGITAL_SOURCE_TYPE', TRAINED_ALGORITHMIC_MEDIA],
  ];
}

/** Size of a leading ID3v2 tag (header, body and optional footer), 0 when there is none. */
export function id3TagLength(file: Uint8Array): number {
  if (file.length < 10 || file[0] !== 0x49 || file[1] !== 0x44 || file[2] !== 0x33) return 0;
  const size = (file[6] << 21) | (file[7] << 14) | (file[8] << 7) | file[9];
  const hasFooter = (file[5] & 0x10) !== 0;
  return 10 + size + (hasFooter ? 10 : 0);
}

/** Replaces any leading ID3v2 tag of an MP3 with a new label (e.g. once station_track_id is known). */
export function withId3Tag(mp3: Uint8Array, label: AiLabel): Buffer {
  const audio = mp3.subarray(id3TagLength(mp3));
  return Buffer.concat([buildId3Tag(label), audio]);
}
