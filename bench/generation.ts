/**
 * Generation speed: 180 s tracks at 128 kbps on this process's single thread (what one render worker
 * does), with and without vocals, as real-time factors (median of the runs) with the compose / render /
 * encode breakdown. Targets (issue 11, medians): >= 20x without vocals, >= 10x with.
 *
 *   npx tsx bench/generation.ts [durationSec=180] [quality=128kbps] [runs=3] [context=electronic]
 *
 * `context` is a genre family of bench/support/mix-fixtures.ts, or `all` for one run of each family (the
 * median then spans genres; electronic and pop, five parts with synth pads, are the slowest to render).
 */
import { generateTrack } from '../src/engine/music/pipeline.js';
import { emptyAudioModel } from '../src/engine/compose/audio-model.js';
import type { AudioQuality, MusicContext } from '../src/engine/types.js';
import { BENCH_LYRICS, FAMILY_CONTEXTS } from './support/mix-fixtures.js';

const durationSec = Number(process.argv[2] ?? 180);
const quality = (process.argv[3] ?? '128kbps') as AudioQuality;
const runs = Number(process.argv[4] ?? 3);
const which = process.argv[5] ?? 'electronic';
const contexts: [string, MusicContext][] =
  which === 'all' ? FAMILY_CONTEXTS : FAMILY_CONTEXTS.filter(([name]) => name === which).flatMap((entry) => Array.from({ length: runs }, () => entry));
if (contexts.length === 0) throw new Error(`unknown context ${which}: one of ${FAMILY_CONTEXTS.map(([n]) => n).join(', ')} or all`);

// Warm-up: SoundFont parse, wasm compile and the pronouncing dictionary happen once per worker, not per track.
await generateTrack({ context: contexts[0][1], seed: 1, maxDurationSec: 4, quality, model: emptyAudioModel(), modelVersion: 'bench', lyrics: BENCH_LYRICS });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

for (const lyrics of [null, BENCH_LYRICS]) {
  const factors: number[] = [];
  console.log(lyrics ? '\nwith vocals' : 'without vocals');
  for (const [index, [name, context]] of contexts.entries()) {
    // The machine is shared: CPU time of this process is the honest "one core" cost; wall time is shown too.
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const track = await generateTrack({
      context,
      seed: 42 + index,
      maxDurationSec: durationSec,
      quality,
      model: emptyAudioModel(),
      modelVersion: 'bench',
      lyrics,
    });
    const totalMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuSec = (cpu.user + cpu.system) / 1e6;
    factors.push(durationSec / cpuSec);
    const { composeMs, renderMs, encodeMs, vocalMs = 0 } = track.timings;
    console.log(
      `  ${name.padEnd(10)} CPU ${cpuSec.toFixed(2)} s -> ${(durationSec / cpuSec).toFixed(1)}x on one core | wall ${(totalMs / 1000).toFixed(2)} s: compose ${composeMs.toFixed(0)} ms, vocal ${vocalMs.toFixed(0)} ms, render+mix+master ${renderMs.toFixed(0)} ms, encode ${encodeMs.toFixed(0)} ms`,
    );
  }
  console.log(`  median ${median(factors).toFixed(1)}x real time (target >= ${lyrics ? 10 : 20}x)`);
}
