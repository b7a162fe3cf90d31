/**
 * Originality on a small catalog (issue 18): how many AI generations pass the audio near-duplicate filter
 * when the model learned from a handful of short tracks, and whether true copies of the catalog still fail.
 *   npx tsx bench/originality.ts [--track-sec 8] [--gen-sec 10] [--generations 20] [--attempts 4] [--seed 4242] [--contexts lofi|all]
 *
 * As a fresh demo start with STATION_DEMO_TRACK_SEC=8 does it:
 *   1. every demo catalog master rendered at --track-sec (untrained model, the track's own metadata, 128 kbps,
 *      src/demo/seed-audio.ts), features extracted from the MP3;
 *   2. the audio model trained on those features (default hyperparameters), each with its master's symbols
 *      (the score the demo seed composed it from: lead melody and chord n-grams, sections; compose/novelty.ts);
 *   3. --generations generations of --gen-sec (the demo's max_track_length_sec is max(10, track-sec)), seeds
 *      --seed + 7919·i, each checked by the station's safety filter against the catalog. The first attempt
 *      alone, then with the seeded retry (src/engine/music/originality.ts) up to --attempts attempts;
 *   4. the calibration's near-duplicate copies (re-encoded 192/320 kbps, gain ±1 dB, first second trimmed,
 *      re-rendered from the same seed) of every fifth master: every one must be flagged.
 *   5. harder disguises of every master (bench/support/copy-transforms.ts: transposed, tempo changed, re-EQ'd,
 *      an excerpt, under noise or other music), reported per kind with the audio check's CPU time; not part of
 *      the target.
 *   Each first attempt's score is also checked note for note against the masters' symbols (symbolic copies).
 * Exits 1 when fewer than 95% of generations pass, a first attempt is a symbolic copy, or any copy passes.
 */
import { demoTracks } from '../src/demo/content/tracks.js';
import { demoMasterRequest } from '../src/demo/seed-audio.js';
import { decodeAudio } from '../src/engine/features/decode.js';
import { extractFeatures, extractFeaturesFromFile } from '../src/engine/features/extract.js';
import { emptyAudioModel, type SymbolicFingerprint } from '../src/engine/compose/audio-model.js';
import { composeScore } from '../src/engine/compose/index.js';
import { symbolicCopy, symbolicFingerprint } from '../src/engine/compose/novelty.js';
import { trainAudioModel } from '../src/engine/music/audio-model-training.js';
import { MAX_ORIGINALITY_ATTEMPTS, attemptSeed } from '../src/engine/music/originality.js';
import { generateTrack } from '../src/engine/music/pipeline.js';
import { transcodeMp3 } from '../src/engine/music/transcode.js';
import { copyTransforms } from './support/copy-transforms.js';
import { SafetyFilter } from '../src/engine/safety/index.js';
import type { AudioFeatures, MusicContext } from '../src/engine/types.js';
import { DEFAULT_HYPERPARAMS } from '../src/station/models/default-hyperparams.js';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const trackSec = Number(arg('track-sec', '8'));
const genSec = Number(arg('gen-sec', String(Math.max(10, trackSec))));
const generations = Number(arg('generations', '20'));
const maxAttempts = Number(arg('attempts', String(MAX_ORIGINALITY_ATTEMPTS)));
const baseSeed = Number(arg('seed', '4242'));
const contextsArg = arg('contexts', 'lofi');

const LOFI: MusicContext = {
  genre: 'lo-fi hip hop',
  subgenre: 'chillhop',
  mood: ['calm', 'nostalgic'],
  lifestyle: 'focus',
  tempo_range: [70, 90],
  key_preference: 'any',
  energy_level: 0.4,
};
const OTHERS: MusicContext[] = [
  {
    genre: 'synthwave',
    subgenre: 'retrowave',
    mood: ['nostalgic', 'energetic'],
    lifestyle: 'party',
    tempo_range: [95, 118],
    key_preference: 'minor',
    energy_level: 0.7,
  },
  {
    genre: 'pop',
    subgenre: 'indie pop',
    mood: ['happy', 'energetic'],
    lifestyle: 'chill',
    tempo_range: [100, 124],
    key_preference: 'major',
    energy_level: 0.65,
  },
  { genre: 'jazz', subgenre: 'cool jazz', mood: ['calm'], lifestyle: 'focus', tempo_range: [80, 120], key_preference: 'any', energy_level: 0.4 },
  { genre: 'ambient', subgenre: 'drone', mood: ['calm', 'dreamy'], lifestyle: 'sleep', tempo_range: [60, 80], key_preference: 'any', energy_level: 0.2 },
];
const contextFor = (i: number): MusicContext => (contextsArg === 'all' ? [LOFI, ...OTHERS][i % (OTHERS.length + 1)] : LOFI);

async function renderMaster(track: (typeof demoTracks)[number], quality: '128kbps' | '192kbps' = '128kbps'): Promise<Buffer> {
  const result = await generateTrack({ ...demoMasterRequest(track), maxDurationSec: trackSec, quality, model: emptyAudioModel(), modelVersion: 'untrained' });
  return result.mp3!;
}

const cpuSec = () => process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6;

async function main(): Promise<void> {
  const started = performance.now();
  const catalog: { slug: string; genre: string; mood: string[]; features: AudioFeatures; mp3: Buffer; symbols: SymbolicFingerprint }[] = [];
  for (const track of demoTracks) {
    const mp3 = await renderMaster(track);
    // The score the master was rendered from (the untrained composer's first candidate, as generateTrack drew it).
    const symbols = symbolicFingerprint(composeScore({ ...demoMasterRequest(track), maxDurationSec: trackSec, model: emptyAudioModel() }));
    catalog.push({ slug: track.slug, genre: track.genre, mood: track.mood, features: await extractFeaturesFromFile(mp3, 'mp3'), mp3, symbols });
  }
  console.log(`catalog: ${catalog.length} masters of ${trackSec} s rendered in ${Math.round((performance.now() - started) / 1000)} s`);
  const { model } = await trainAudioModel(
    catalog.map((c) => ({ genre: c.genre, mood: c.mood, features: c.features, symbols: c.symbols })),
    DEFAULT_HYPERPARAMS.audio,
    { seed: 1 },
  );
  const filter = new SafetyFilter({ catalogAudio: catalog.map((c) => ({ id: c.slug, features: c.features })) });

  // Generations: first attempt, then the seeded retry.
  let firstPass = 0;
  let symbolicCopies = 0;
  let retryPass = 0;
  let attemptsUsed = 0;
  let renderCpu = 0;
  const firstScores: number[] = [];
  for (let g = 0; g < generations; g++) {
    const seed = baseSeed + 7919 * g;
    const context = contextFor(g);
    let passed = false;
    for (let attempt = 0; attempt < maxAttempts && !passed; attempt++) {
      const cpu = cpuSec();
      const track = await generateTrack({
        context,
        seed: attemptSeed(seed, attempt),
        maxDurationSec: genSec,
        quality: '128kbps',
        model,
        modelVersion: 'bench',
      });
      renderCpu += cpuSec() - cpu;
      attemptsUsed++;
      const verdict = filter.checkAudio(await extractFeaturesFromFile(track.mp3!, 'mp3'));
      passed = verdict.playable;
      if (attempt === 0) {
        const score = composeScore({ context, seed: attemptSeed(seed, attempt), maxDurationSec: genSec, model });
        if (symbolicCopy(symbolicFingerprint(score), model.references ?? []).copy) symbolicCopies++;
        firstScores.push(verdict.safety_score);
        if (passed) firstPass++;
      }
      console.log(
        `  seed ${seed} attempt ${attempt} ${context.genre.padEnd(14)} score ${verdict.safety_score.toFixed(3)} nearest ${verdict.details.nearestId} agreement ${(verdict.details.sequenceAgreement ?? 1).toFixed(2)} print ${(verdict.details.printAgreement ?? 0).toFixed(2)} d ${verdict.details.distance.toFixed(2)}${passed ? '' : '  BLOCKED'}`,
      );
    }
    if (passed) retryPass++;
  }
  const sorted = [...firstScores].sort((a, b) => a - b);
  console.log(
    `generations: ${generations} of ${genSec} s (${contextsArg}); first attempt passes ${firstPass}/${generations} (${((100 * firstPass) / generations).toFixed(0)}%), median score ${sorted[Math.floor(sorted.length / 2)].toFixed(3)}, min ${sorted[0].toFixed(3)}`,
  );
  console.log(`first attempts copying a master's melody, or its loops in its form (symbolic check): ${symbolicCopies}/${generations}`);
  console.log(
    `with the seeded retry (<= ${maxAttempts} attempts): ${retryPass}/${generations} (${((100 * retryPass) / generations).toFixed(0)}%), ${attemptsUsed} attempts; ${((attemptsUsed * genSec) / renderCpu).toFixed(1)}x real time (CPU, compose+render+encode)`,
  );

  // Near-duplicate copies must still be caught.
  let copies = 0;
  let caught = 0;
  for (const c of catalog.filter((_, i) => i % 5 === 0)) {
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
      ['re-rendered, 192 kbps', await extractFeaturesFromFile(await renderMaster(track, '192kbps'), 'mp3')],
    ];
    for (const [kind, f] of variants) {
      const verdict = filter.checkAudio(f);
      copies++;
      if (!verdict.playable) caught++;
      else console.log(`  COPY PASSED: ${c.slug} ${kind} score ${verdict.safety_score} print ${(verdict.details.printAgreement ?? 0).toFixed(2)}`);
    }
  }
  console.log(`near-duplicate copies flagged: ${caught}/${copies}`);

  // Harder disguises (bench/support/copy-transforms.ts), every master: reported, not part of the target.
  const transforms = copyTransforms();
  const decoded = await Promise.all(catalog.map((c) => decodeAudio(c.mp3, 'mp3')));
  const checkCpu = { sec: 0, checks: 0 };
  for (const [kind, transform] of transforms) {
    let flagged = 0;
    let rightMaster = 0;
    const passed: string[] = [];
    catalog.forEach((c, i) => {
      const { pcm, sampleRate } = decoded[i];
      const features = extractFeatures(transform(pcm, sampleRate, decoded[(i + 7) % catalog.length].pcm), sampleRate);
      const cpu = cpuSec();
      const verdict = filter.checkAudio(features);
      checkCpu.sec += cpuSec() - cpu;
      checkCpu.checks++;
      if (verdict.playable) passed.push(c.slug);
      else {
        flagged++;
        if (verdict.details.nearestId === c.slug) rightMaster++;
      }
    });
    console.log(
      `  ${kind.padEnd(36)} flagged ${flagged}/${catalog.length} (naming its master ${rightMaster})${passed.length ? `; passed: ${passed.join(', ')}` : ''}`,
    );
  }
  console.log(`audio check: ${((1000 * checkCpu.sec) / Math.max(1, checkCpu.checks)).toFixed(1)} ms CPU per check against ${catalog.length} masters`);
  console.log(`total ${Math.round((performance.now() - started) / 1000)} s`);
  const ok = retryPass >= Math.ceil(0.95 * generations) && caught === copies && symbolicCopies === 0;
  process.exitCode = ok ? 0 : 1;
}

await main();
