/**
 * The Content-Type of a blob, by its key's extension: the /media route answers with it, and the object store
 * keeps it with the object so that presigned links are answered with the same type.
 */
const CONTENT_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  m3u8: 'application/vnd.apple.mpegurl',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  aiff: 'audio/aiff',
  json: 'application/json',
  png: 'image/png',
  svg: 'image/svg+xml',
};

export function contentTypeOf(key: string): string {
  const extension = key.includes('.') ? key.slice(key.lastIndexOf('.') + 1).toLowerCase() : '';
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}
