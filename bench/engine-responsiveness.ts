/**
 * The API thread while the in-process engine generates: one track rendered on the worker pool (LocalEngine,
 * as the station runs it) while the main thread's event loop is sampled by a 10 ms interval. Reports how
 * late the interval fired (the gaps between its callbacks) and the event-loop utilisation over the job.
 * Targets (they were assertions of test/engine/local-engine.test.ts, which now checks only that the job
 * runs on a worker while the loop keeps turning): p95 gap under 100 ms, longest gap under 400 ms, event-loop
 * utilisation under 0.5. Exits 1 when a target is missed.
 *
 *   npx tsx bench/engine-responsiveness.ts [durationSec=30] [runs=3]
 */
import { createHash } from 'node:crypto';
import type { ArtifactRef, ArtifactSource } from '../src/engine/engine.js';
import { LocalEngine } from '../src/engine/local-engine.js';
import { emptyAudioModel, serialiseAudioModel } from '../src/engine/compose/audio-model.js';
import type { MusicContext } from '../src/engine/types.js';

const durationSec = Number(process.argv[2] ?? 30);
const runs = Number(process.argv[3] ?? 3);

const modelBytes = Buffer.from(serialiseAudioModel(emptyAudioModel()));
const audioModel: ArtifactRef = { version: 'bench', sha256: createHash('sha256').update(modelBytes).digest('hex'), blobKey: 'models/audio.json' };
const artifacts: ArtifactSource = { read: async () => modelBytes };
const context: MusicContext = {
  genre: 'lo-fi hip hop',
  subgenre: 'chillhop',
  mood: ['calm', 'dreamy'],
  lifestyle: 'focus',
  tempo_range: [72, 88],
  key_preference: 'minor',
  energy_level: 0.4,
};

const engine = new LocalEngine({ artifacts, poolSize: 1, taskTimeoutMs: 10 * 60_000 });
const job = (seed: number) => ({ context, seed, maxDurationSec: durationSec, quality: '128kbps' as const, audioModel, stationName: 'Bench FM' });

// Warm-up: the worker starts, parses the SoundFont and compiles the encoder once.
await engine.generateTrack({ ...job(1), maxDurationSec: 4 });

const results: { p50: number; p95: number; max: number; elu: number; wallSec: number }[] = [];
for (let run = 0; run < runs; run++) {
  const gaps: number[] = [];
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }, 10);
  const loopBefore = performance.eventLoopUtilization();
  const started = performance.now();
  try {
    await engine.generateTrack(job(100 + run));
  } finally {
    clearInterval(ticker);
  }
  const wallSec = (performance.now() - started) / 1000;
  const elu = performance.eventLoopUtilization(loopBefore).utilization;
  gaps.sort((a, b) => a - b);
  const at = (q: number) => gaps[Math.min(gaps.length - 1, Math.floor(gaps.length * q))];
  results.push({ p50: at(0.5), p95: at(0.95), max: gaps.at(-1)!, elu, wallSec });
}
await engine.close();

const worst = {
  p95: Math.max(...results.map((r) => r.p95)),
  max: Math.max(...results.map((r) => r.max)),
  elu: Math.max(...results.map((r) => r.elu)),
};
console.log(
  JSON.stringify(
    {
      durationSec,
      runs: results.map((r) => ({
        wallSec: Number(r.wallSec.toFixed(1)),
        gapP50Ms: Number(r.p50.toFixed(1)),
        gapP95Ms: Number(r.p95.toFixed(1)),
        gapMaxMs: Number(r.max.toFixed(1)),
        eventLoopUtilization: Number(r.elu.toFixed(3)),
      })),
      target: 'p95 gap < 100 ms, longest gap < 400 ms, event-loop utilisation < 0.5 (every run)',
    },
    null,
    2,
  ),
);
const missed = [
  ...(worst.p95 >= 100 ? [`p95 gap ${worst.p95.toFixed(0)} ms`] : []),
  ...(worst.max >= 400 ? [`longest gap ${worst.max.toFixed(0)} ms`] : []),
  ...(worst.elu >= 0.5 ? [`event-loop utilisation ${worst.elu.toFixed(2)}`] : []),
];
if (missed.length > 0) {
  console.error(`target missed: ${missed.join('; ')}`);
  process.exitCode = 1;
}
