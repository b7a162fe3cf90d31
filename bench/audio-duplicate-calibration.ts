/**
 * Calibration of the audio near-duplicate check (src/engine/safety/audio-duplicate.ts).
 *   npm run bench -- audio-duplicate-calibration [--track-sec 30] [--generations 12] [--features-out file.json]
 *
 * Renders every demo catalog master as the demo seed does (src/demo/seed-audio.ts: untrained model, the
 * track's own metadata, seed from the slug, 128 kbps), extracts its features from the MP3, and measures
 * featureDistance / similarity / audio safety score for:
 *   (a) distinct catalog masters: every pair, same-genre pairs separately (these must pass);
 *   (b) true copies of a master: re-encoded at 192 and 320 kbps, gain -1 dB and +1 dB, first second trimmed,
 *       re-rendered from the same seed (these must fail);
 *   (c) AI generations of a model trained on the catalog (default hyperparameters, the first station
 *       context, lo-fi) against their nearest catalog master.
 */
import { writeFileSync } from 'node:fs';
import { demoTracks } from '../src/demo/content/tracks.js';
import { demoMasterRequest } from '../src/demo/seed-audio.js';
import { decodeAudio } from '../src/engine/features/decode.js';
import { extractFeatures, extractFeaturesFromFile } from '../src/engine/features/extract.js';
import { emptyAudioModel } from '../src/engine/compose/audio-model.js';
import { trainAudioModel } from '../src/engine/music/audio-model-training.js';
import { generateTrack } from '../src/engine/music/pipeline.js';
import { transcodeMp3 } from '../src/engine/music/transcode.js';
import { featureDistance, sequenceAgreement, similarityFromDistance } from '../src/engine/safety/audio-duplicate.js';
import { SAFETY_PLAYBACK_THRESHOLD, scoreAudio } from '../src/engine/safety/score.js';
import type { AudioFeatures, MusicContext } from '../src/engine/types.js';
import { DEFAULT_HYPERPARAMS } from '../src/station/models/default-hyperparams.js';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const trackSec = Number(arg('track-sec', '30'));
const generations = Number(arg('generations', '12'));
const featuresOut = arg('features-out', '');

async function renderMaster(track: (typeof demoTracks)[number], quality: '128kbps' | '192kbps' = '128kbps'): Promise<Buffer> {
  const result = await generateTrack({
    ...demoMasterRequest(track),
    maxDurationSec: trackSec,
    quality,
    model: emptyAudioModel(),
    modelVersion: 'untrained',
  });
  return result.mp3!;
}

interface Stat {
  n: number;
  min: number;
  p05: number;
  median: number;
  max: number;
}
function stats(values: number[]): Stat {
  const s = [...values].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.round(p * (s.length - 1))))];
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return { n: s.length, min: r(s[0]), p05: r(q(0.05)), median: r(q(0.5)), max: r(s[s.length - 1]) };
}
/** One comparison: summary-feature distance and chord-sequence agreement. */
interface Pair {
  d: number;
  agreement: number;
}
const compare = (a: AudioFeatures, b: AudioFeatures): Pair => ({ d: featureDistance(a, b), agreement: sequenceAgreement(a.beatChords, b.beatChords) });
const scoreOf = (similarity: number) => scoreAudio({ similarity, nearestId: null, distance: 0 }).safety_score;
const soundOnly = (p: Pair) => similarityFromDistance(p.d);
const combined = (p: Pair) => similarityFromDistance(p.d) * p.agreement;
const flagged = (scores: number[]) => `flagged ${scores.filter((x) => x < SAFETY_PLAYBACK_THRESHOLD).length}/${scores.length}`;
const report = (label: string, pairs: Pair[]) => {
  const old = pairs.map((p) => scoreOf(soundOnly(p)));
  const now = pairs.map((p) => scoreOf(combined(p)));
  const pad = ''.padEnd(36);
  console.log(`${label.padEnd(36)}distance           ${JSON.stringify(stats(pairs.map((p) => p.d)))}`);
  console.log(`${pad}chord agreement    ${JSON.stringify(stats(pairs.map((p) => p.agreement)))}`);
  console.log(`${pad}score, sound only  ${JSON.stringify(stats(old))}  ${flagged(old)}`);
  console.log(`${pad}score, sound×chords${JSON.stringify(stats(now))}  ${flagged(now)}`);
};
/** Nearest catalog item by each rule (the index keeps the most similar one). */
const nearestPair = (f: AudioFeatures, catalog: { features: AudioFeatures }[], rule: (p: Pair) => number): Pair =>
  catalog.map((c) => compare(f, c.features)).reduce((best, p) => (rule(p) > rule(best) ? p : best));

async function main(): Promise<void> {
  const started = performance.now();
  const catalog: { slug: string; genre: string; features: AudioFeatures; mp3: Buffer }[] = [];
  for (const track of demoTracks) {
    const mp3 = await renderMaster(track);
    catalog.push({ slug: track.slug, genre: track.genre, features: await extractFeaturesFromFile(mp3, 'mp3'), mp3 });
  }
  console.log(`rendered ${catalog.length} masters of ${trackSec} s in ${Math.round((performance.now() - started) / 1000)} s`);

  // (a) distinct masters.
  const same: Pair[] = [];
  const other: Pair[] = [];
  for (let i = 0; i < catalog.length; i++)
    for (let j = i + 1; j < catalog.length; j++) (catalog[i].genre === catalog[j].genre ? same : other).push(compare(catalog[i].features, catalog[j].features));

  // (b) true copies: a few masters per genre.
  const copies: Record<string, Pair[]> = { '192kbps': [], '320kbps': [], 'gain -1 dB': [], 'gain +1 dB': [], 'trim 1 s': [], 'same seed, 192 kbps render': [] };
  const copyFeatures: { slug: string; kind: string; features: AudioFeatures }[] = [];
  const picked = catalog.filter((_, i) => i % 3 === 0);
  for (const c of picked) {
    const track = demoTracks.find((t) => t.slug === c.slug)!;
    const { pcm, sampleRate } = await decodeAudio(c.mp3, 'mp3');
    const variants: [string, AudioFeatures][] = [
      ['192kbps', await extractFeaturesFromFile(await transcodeMp3(c.mp3, '192kbps'), 'mp3')],
      ['320kbps', await extractFeaturesFromFile(await transcodeMp3(c.mp3, '320kbps'), 'mp3')],
      [
        'gain -1 dB',
        extractFeatures(
          pcm.map((x) => x * 10 ** (-1 / 20)),
          sampleRate,
        ),
      ],
      [
        'gain +1 dB',
        extractFeatures(
          pcm.map((x) => Math.max(-1, Math.min(1, x * 10 ** (1 / 20)))),
          sampleRate,
        ),
      ],
      ['trim 1 s', extractFeatures(pcm.subarray(sampleRate), sampleRate)],
      ['same seed, 192 kbps render', await extractFeaturesFromFile(await renderMaster(track, '192kbps'), 'mp3')],
    ];
    for (const [kind, f] of variants) {
      copies[kind].push(compare(f, c.features));
      copyFeatures.push({ slug: c.slug, kind, features: f });
    }
  }

  // (c) AI generations of a model trained on the catalog, first station context.
  const trained = await trainAudioModel(
    catalog.map((c) => ({ genre: c.genre, mood: demoTracks.find((t) => t.slug === c.slug)!.mood, features: c.features })),
    DEFAULT_HYPERPARAMS.audio,
    { seed: 1 },
  );
  const context: MusicContext = {
    genre: 'lo-fi hip hop',
    subgenre: 'chillhop',
    mood: ['calm', 'nostalgic'],
    lifestyle: 'focus',
    tempo_range: [70, 90],
    key_preference: 'any',
    energy_level: 0.4,
  };
  const aiOld: Pair[] = [];
  const aiNew: Pair[] = [];
  const aiFeatures: { seed: number; features: AudioFeatures }[] = [];
  for (let g = 0; g < generations; g++) {
    const seed = 1000 + g;
    const track = await generateTrack({ context, seed, maxDurationSec: trackSec, quality: '128kbps', model: trained.model, modelVersion: 'calibration' });
    const f = await extractFeaturesFromFile(track.mp3!, 'mp3');
    aiOld.push(nearestPair(f, catalog, soundOnly));
    aiNew.push(nearestPair(f, catalog, combined));
    aiFeatures.push({ seed, features: f });
  }

  console.log(
    `\nsound only: similarity = 1/(1+(d/2)^2); sound×chords: that × chord agreement; score = 1 - similarity^2, playback needs >= ${SAFETY_PLAYBACK_THRESHOLD}`,
  );
  report('(a) distinct masters, same genre', same);
  report('(a) distinct masters, other genre', other);
  for (const [kind, d] of Object.entries(copies)) report(`(b) copy: ${kind}`, d);
  report('(b) all copies', Object.values(copies).flat());
  report('(c) AI generation vs nearest (old)', aiOld);
  report('(c) AI generation vs nearest (new)', aiNew);
  console.log(`total ${Math.round((performance.now() - started) / 1000)} s`);

  if (featuresOut)
    writeFileSync(
      featuresOut,
      JSON.stringify({ trackSec, catalog: catalog.map(({ slug, genre, features }) => ({ slug, genre, features })), copies: copyFeatures, ai: aiFeatures }),
    );
}

await main();
