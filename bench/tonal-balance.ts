/**
 * Tonal balance against the genre reference curves (issue 18: "a tonal balance per genre within +-3 dB of
 * a published reference curve").
 *   npx tsx bench/tonal-balance.ts [--seeds 3] [--song-sec 45] [--families pop,rock,...] [--uncorrected] [--no-match]
 *   npx tsx bench/tonal-balance.ts --derive [--seeds 12] [--song-sec 30] > src/engine/mix/genre-eq.ts
 *   npx tsx bench/tonal-balance.ts [--seed-set derive] --uncorrected --dump d.json   (per-song deviations)
 *   npx tsx bench/tonal-balance.ts --derive --from d.json --seeds 18 [--tolerance 1] [--max-bands 9] [--limit-db 10]
 *   npx tsx bench/tonal-balance.ts --from c.json --seeds 12   (the check predicted with the current EQs)
 *
 * For each genre family (bench/support/mix-fixtures.ts), --seeds songs from an untrained model: the first
 * with the family's own orchestration (what the demo catalog airs), the others with instruments, kit and
 * form drawn from the family's pools (what a trained model writes). Each is rendered to the float master
 * (-14 LUFS, the same chain as generateTrack, no vocal), and its long-term spectrum in third octaves
 * 63 Hz-12.5 kHz (src/engine/mix/tonal-balance.ts) is compared with the family's reference curve, both
 * level-normalised. Printed per song: the largest and the RMS deviation over the 24 bands; per family: the
 * deviation of its mean spectrum (the mean over its songs of the level-normalised dB spectra) per band and
 * its largest |value| (issue 18's "tonal balance per genre"; the target is +-3 dB). With --uncorrected the
 * render skips the family's master EQ (the per-bus EQ stays), for a before/after in one code base; with
 * --no-match it keeps the family EQ and the song's colour but skips the per-song match after them
 * (src/engine/mix/tonal-match.ts).
 *
 * --derive renders --seeds songs per family (seeds 5 + 301 k, not the check's 11 + 101 k, so the check is
 * on songs the fit did not see; the first with the family's orchestration, the others from its pools)
 * without the master EQ, fits `correctiveEq` (broad bands only) to each family's mean deviation (to within
 * DERIVE_TOLERANCE_DB)
 * and prints src/engine/mix/genre-eq.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { emptyAudioModel } from '../src/engine/compose/audio-model.js';
import { composeCandidate } from '../src/engine/compose/index.js';
import { genreFamily } from '../src/engine/compose/style.js';
import { SAMPLE_RATE, TARGET_LUFS, renderScore } from '../src/engine/music/render.js';
import { type Band, Biquad } from '../src/engine/mix/biquad.js';
import { BAND_CENTRES, type Balance, balanceAgainst, chainBandEffect, correctiveEq, longTermSpectrum, masterEqBands } from '../src/engine/mix/tonal-balance.js';
import { deadBandOf, matchBands } from '../src/engine/mix/tonal-match.js';
import { FAMILY_CONTEXTS } from './support/mix-fixtures.js';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const derive = args.includes('--derive');
const seeds = Number(arg('seeds', derive ? '12' : '3'));
const songSec = Number(arg('song-sec', derive ? '30' : '45'));
const families = arg('families', FAMILY_CONTEXTS.map(([f]) => f).join(',')).split(',');
const uncorrected = derive || args.includes('--uncorrected');
/** `--no-match`: the family EQ and colour without the per-song match stage (mix/tonal-match.ts). */
const noMatch = args.includes('--no-match');
/** The family mean is fitted this close: well inside the +-3 dB target, so songs the fit did not see land in it too. */
const DERIVE_TOLERANCE_DB = Number(arg('tolerance', '1'));
/** `--max-bands`, `--limit-db`: how many broad bands the fit may use and how deep (correctiveEq's defaults: 9, 10 dB). */
const maxBands = args.includes('--max-bands') ? Number(arg('max-bands', '9')) : undefined;
const limitDb = args.includes('--limit-db') ? Number(arg('limit-db', '10')) : undefined;
/** The fit's seeds (5 + 301 k) or the check's (11 + 101 k); `--seed-set derive` renders the fit's seeds without deriving. */
const deriveSeeds = derive || arg('seed-set', '') === 'derive';
const seedOf = (s: number) => (deriveSeeds ? 5 + 301 * s : 11 + 101 * s);
/** `--dump file.json`: every song's deviation per band, by family and seed, for fitting and checking offline. */
const dumpPath = arg('dump', '');
const dumped: Record<string, Record<number, number[]>> = {};
/**
 * `--from file.json` (a --dump of uncorrected renders): the songs' deviations are read from it instead of
 * rendered, so `--derive --from` fits the EQs in a second.
 */
const fromPath = arg('from', '');
const from = fromPath ? (JSON.parse(readFileSync(fromPath, 'utf8')) as { uncorrected: boolean; deviations: Record<string, Record<number, number[]>> }) : null;
if (from && !from.uncorrected) throw new Error(`${fromPath} holds corrected renders: fit and check from uncorrected ones`);

async function render(familyName: string, seed: number, pooled: boolean): Promise<[Float32Array, Float32Array]> {
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
    tonalMatch: !noMatch,
    onBlock(l: Float32Array, r: Float32Array) {
      left.set(l, at);
      right.set(r, at);
      at += l.length;
    },
  });
  return [left, right];
}

/**
 * A dumped song's deviation; unless --uncorrected or --derive, what the master EQ (genre-eq.ts and the
 * song's colour, then unless --no-match the match stage fitted to the result) makes of it, predicted from
 * the EQ's response averaged over each band (the limiter after it moves a real render by a few tenths of a dB).
 */
function fromDump(family: string, seed: number): number[] {
  const deviation = from!.deviations[family]?.[seed];
  if (!deviation) throw new Error(`${fromPath} lacks ${family} ${seed}: dump as many --seeds of the same --seed-set`);
  if (uncorrected) return deviation;
  const genre = genreFamily(FAMILY_CONTEXTS.find(([name]) => name === family)![1]);
  const effect = (bands: readonly Band[]) =>
    chainBandEffect(
      bands.map((b) => new Biquad(b, SAMPLE_RATE)),
      SAMPLE_RATE,
    );
  const withEq = (d: readonly number[], bands: readonly Band[]) => {
    const e = effect(bands);
    return normalised(d.map((x, i) => x + e[i]));
  };
  // As render.ts runs it: the family's bands and the song's colour, then the match fitted to the result.
  const shaped = withEq(deviation, masterEqBands(genre, seed));
  return noMatch ? shaped : withEq(shaped, matchBands(shaped, SAMPLE_RATE, deadBandOf(genre)));
}

function normalised(levels: number[]): number[] {
  const mean = levels.reduce((a, x) => a + x, 0) / levels.length;
  return levels.map((x) => x - mean);
}

function summary(deviation: number[]): Balance {
  return { deviation, maxDb: Math.max(...deviation.map(Math.abs)), rmsDb: Math.sqrt(deviation.reduce((a, d) => a + d * d, 0) / deviation.length) };
}

const f1 = (x: number) => x.toFixed(1).padStart(5);
// With --derive stdout is the generated module: the progress goes to stderr.
const log = derive ? (line: string) => console.error(line) : (line: string) => console.log(line);
log(
  `tonal balance, ${seeds} songs per family of ${songSec} s, ${uncorrected ? 'without' : 'with'} the family master EQ${uncorrected ? '' : noMatch ? ', without' : ', with'}${uncorrected ? '' : ' the per-song match'}`,
);
const allMax: number[] = [];
const allRms: number[] = [];
const familyMax: number[] = [];
const fitted: Record<string, ReturnType<typeof correctiveEq>> = {};
for (const family of families) {
  const sum = new Array<number>(BAND_CENTRES.length).fill(0);
  const rows: string[] = [];
  const context = FAMILY_CONTEXTS.find(([name]) => name === family)![1];
  for (let s = 0; s < seeds; s++) {
    const seed = seedOf(s);
    const b = from
      ? summary(fromDump(family, seed))
      : balanceAgainst(longTermSpectrum(...(await render(family, seed, s > 0)), SAMPLE_RATE), genreFamily(context));
    b.deviation.forEach((d, i) => (sum[i] += d / seeds));
    (dumped[family] ??= {})[seed] = b.deviation.map((d) => Math.round(d * 100) / 100);
    allMax.push(b.maxDb);
    allRms.push(b.rmsDb);
    const worst = b.deviation.reduce((w, d, i) => (Math.abs(d) > Math.abs(b.deviation[w]) ? i : w), 0);
    rows.push(`seed ${seed}${s > 0 ? ' (pools)' : '        '}: max ${f1(b.maxDb)} dB (at ${BAND_CENTRES[worst]} Hz) rms ${f1(b.rmsDb)} dB`);
  }
  // Level normalisation is linear in dB, so the mean of the songs' deviations is the deviation of their mean spectrum.
  const worst = sum.reduce((w, d, i) => (Math.abs(d) > Math.abs(sum[w]) ? i : w), 0);
  familyMax.push(Math.abs(sum[worst]));
  log(`\n${family}`);
  for (const r of rows) log(`  ${r}`);
  log(
    `  mean spectrum: max ${f1(Math.abs(sum[worst]))} dB (at ${BAND_CENTRES[worst]} Hz); deviation per band (dB): ${BAND_CENTRES.map((hz, i) => `${hz >= 1000 ? `${hz / 1000}k` : hz} ${sum[i].toFixed(1)}`).join(', ')}`,
  );
  if (derive) fitted[family] = correctiveEq(sum, SAMPLE_RATE, DERIVE_TOLERANCE_DB, { broadOnly: true, maxBands, limitDb });
}
const median = (x: number[]) => [...x].sort((a, b) => a - b)[Math.floor(x.length / 2)];
log(
  `\nfamily means: worst band ${Math.max(...familyMax).toFixed(1)} dB; families within +-3 dB: ${familyMax.filter((m) => m <= 3).length}/${familyMax.length}` +
    `\nall ${allMax.length} songs: max deviation median ${median(allMax).toFixed(1)} dB, worst ${Math.max(...allMax).toFixed(1)} dB; ` +
    `rms median ${median(allRms).toFixed(1)} dB, worst ${Math.max(...allRms).toFixed(1)} dB; within +-3 dB: ${allMax.filter((m) => m <= 3).length}/${allMax.length}`,
);
if (dumpPath) writeFileSync(dumpPath, JSON.stringify({ uncorrected, songSec, deviations: dumped }));
if (derive) {
  const header = readFileSync(new URL('../src/engine/mix/genre-eq.ts', import.meta.url), 'utf8').split('export const GENRE_EQ')[0];
  const band = (b: Band) => `{ type: '${b.type}', hz: ${b.hz}${b.q !== undefined ? `, q: ${b.q}` : ''}, db: ${b.db} }`;
  const body = FAMILY_CONTEXTS.map(([name]) => `  ${name}: [${(fitted[name] ?? []).map(band).join(', ')}],`).join('\n');
  process.stdout.write(`${header}export const GENRE_EQ: Record<GenreFamily, readonly Band[]> = {\n${body}\n};\n`);
}
