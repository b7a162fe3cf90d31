/**
 * Fast listening check of the voice alone (issue 18): the listening bench's six songs (bench/listening.ts),
 * but only the vocal stem, re-rendered from each song's cached vocal melody and decoded closed set (this
 * song's words plus the next song's), in about a minute for all six. For trying a change to the
 * synthesiser (src/engine/voice) before running the whole bench: the melodies do not depend on the voice,
 * so they are composed once by `generateTrack` and kept in `artifacts/listening/melodies/` (delete the
 * folder after a change to the composer, the lyrics or the casting). The recogniser is deterministic, so
 * the same audio gives the same figures; different audio moves them by about ±0.02 (bench/README.md).
 *
 * Per song: the closed-set share of true lyric words (as the whole bench counts it) and how many of the
 * sung words the decode contains (bag of words); with `--open`, open-vocabulary content-word recall too
 * (slow: several minutes a song). Then the medians, the mean share, the lyric words of all songs, and the
 * synthesiser's CPU time. With `--espeak`, the same closed-set share for espeak-ng speaking the lines one by
 * one, at its own rate and stretched to the sung lines' lengths (round 6's reference: the tempo of singing
 * without a synthetic singer).
 *
 *   nice -n 10 npx tsx bench/listening-stem.ts [--open] [--espeak] [--only pop-311,folk-816]
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VocalMelody } from '../src/engine/compose/vocal-melody.js';
import { VOICES, renderVocalStem } from '../src/engine/voice/index.js';
import { closedShare, contentRecall, median, recogniserWav, sungSpans } from './support/listening-measures.js';
import { LISTENING_SONGS, closedVocabulary, renderListeningSong } from './support/listening-songs.js';
import { recogniseClosed, recogniseOpen, recogniserAvailable, speakLineByLine, tokens } from './support/recognise.js';

const args = process.argv.slice(2);
const open = args.includes('--open');
const reference = args.includes('--espeak');
const only = args.includes('--only') ? new Set(args[args.indexOf('--only') + 1].split(',')) : null;
/** The whole bench's track length: the melodies must be the ones it sings. */
const DURATION_SEC = 90;

interface CachedMelody {
  melody: VocalMelody;
  bpm: number;
  voice: string;
  durationSec: number;
  sampleRate: number;
}

const problem = recogniserAvailable();
if (problem) {
  console.error(`listening-stem bench: ${problem}`);
  process.exit(2);
}
const cacheDir = join('artifacts', 'listening', 'melodies');
const work = join('artifacts', 'listening', 'stem');
mkdirSync(cacheDir, { recursive: true });
mkdirSync(work, { recursive: true });

async function melodyOf(song: (typeof LISTENING_SONGS)[number]): Promise<CachedMelody> {
  const path = join(cacheDir, `${song.name}.json`);
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as CachedMelody;
  const { track, stem } = await renderListeningSong(song, DURATION_SEC);
  const cached = { melody: stem.melody, bpm: track.bpm, voice: stem.voice, durationSec: stem.samples.length / stem.sampleRate, sampleRate: stem.sampleRate };
  writeFileSync(path, JSON.stringify(cached));
  return cached;
}

const shares: number[] = [];
const recalls: number[] = [];
const espeakShares = { plain: [] as number[], sung: [] as number[] };
let lyricWords = 0;
let sungWords = 0;
let synthSec = 0;
for (const [index, song] of LISTENING_SONGS.entries()) {
  if (only && !only.has(song.name)) continue;
  const cached = await melodyOf(song);
  const before = process.cpuUsage();
  // The same call and arguments as the pipeline's (src/engine/voice/index.ts, prepareVocals).
  const stem = renderVocalStem(cached.melody, {
    bpm: cached.bpm,
    voice: VOICES[cached.voice],
    seed: song.seed,
    durationSec: cached.durationSec,
    sampleRate: cached.sampleRate,
  });
  const used = process.cpuUsage(before);
  synthSec += (used.user + used.system) / 1e6;
  const wav = await recogniserWav(sungSpans(stem.samples, stem.sampleRate, stem.timeline.lines), stem.sampleRate, work, song.name);
  const words = stem.melody.lines.flatMap((l) => tokens(l.text));
  const own = new Set(words);
  const vocabulary = closedVocabulary(index, own);
  const heard = recogniseClosed(wav, vocabulary, join(work, `${song.name}.gram`));
  const share = closedShare(heard, own);
  const count = new Map<string, number>();
  for (const w of heard) count.set(w, (count.get(w) ?? 0) + 1);
  let found = 0;
  for (const w of words) {
    const left = count.get(w) ?? 0;
    if (left > 0) {
      found++;
      count.set(w, left - 1);
    }
  }
  shares.push(share);
  lyricWords += found;
  sungWords += words.length;
  const recall = open ? contentRecall(words, recogniseOpen(wav)) : NaN;
  if (open) recalls.push(recall);
  let espeak = '';
  if (reference) {
    const lines = stem.melody.lines.map((l) => l.text);
    const spoken = join(work, `${song.name}.espeak.wav`);
    const stretched = join(work, `${song.name}.espeak-sung.wav`);
    speakLineByLine(lines, null, spoken);
    speakLineByLine(
      lines,
      stem.timeline.lines.map((l) => l.endSec - l.startSec),
      stretched,
    );
    const plainShare = closedShare(recogniseClosed(spoken, vocabulary, join(work, `${song.name}.gram`)), own);
    const sungShare = closedShare(recogniseClosed(stretched, vocabulary, join(work, `${song.name}.gram`)), own);
    espeakShares.plain.push(plainShare);
    espeakShares.sung.push(sungShare);
    espeak = `  espeak-ng ${plainShare.toFixed(3)}, at sung length ${sungShare.toFixed(3)}`;
  }
  console.log(
    `${song.name.padEnd(16)} ${cached.voice.padEnd(9)} closed ${share.toFixed(3)}  lyric words ${String(found).padStart(3)} of ${words.length}${open ? `  open recall ${recall.toFixed(3)}` : ''}${espeak}`,
  );
}
const mean = shares.reduce((s, x) => s + x, 0) / Math.max(1, shares.length);
console.log(
  `closed-set share median ${median(shares).toFixed(3)} mean ${mean.toFixed(3)}; lyric words ${lyricWords} of ${sungWords}` +
    `${open ? `; open recall median ${median(recalls).toFixed(3)}` : ''}; synthesis ${synthSec.toFixed(2)} s CPU`,
);
if (reference) {
  const avg = (xs: number[]) => xs.reduce((sum, x) => sum + x, 0) / Math.max(1, xs.length);
  console.log(
    `espeak-ng line by line median ${median(espeakShares.plain).toFixed(3)} mean ${avg(espeakShares.plain).toFixed(3)}; ` +
      `at the sung lengths median ${median(espeakShares.sung).toFixed(3)} mean ${avg(espeakShares.sung).toFixed(3)}`,
  );
}
