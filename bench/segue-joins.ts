/**
 * Joins as listeners hear them: synthetic tracks of known shapes (a loud edge, a 10 s fade-out, a 4 s intro
 * 10 dB under the body) through the real playout (decode, gain, segue, limiter, LAME) at crossfade_sec 3,
 * decoded back. For each join: the overlap, the minimum 3 s short-term loudness across it and how long it
 * stays under -20 LUFS. Exits 1 when an overlap is off 3 s by more than 0.5 s or a join leaves 6 LU of
 * the station level (-14 LUFS).
 *
 *   npx tsx bench/segue-joins.ts
 */
import { MPEGDecoder } from 'mpg123-decoder';
import { KWeightingFilter } from '../src/engine/audio/k-weighting.js';
import { encodeWav } from '../src/engine/audio/encode.js';
import { Playout, type SourceTrack } from '../src/station/stream/playout.js';

const RATE = 44100;
const CROSSFADE_SEC = 3;
const STATION_LUFS = -14;

function tone(frequencyHz: number, amplitude: number, seconds: number, fadeOutSec = 0): Float32Array {
  const n = Math.round(seconds * RATE);
  const fade = Math.round(fadeOutSec * RATE);
  return Float32Array.from({ length: n }, (_, i) => {
    const db = n - i <= fade ? -60 * (1 - (n - i) / fade) : 0;
    return amplitude * 10 ** (db / 20) * Math.sin((2 * Math.PI * frequencyHz * i) / RATE);
  });
}

function wav(...parts: Float32Array[]): Buffer {
  const pcm = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) pcm.set(part, (at += part.length) - part.length);
  return encodeWav(pcm, pcm);
}

const TRACKS: { id: string; file: Buffer }[] = [
  { id: 'loud', file: wav(tone(330, 0.25, 16)) },
  { id: 'loud, long fade-out', file: wav(tone(440, 0.25, 20, 10)) },
  { id: 'quiet intro', file: wav(tone(550, 0.25 * 10 ** (-10 / 20), 4), tone(550, 0.25, 12)) },
  { id: 'long fade-out', file: wav(tone(660, 0.25, 20, 10)) },
  { id: 'quiet intro, fade-out', file: wav(tone(770, 0.25 * 10 ** (-10 / 20), 4), tone(770, 0.25, 16, 10)) },
  { id: 'loud (last)', file: wav(tone(880, 0.25, 16)) },
];

async function main(): Promise<void> {
  let index = 0;
  const playout = new Playout(
    {
      next: async (): Promise<SourceTrack | null> => {
        const entry = TRACKS[index++];
        return entry ? { id: entry.id, title: entry.id, bitrateKbps: 128, crossfadeSec: CROSSFADE_SEC, read: async () => entry.file } : null;
      },
    },
    {
      bitrateKbps: 128,
      prefetchMs: 15_000,
      retryMs: 60_000,
      crossfadeSec: CROSSFADE_SEC,
      targetLufs: STATION_LUFS,
      ceilingDbtp: -1,
      now: () => 0,
      onError: (error) => console.error(error),
    },
  );
  const frames: Buffer[] = [];
  const total = Math.ceil((80 * RATE) / 1152);
  while (frames.length < total) {
    await playout.pump(64, 0);
    await playout.idle();
    for (let frame = playout.takeFrame(); frame; frame = playout.takeFrame()) frames.push(frame);
  }
  playout.stop();
  const decoder = new MPEGDecoder();
  await decoder.ready;
  const { channelData, samplesDecoded } = decoder.decode(Buffer.concat(frames));
  decoder.free();
  const [left, right] = [channelData[0].subarray(0, samplesDecoded), (channelData[1] ?? channelData[0]).subarray(0, samplesDecoded)];
  // Short-term loudness: K-weighted, ungated, 3 s windows every 100 ms.
  const step = RATE / 10;
  const filters = [new KWeightingFilter(RATE), new KWeightingFilter(RATE)];
  const steps: number[] = [];
  for (let at = 0; at + step <= left.length; at += step)
    steps.push(filters[0].sumOfSquares(left, at, at + step) + filters[1].sumOfSquares(right, at, at + step));
  const shortTerm = (k: number) => -0.691 + 10 * Math.log10(steps.slice(k, k + 30).reduce((a, b) => a + b, 0) / (30 * step) + 1e-20);

  const markers = playout.markers;
  let failed = false;
  console.log('| join | overlap (s) | short-term min (LUFS) | max | time under -20 LUFS (s) |');
  console.log('|---|---|---|---|---|');
  for (let i = 0; i + 1 < markers.length && markers[i].endSample !== null; i++) {
    const [out, next] = [markers[i], markers[i + 1]];
    const overlap = (out.endSample! - next.startSample) / RATE;
    // Windows wholly between 3 s before the next track starts and 3 s after the outgoing one ends.
    const from = Math.ceil((next.startSample - 3 * RATE) / step);
    const to = Math.floor((out.endSample! + 3 * RATE) / step) - 30;
    const levels: number[] = [];
    for (let k = from; k <= to; k++) levels.push(shortTerm(k));
    const min = Math.min(...levels);
    const max = Math.max(...levels);
    const under = levels.filter((lufs) => lufs < -20).length / 10;
    if (Math.abs(overlap - CROSSFADE_SEC) > 0.5 || min < STATION_LUFS - 6 || max > STATION_LUFS + 6) failed = true;
    console.log(`| ${out.id} -> ${next.id} | ${overlap.toFixed(2)} | ${min.toFixed(1)} | ${max.toFixed(1)} | ${under.toFixed(1)} |`);
  }
  if (failed) {
    console.error(`a join is off target (overlap ${CROSSFADE_SEC} ± 0.5 s, short-term within 6 LU of ${STATION_LUFS} LUFS)`);
    process.exit(1);
  }
}

await main();
