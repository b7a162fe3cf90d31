/**
 * Key diagnostics: is a wrong key estimate on a generated track the composer's fault or the detector's?
 *   npx tsx bench/key-diagnostics.ts [seconds] [seed-offset]
 * A seed offset gives a fresh set of tracks (same genres and keys preferences) to check a change on.
 *
 * For each case it composes and renders a short track, then prints
 *  - the key that was asked for (the score's key and mode);
 *  - the key of the *score*: key finding (Albrecht-Shanahan profiles) on the pitch-class histogram of all
 *    pitched notes, weighted by duration (drums excluded) — if this is wrong, the composer did not
 *    establish the key;
 *  - the key the feature extractor hears in the rendered MP3, with its confidence — if the score is right
 *    and this is wrong, the detector is at fault.
 * It then tries other key profiles on the same score histograms and audio chroma, to tell a profile
 * problem from a chroma problem. "rel" marks the relative major/minor (same scale, other tonic), "5th" a neighbour on the circle of fifths.
 */
import { composeScore } from '../src/engine/compose/index.js';
import { emptyAudioModel } from '../src/engine/compose/audio-model.js';
import { generateTrack } from '../src/engine/music/pipeline.js';
import { extractFeaturesFromFile } from '../src/engine/features/extract.js';
import { ALBRECHT_SHANAHAN, KRUMHANSL_KESSLER, PITCH_CLASSES, estimateKey, withHarmonics, type KeyProfiles } from '../src/engine/features/key.js';
import type { KeyPreference, Lifestyle, Mode, MusicContext } from '../src/engine/types.js';

const seconds = Number(process.argv[2] ?? 15);
const seedOffset = Number(process.argv[3] ?? 0);

interface Case {
  genre: string;
  lifestyle?: Lifestyle;
  bpm: number;
  key: KeyPreference;
  seed: number;
}

const CASES: Case[] = [
  { genre: 'electronic', bpm: 124, key: 'minor', seed: 1 },
  { genre: 'pop', bpm: 100, key: 'major', seed: 2 },
  { genre: 'lofi hip hop', bpm: 85, key: 'minor', seed: 3 },
  { genre: 'folk', bpm: 110, key: 'major', seed: 4 },
  { genre: 'jazz', bpm: 120, key: 'major', seed: 5 },
  { genre: 'rock', bpm: 130, key: 'minor', seed: 6 },
  { genre: 'ambient', bpm: 70, key: 'major', seed: 7 },
  { genre: 'pop', bpm: 96, key: 'minor', seed: 8 },
  { genre: 'electronic', bpm: 128, key: 'major', seed: 9 },
  { genre: 'folk', bpm: 90, key: 'minor', seed: 10 },
  { genre: 'rock', bpm: 140, key: 'major', seed: 11 },
  { genre: 'lofi hip hop', bpm: 80, key: 'major', seed: 12 },
  { genre: 'jazz', bpm: 110, key: 'minor', seed: 13 },
  { genre: 'ambient', bpm: 65, key: 'minor', seed: 14 },
];

const FLAT_TO_SHARP: Record<string, string> = { Db: 'C#', Eb: 'D#', Gb: 'F#', Ab: 'G#', Bb: 'A#' };
const tonicIndex = (key: string) => PITCH_CLASSES.indexOf((FLAT_TO_SHARP[key] ?? key) as (typeof PITCH_CLASSES)[number]);

function contextFor(c: Case): MusicContext {
  return {
    genre: c.genre,
    subgenre: '',
    mood: ['happy'],
    lifestyle: c.lifestyle ?? 'focus',
    tempo_range: [c.bpm, c.bpm],
    key_preference: c.key,
    energy_level: 0.7,
  };
}

/** Duration-weighted pitch-class histogram of the pitched parts that sound within the first `seconds`. */
function scoreHistogram(score: ReturnType<typeof composeScore>, limitSec: number): number[] {
  const hist = new Array<number>(12).fill(0);
  const limitBeats = (limitSec * score.bpm) / 60;
  for (const part of score.parts) {
    if (part.role === 'drums') continue;
    for (const n of part.notes) {
      const beats = Math.max(0, Math.min(n.durationBeats, limitBeats - n.startBeat));
      hist[n.midi % 12] += beats;
    }
  }
  const total = hist.reduce((a, b) => a + b, 0);
  return hist.map((x) => x / total);
}

/** How the estimate relates to the asked key: exact, rel(ative), 5th (circle neighbour), par(allel), or wrong. */
function relation(askedTonic: number, askedMode: Mode, tonic: number, mode: Mode): string {
  if (tonic === askedTonic && mode === askedMode) return 'ok';
  const relative = askedMode === 'major' ? (askedTonic + 9) % 12 : (askedTonic + 3) % 12;
  if (mode !== askedMode && tonic === relative) return 'rel';
  if (mode !== askedMode && tonic === askedTonic) return 'par';
  if (mode === askedMode && (tonic === (askedTonic + 7) % 12 || tonic === (askedTonic + 5) % 12)) return '5th';
  return 'WRONG';
}

/** Key profiles (tonic first), tried on the same chroma to see whether the profile is at fault. */
const PROFILES: Record<string, KeyProfiles> = {
  krumhansl: KRUMHANSL_KESSLER,
  temperley: { major: [5, 2, 3.5, 2, 4.5, 4, 2, 4.5, 2, 3.5, 1.5, 4], minor: [5, 2, 3.5, 4.5, 2, 4, 2, 4.5, 3.5, 2, 1.5, 4] },
  albrecht: ALBRECHT_SHANAHAN,
};

const VARIANTS = Object.entries(PROFILES).flatMap(([name, p]) => [
  { name, profiles: p },
  { name: `${name}+harm`, profiles: { major: withHarmonics(p.major), minor: withHarmonics(p.minor) } },
]);

const fmt = (tonic: number, mode: Mode) => `${PITCH_CLASSES[tonic]}${mode === 'minor' ? 'm' : ''}`.padEnd(4);
const histText = (h: number[], tonic: number) =>
  Array.from({ length: 12 }, (_, i) =>
    Math.round(h[(tonic + i) % 12] * 100)
      .toString()
      .padStart(3),
  ).join('');

async function main(): Promise<void> {
  console.log(`${seconds} s renders, empty audio model. Histogram columns: scale degrees 0..11 above the asked tonic (%).`);
  console.log('genre        bpm  asked | score key        | heard key  conf   bpm     | score pc histogram (degrees 0..11)');
  let scoreOk = 0;
  let heardOk = 0;
  let heardRel = 0;
  const variantHits = new Map<string, { score: number; audio: number }>(VARIANTS.map((v) => [v.name, { score: 0, audio: 0 }]));
  for (const listed of CASES) {
    const c = { ...listed, seed: listed.seed + seedOffset };
    const context = contextFor(c);
    const model = emptyAudioModel();
    const score = composeScore({ context, seed: c.seed, maxDurationSec: seconds, model });
    const askedTonic = tonicIndex(score.key);
    const hist = scoreHistogram(score, seconds);
    // A score has no overtones: judge it with the plain corpus profile (what estimateKey uses, minus harmonics).
    const fromScore = estimateKey(hist, ALBRECHT_SHANAHAN);
    const track = await generateTrack({ context, seed: c.seed, maxDurationSec: seconds, quality: '128kbps', model, modelVersion: 'key-diagnostics' });
    const features = await extractFeaturesFromFile(track.mp3!, 'mp3');
    const heardTonic = tonicIndex(features.key);
    const s = relation(askedTonic, score.mode, fromScore.tonic, fromScore.mode);
    const h = relation(askedTonic, score.mode, heardTonic, features.mode);
    for (const v of VARIANTS) {
      const hits = variantHits.get(v.name)!;
      const fromHist = estimateKey(hist, v.profiles);
      const fromAudio = estimateKey(features.chroma, v.profiles);
      if (fromHist.tonic === askedTonic && fromHist.mode === score.mode) hits.score++;
      if (fromAudio.tonic === askedTonic && fromAudio.mode === score.mode) hits.audio++;
    }
    if (s === 'ok') scoreOk++;
    if (h === 'ok') heardOk++;
    if (h === 'rel') heardRel++;
    console.log(
      `${c.genre.padEnd(12)} ${String(c.bpm).padStart(3)}  ${fmt(askedTonic, score.mode)}  | ${fmt(fromScore.tonic, fromScore.mode)} ${s.padEnd(5)} ${fromScore.confidence.toFixed(2)} | ` +
        `${fmt(heardTonic, features.mode)} ${h.padEnd(5)} ${features.keyConfidence.toFixed(2)} ${features.tempoBpm.toFixed(1).padStart(6)} | ${histText(hist, askedTonic)}  ${score.chordsPerBar.join(' ')}`,
    );
  }
  console.log('\nprofile variants (exact asked key):  on score histogram | on audio mean chroma');
  for (const [name, hits] of variantHits) console.log(`  ${name.padEnd(16)} ${hits.score}/${CASES.length} | ${hits.audio}/${CASES.length}`);
  console.log(`score in asked key: ${scoreOk}/${CASES.length}; heard asked key: ${heardOk}/${CASES.length} (+${heardRel} relative)`);
}

await main();
