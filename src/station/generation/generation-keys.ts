/**
 * Where a generated track's audio lives. Since masters are kept lossless (issue 18) the track's audio
 * (`audio_blob_key`, what the radio decodes and the registry hashes) is the FLAC master `ai/<id>.flac`, and
 * the MP3 encoded from it at the generation's quality sits beside it as `ai/<id>.<kbps>k.mp3`: that MP3 is
 * the generation's `stream_url`. Tracks generated before have an MP3 master `ai/<id>.mp3`, which is its own
 * stream file.
 */
export const masterKeyOf = (stationTrackId: string) => `ai/${stationTrackId}.flac`;

/** The MP3 a generation's stream_url links to: the rendition beside a FLAC master, or an MP3 master itself. */
export function aiStreamKey(audioBlobKey: string, quality: string): string {
  if (!audioBlobKey.endsWith('.flac')) return audioBlobKey;
  return `${audioBlobKey.slice(0, -'.flac'.length)}.${Number.parseInt(quality, 10)}k.mp3`;
}
