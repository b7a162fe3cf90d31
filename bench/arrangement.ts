/**
 * Arrangements that move (issue 18): section contrast, loop repetition and out-of-key chords, per genre.
 *   npx tsx bench/arrangement.ts [--song-sec 120] [--catalog-sec 20] [--seeds 2] [--families lofi,electronic,pop,jazz,rock]
 *
 * The audio model is trained on the demo catalog rendered at --catalog-sec (chords as the feature extractor
 * hears them, so the model carries the chord-detection noise a real catalog teaches). Per family and seed a
 * song of --song-sec is composed and rendered (mastered float, no encoder) and measured:
 *   - section contrast: RMS level (dB) of every bar, averaged by section; reported as chorus - verse,
 *     first chorus - first verse, bridge - chorus, and the largest bar-to-bar rise in the first four bars
 *     (the intro's jump);
 *   - loop repetition: share of bars whose 4-bar chord window (chordsPerBar) already appeared earlier;
 *   - out-of-key share: bars whose chord is not a diatonic triad of the key (the major V counts as in key in
 *     minor: harmonic minor), and the number of distinct chords;
 *   - render speed: real-time factor of compose + render (CPU time, one thread).
 */
import { demoTracks } from '../src/demo/content/tracks.js';
import { demoMasterRequest } from '../src/demo/seed-audio.js';
import { extractFeaturesFromFile } from '../src/engine/features/extract.js';
import { emptyAudioModel } from '../src/engine/compose/audio-model.js';
import { trainAudioModel } from '../src/engine/music/audio-model-training.js';
import { composeScore } from '../src/engine/compose/index.js';
import type { Score } from '../src/engine/compose/score.js';
import { genreFamily } from '../src/engine/compose/style.js';
import { songLengthSec } from '../src/engine/compose/structure.js';
import { generateTrack } from '../src/engine/music/pipeline.js';
import { SAMPLE_RATE, TARGET_LUFS, renderScore } from '../src/engine/music/render.js';
import type { MusicContext } from '../src/engine/types.js';
import { DEFAULT_HYPERPARAMS } from '../src/station/models/default-hyperparams.js';
import { FAMILY_CONTEXTS } from './support/mix-fixtures.js';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const songSec = Number(arg('song-sec', '120'));
const catalogSec = Number(arg('catalog-sec', '20'));
const seeds = Number(arg('seeds', '2'));
const families = arg('families', 'lofi,electronic,pop,jazz,rock').split(',');

const NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];
const FLATS: Record<string, string> = { Db: 'C#', Eb: 'D#', Gb: 'F#', Ab: 'G#', Bb: 'A#' };
const pc = (name: string) => NAMES.indexOf(FLATS[name] ?? name);

/** Diatonic triads of a key as "root:minor" strings (the diminished one left out, as the composer does). */
function diatonic(tonic: string, mode: 'major' | 'minor'): Set<string> {
  const steps = mode === 'major' ? [0, 2, 4, 5, 7, 9, 11] : [0, 2, 3, 5, 7, 8, 10];
  const set = new Set<string>();
  steps.forEach((degree, i) => {
    const third = (steps[(i + 2) % 7] - degree + 12) % 12;
    set.add(`${(pc(tonic) + degree) % 12}:${third === 3}`);
  });
  if (mode === 'minor') set.add(`${(pc(tonic) + 7) % 12}:false`); // harmonic minor's V
  return set;
}

function chordKey(symbol: string): string {
  const m = /^([A-G][#b]?)(m(?!aj))?/.exec(symbol)!;
  return `${pc(m[1])}:${m[2] !== undefined}`;
}

export function symbolicFigures(score: Score) {
  const bars = score.chordsPerBar;
  const inKey = diatonic(score.key, score.mode);
  const outOfKey = bars.filter((c) => !inKey.has(chordKey(c))).length / bars.length;
  const seen = new Set<string>();
  let repeated = 0;
  let windows = 0;
  for (let i = 0; i + 4 <= bars.length; i++) {
    const w = bars
      .slice(i, i + 4)
      .map(chordKey)
      .join(' ');
    windows++;
    if (seen.has(w)) repeated++;
    seen.add(w);
  }
  return { outOfKey, loopRepetition: windows ? repeated / windows : 0, distinct: new Set(bars.map(chordKey)).size };
}

async function barLevels(score: Score, context: MusicContext, seed: number): Promise<{ db: number[]; cpuSec: number }> {
  const cpu0 = process.cpuUsage();
  const mono: Float32Array[] = [];
  await renderScore(score, {
    durationSec: songLengthSec(songSec, seed),
    family: genreFamily(context),
    seed,
    targetLufs: TARGET_LUFS,
    vocal: null,
    onBlock(left: Float32Array, right: Float32Array) {
      const m = new Float32Array(left.length);
      for (let i = 0; i < m.length; i++) m[i] = (left[i] + right[i]) / 2;
      mono.push(m);
    },
  });
  const used = process.cpuUsage(cpu0);
  const pcm = new Float32Array(mono.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const c of mono) pcm.set(c, (offset += c.length) - c.length);
  const barSamples = Math.round(((4 * 60) / score.bpm) * SAMPLE_RATE);
  const db: number[] = [];
  for (let bar = 0; bar * 4 < score.totalBeats; bar++) {
    let sum = 0;
    const start = bar * barSamples;
    const end = Math.min(pcm.length, start + barSamples);
    for (let i = start; i < end; i++) sum += pcm[i] * pcm[i];
    db.push(10 * Math.log10(sum / Math.max(1, end - start) + 1e-12));
  }
  return { db, cpuSec: (used.user + used.system) / 1e6 };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');

async function main(): Promise<void> {
  const started = performance.now();
  const catalog = [];
  for (const track of demoTracks) {
    const r = await generateTrack({
      ...demoMasterRequest(track),
      maxDurationSec: catalogSec,
      quality: '128kbps',
      model: emptyAudioModel(),
      modelVersion: 'untrained',
    });
    catalog.push({ genre: track.genre, mood: track.mood, features: await extractFeaturesFromFile(r.mp3!, 'mp3') });
  }
  const { model } = await trainAudioModel(catalog, DEFAULT_HYPERPARAMS.audio, { seed: 1 });
  console.log(`model trained on ${catalog.length} demo masters of ${catalogSec} s (${Math.round((performance.now() - started) / 1000)} s)`);
  console.log('family      seed  bars key     chorus-verse  1st chorus-1st verse  bridge-chorus  intro max rise  loop rep  out-of-key  distinct  RTF');
  for (const family of families) {
    const context = FAMILY_CONTEXTS.find(([name]) => name === family)?.[1];
    if (!context) throw new Error(`unknown family ${family}`);
    for (let s = 0; s < seeds; s++) {
      const seed = 42 + 1000 * s;
      const cpu0 = process.cpuUsage();
      const score = composeScore({ context, seed, maxDurationSec: songSec, model });
      const composeCpu = process.cpuUsage(cpu0);
      const { db, cpuSec } = await barLevels(score, context, seed);
      const bySection = (name: string) => score.sections.filter((x) => x.name === name).map((x) => mean(db.slice(x.startBar, x.startBar + x.bars)));
      const verses = bySection('verse');
      const choruses = bySection('chorus');
      const bridge = bySection('bridge');
      let introRise = 0;
      for (let b = 1; b < Math.min(5, db.length); b++) introRise = Math.max(introRise, db[b] - db[b - 1]);
      const sym = symbolicFigures(score);
      const rtf = songLengthSec(songSec, seed) / (cpuSec + (composeCpu.user + composeCpu.system) / 1e6);
      console.log(
        `${family.padEnd(11)} ${String(seed).padEnd(5)} ${String(db.length).padEnd(4)} ${`${score.key} ${score.mode}`.padEnd(7)} ${f1(mean(choruses) - mean(verses)).padStart(12)}  ${f1(choruses[0] - verses[0]).padStart(20)}  ${f1(mean(bridge) - mean(choruses)).padStart(13)}  ${f1(introRise).padStart(14)}  ${sym.loopRepetition.toFixed(2).padStart(8)}  ${sym.outOfKey.toFixed(2).padStart(10)}  ${String(sym.distinct).padStart(8)}  ${rtf.toFixed(1)}x`,
      );
    }
  }
  console.log(`total ${Math.round((performance.now() - started) / 1000)} s`);
}

await main();
