/**
 * Tonal balance against the genre reference curves (issue 18: "a tonal balance per genre within +-3 dB of
 * a published reference curve").
 *   npx tsx bench/tonal-balance.ts [--seeds 3] [--song-sec 45] [--families pop,rock,...] [--uncorrected]
 *
 * For each genre family (bench/support/mix-fixtures.ts), --seeds songs from an untrained model: the first
 * with the family's own orchestration (what the demo catalog airs), the others with instruments, kit and
 * form drawn from the family's pools (what a trained model writes). Each is rendered to the float master
 * (-14 LUFS, the same chain as generateTrack, no vocal), and its long-term spectrum in third octaves
 * 63 Hz-12.5 kHz (src/engine/mix/tonal-balance.ts) is compared with the family's reference curve, both
 * level-normalised. Printed per song: the largest and the RMS deviation over the 24 bands; per family: the
 * mean deviation per band (where the family sits high or low). With --uncorrected the render skips the
 * master's corrective EQ (the per-bus EQ stays), for a before/after in one code base.
 */
import { emptyAudioModel } from '../src/engine/compose/audio-model.js';
import { composeCandidate } from '../src/engine/compose/index.js';
import { genreFamily } from '../src/engine/compose/style.js';
import { SAMPLE_RATE, TARGET_LUFS, renderScore } from '../src/engine/music/render.js';
import { BAND_CENTRES, balanceAgainst, longTermSpectrum } from '../src/engine/mix/tonal-balance.js';
import { FAMILY_CONTEXTS } from './support/mix-fixtures.js';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const seeds = Number(arg('seeds', '3'));
const songSec = Number(arg('song-sec', '45'));
const families = arg('families', FAMILY_CONTEXTS.map(([f]) => f).join(',')).split(',');
const uncorrected = args.includes('--uncorrected');

async function render(familyName: string, seed: number, pooled: boolean): Promise<{ left: Float32Array; right: Float32Array }> {
  const context = FAMILY_CONTEXTS.find(([name]) => name === familyName)![1];
  const score = composeCandidate({ context, seed, maxDurationSec: songSec, model: emptyAudioModel() }, 0, pooled);
  const left = new Float32Array(Math.round(songSec * SAMPLE_RATE));
  const right = new Float32Array(left.length);
  let at = 0;
  await renderScore(score, {
    durationSec: songSec,
    family: genreFamily(context),
    seed,
    targetLufs: TARGET_LUFS,
    vocal: null,
    tonalCorrection: !uncorrected,
    onBlock(l: Float32Array, r: Float32Array) {
      left.set(l, at);
      right.set(r, at);
      at += l.length;
    },
  });
  return { left, right };
}

const f1 = (x: number) => x.toFixed(1).padStart(5);
console.log(`tonal balance, ${seeds} songs per family of ${songSec} s, ${uncorrected ? 'without' : 'with'} the corrective master EQ`);
const allMax: number[] = [];
const allRms: number[] = [];
for (const family of families) {
  const sum = new Array<number>(BAND_CENTRES.length).fill(0);
  const rows: string[] = [];
  for (let s = 0; s < seeds; s++) {
    const seed = 11 + 101 * s;
    const { left, right } = await render(family, seed, s > 0);
    const context = FAMILY_CONTEXTS.find(([name]) => name === family)![1];
    const b = balanceAgainst(longTermSpectrum(left, right, SAMPLE_RATE), genreFamily(context));
    b.deviation.forEach((d, i) => (sum[i] += d / seeds));
    allMax.push(b.maxDb);
    allRms.push(b.rmsDb);
    const worst = b.deviation.reduce((w, d, i) => (Math.abs(d) > Math.abs(b.deviation[w]) ? i : w), 0);
    rows.push(`seed ${seed}${s > 0 ? ' (pools)' : '        '}: max ${f1(b.maxDb)} dB (at ${BAND_CENTRES[worst]} Hz) rms ${f1(b.rmsDb)} dB`);
  }
  console.log(`\n${family}`);
  for (const r of rows) console.log(`  ${r}`);
  console.log(`  mean deviation per band (dB): ${BAND_CENTRES.map((hz, i) => `${hz >= 1000 ? `${hz / 1000}k` : hz} ${sum[i].toFixed(1)}`).join(', ')}`);
}
const median = (x: number[]) => [...x].sort((a, b) => a - b)[Math.floor(x.length / 2)];
console.log(
  `\nall ${allMax.length} songs: max deviation median ${median(allMax).toFixed(1)} dB, worst ${Math.max(...allMax).toFixed(1)} dB; ` +
    `rms median ${median(allRms).toFixed(1)} dB, worst ${Math.max(...allRms).toFixed(1)} dB; within +-3 dB: ${allMax.filter((m) => m <= 3).length}/${allMax.length}`,
);
