/**
 * The produced mix, measured on the decoded MP3 (what airs): integrated loudness (BS.1770), true peak and
 * side energy below mid, per genre family, with and without lyrics, plus the CPU real-time factor.
 *
 *   npx tsx bench/mix-report.ts [durationSec] [seed]
 */
import { emptyAudioModel } from '../src/engine/compose/audio-model.js';
import { generateTrack } from '../src/engine/music/pipeline.js';
import { measureMaster } from './support/master-measure.js';
import { BENCH_LYRICS, FAMILY_CONTEXTS } from './support/mix-fixtures.js';

const durationSec = Number(process.argv[2] ?? 180);
const seed = Number(process.argv[3] ?? 42);
const only = process.argv[4];

console.log(`${durationSec} s masters, seed ${seed}, 128 kbps, measured on the decoded MP3`);
console.log('family      lyrics  LUFS    dBTP   side<mid dB  CPU x real time');
for (const [name, context] of FAMILY_CONTEXTS) {
  if (only && name !== only) continue;
  for (const lyrics of [null, BENCH_LYRICS]) {
    const cpu = process.cpuUsage();
    const track = await generateTrack({
      context,
      seed,
      maxDurationSec: durationSec,
      quality: '128kbps',
      model: emptyAudioModel(),
      modelVersion: 'bench',
      lyrics,
    });
    const used = process.cpuUsage(cpu);
    const measured = await measureMaster(track.mp3!);
    const rtf = durationSec / ((used.user + used.system) / 1e6);
    console.log(
      `${name.padEnd(11)} ${(track.vocals ? 'yes' : 'no').padEnd(6)} ${measured.lufs!.toFixed(2).padStart(6)} ${measured.dbtp!.toFixed(2).padStart(6)} ${measured.sideBelowMidDb.toFixed(1).padStart(8)}     ${rtf.toFixed(1)}x`,
    );
  }
}
