/**
 * Timbre spread within a genre (issue 18: AI lo-fi tracks were 1.8-2.1 dB apart in a 24-band
 * level-normalised spectrum, reference recordings 6-13 dB; target median >= 4 dB).
 *   npx tsx bench/timbre.ts [--songs 5] [--song-sec 30] [--family lofi] [--after-only] [--dump spectra.json] [--no-match]
 *
 * A model trained on the demo catalog (8 s masters, fast), then --songs songs of one family rendered twice:
 * with the family's one orchestration and form (the composer before per-song pools, candidate 0) and as the
 * composer now writes them for a trained model (pools, forms, novelty candidates). Each render's long-term
 * spectrum: 24 log-spaced bands 60 Hz-15 kHz (RBJ band-pass, Q 4.3, about a third of an octave), mean
 * power per band in dB, minus the mean over bands (level-normalised). Distance of two tracks: RMS over bands
 * of the difference (dB). Reported: median and range over all pairs, before and after. `--no-match` renders
 * without the master's per-song match stage (src/engine/mix/tonal-match.ts), for a before/after in one code base.
 */
import { writeFileSync } from 'node:fs';
import { demoTracks } from '../src/demo/content/tracks.js';
import { demoMasterRequest } from '../src/demo/seed-audio.js';
import { extractFeaturesFromFile } from '../src/engine/features/extract.js';
import { emptyAudioModel, type AudioModel } from '../src/engine/compose/audio-model.js';
import { trainAudioModel } from '../src/engine/music/audio-model-training.js';
import { composeCandidate, composeScore } from '../src/engine/compose/index.js';
import type { Score } from '../src/engine/compose/score.js';
import { genreFamily } from '../src/engine/compose/style.js';
import { generateTrack } from '../src/engine/music/pipeline.js';
import { SAMPLE_RATE, TARGET_LUFS, renderScore } from '../src/engine/music/render.js';
import { DEFAULT_HYPERPARAMS } from '../src/station/models/default-hyperparams.js';
import { FAMILY_CONTEXTS } from './support/mix-fixtures.js';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const songs = Number(arg('songs', '5'));
const songSec = Number(arg('song-sec', '30'));
const family = arg('family', 'lofi');
/** Skip the "before" renders (one orchestration per family): half the time, for iterating on the mix. */
const afterOnly = args.includes('--after-only');
/** `--dump file.json`: the pooled songs' level-normalised spectra (dB per band, by seed), to see where songs differ. */
const dumpPath = arg('dump', '');
const noMatch = args.includes('--no-match');
const context = FAMILY_CONTEXTS.find(([name]) => name === family)?.[1];
if (!context) throw new Error(`unknown family ${family}`);

const BANDS = 24;
const centres = Array.from({ length: BANDS }, (_, i) => 60 * (15000 / 60) ** (i / (BANDS - 1)));

/** Long-term level per band (dB), level-normalised. */
function spectrum(pcm: Float32Array): number[] {
  const levels = centres.map((hz) => {
    // RBJ band-pass (constant 0 dB peak gain).
    const w = (2 * Math.PI * hz) / SAMPLE_RATE;
    const alpha = Math.sin(w) / (2 * 4.3);
    const a0 = 1 + alpha;
    const [b0, b2, a1, a2] = [alpha / a0, -alpha / a0, (-2 * Math.cos(w)) / a0, (1 - alpha) / a0];
    let x1 = 0,
      x2 = 0,
      y1 = 0,
      y2 = 0,
      sum = 0;
    for (let i = 0; i < pcm.length; i++) {
      const x = pcm[i];
      const y = b0 * x + b2 * x2 - a1 * y1 - a2 * y2;
      x2 = x1;
      x1 = x;
      y2 = y1;
      y1 = y;
      sum += y * y;
    }
    return 10 * Math.log10(sum / pcm.length + 1e-20);
  });
  const mean = levels.reduce((a, b) => a + b, 0) / BANDS;
  return levels.map((l) => l - mean);
}

async function render(score: Score, seed: number): Promise<Float32Array> {
  const chunks: Float32Array[] = [];
  await renderScore(score, {
    durationSec: songSec,
    family: genreFamily(context!),
    seed,
    targetLufs: TARGET_LUFS,
    vocal: null,
    tonalMatch: !noMatch,
    onBlock(left: Float32Array, right: Float32Array) {
      const m = new Float32Array(left.length);
      for (let i = 0; i < m.length; i++) m[i] = (left[i] + right[i]) / 2;
      chunks.push(m);
    },
  });
  const pcm = new Float32Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const c of chunks) {
    pcm.set(c, offset);
    offset += c.length;
  }
  return pcm;
}

function pairwise(spectra: number[][]): { median: number; min: number; max: number } {
  const d: number[] = [];
  for (let i = 0; i < spectra.length; i++)
    for (let j = i + 1; j < spectra.length; j++) d.push(Math.sqrt(spectra[i].reduce((s, x, k) => s + (x - spectra[j][k]) ** 2, 0) / BANDS));
  d.sort((a, b) => a - b);
  return { median: d[Math.floor(d.length / 2)], min: d[0], max: d[d.length - 1] };
}

async function main(): Promise<void> {
  const catalog = [];
  for (const track of demoTracks) {
    const r = await generateTrack({ ...demoMasterRequest(track), maxDurationSec: 8, quality: '128kbps', model: emptyAudioModel(), modelVersion: 'untrained' });
    catalog.push({ genre: track.genre, mood: track.mood, features: await extractFeaturesFromFile(r.mp3!, 'mp3') });
  }
  const { model } = await trainAudioModel(catalog, DEFAULT_HYPERPARAMS.audio, { seed: 1 });
  const before: number[][] = [];
  const after: number[][] = [];
  for (let s = 0; s < songs; s++) {
    const seed = 100 + 37 * s;
    const req = { context: context!, seed, maxDurationSec: songSec, model: model as AudioModel };
    if (!afterOnly) before.push(spectrum(await render(composeCandidate(req, 0, false), seed)));
    after.push(spectrum(await render(composeScore(req), seed)));
  }
  if (dumpPath) writeFileSync(dumpPath, JSON.stringify({ family, centres, seeds: after.map((_, s) => 100 + 37 * s), after }));
  const f = (x: { median: number; min: number; max: number }) => `median ${x.median.toFixed(1)} dB (range ${x.min.toFixed(1)}-${x.max.toFixed(1)})`;
  console.log(`${family}, ${songs} songs of ${songSec} s, pairwise 24-band level-normalised spectrum distance`);
  if (!afterOnly) console.log(`  one orchestration per family (before): ${f(pairwise(before))}`);
  console.log(`  per-song pools, forms, novelty (after): ${f(pairwise(after))}`);
}

await main();
