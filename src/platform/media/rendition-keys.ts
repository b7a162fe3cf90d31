/**
 * Where a track's stream renditions live: beside its stream audio, `<key>.<kbps>k.mp3` (tracks/<id>/stream.mp3
 * -> tracks/<id>/stream.128k.mp3). Uploads render all three ahead (platform/uploads); the stream endpoint picks
 * one by quality, or the audio itself when a track has none. (The radio encodes its stream from the audio.)
 */
export function renditionKey(audioKey: string, audioKbps: number | null, kbps: number): string {
  if (audioKbps === kbps) return audioKey;
  return `${audioKey.replace(/\.mp3$/, '')}.${kbps}k.mp3`;
}
