/**
 * Listening bench: can the sung words be understood? Renders a fixed set of songs with lyrics (six genre
 * families, a fixed seed each: bench/support/listening-songs.ts), and runs an offline speech recogniser
 * (PocketSphinx, en-us) on the vocal stem, on the mix, and on espeak-ng speaking the same lines, then
 * reports per song and as medians:
 *
 * - content-word recall (open vocabulary, the en-us language model): the share of the sung lines'
 *   content words (function words left out) that appear in the recogniser's output, counted as bags of
 *   words (a word sung 3 times and heard twice scores 2/3); stem and mix recall are also given relative
 *   to espeak's recall on the same words (the "ratio", target median >= 0.8 for the stem);
 * - closed-set share of true lyric words: the recogniser restricted (JSGF grammar, any word sequence) to
 *   this song's words plus the next song's; the share of the words it outputs that are this song's
 *   (chance is the share of this song's words in that vocabulary; targets: median >= 0.9 on the stem,
 *   >= 0.8 on the mix);
 * - the consonant band: energy at 3-7 kHz relative to 0.1-7 kHz (at 16 kHz) over the sung lines, stem vs espeak (dB).
 *
 * Only the sung lines are decoded: each line from 0.15 s before its first consonant to 0.35 s after its
 * last note, joined with 0.3 s of silence, the same spans for the stem and the mix. Exits 1 when a target
 * is missed.
 *
 *   npx tsx bench/listening.ts [durationSec=90] [--keep] [--only pop-311,rock-412]
 *   (--keep leaves the WAV files in artifacts/listening; --only runs those songs)
 *
 * Needs: apt-get install pocketsphinx pocketsphinx-en-us espeak-ng
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeAudio } from '../src/engine/features/decode.js';
import { FUNCTION_WORDS, closedShare, contentRecall, median, recogniserWav, sungSpans } from './support/listening-measures.js';
import { LISTENING_SONGS, closedVocabulary, renderListeningSong } from './support/listening-songs.js';
import { RECOGNISER_RATE, recogniseClosed, recogniseOpen, recogniserAvailable, speak, tokens, writeWav16 } from './support/recognise.js';

const args = process.argv.slice(2);
const keep = args.includes('--keep');
const durationSec = Number(args.find((a) => !a.startsWith('--') && !a.includes('-')) ?? 90);
/** `--only pop-311,folk-816`: just those songs (their closed-set distractors stay the next song in the full list). */
const only = args.includes('--only') ? new Set(args[args.indexOf('--only') + 1].split(',')) : null;
const TARGET_RECALL_RATIO = 0.8;
const TARGET_CLOSED_STEM = 0.9;
const TARGET_CLOSED_MIX = 0.8;

const problem = recogniserAvailable();
if (problem) {
  console.error(`listening bench: ${problem}`);
  process.exit(2);
}

const work = keep ? join('artifacts', 'listening') : mkdtempSync(join(tmpdir(), 'listening-'));
mkdirSync(work, { recursive: true });

/** Energy in [low, high] Hz over all of `x`, by a 4th-order Butterworth band (two 2nd-order sections each side). */
function bandEnergy(x: Float32Array, fs: number, low: number, high: number): number {
  const section = (input: Float64Array, f: number, lowPass: boolean) => {
    const w = (2 * Math.PI * f) / fs;
    const cos = Math.cos(w);
    const alpha = Math.sin(w) / Math.SQRT2;
    const a0 = 1 + alpha;
    const [b0, b1] = lowPass ? [(1 - cos) / 2, 1 - cos] : [(1 + cos) / 2, -(1 + cos)];
    const out = new Float64Array(input.length);
    let x1 = 0;
    let x2 = 0;
    let y1 = 0;
    let y2 = 0;
    for (let i = 0; i < input.length; i++) {
      const y = (b0 * input[i] + b1 * x1 + b0 * x2 + 2 * cos * y1 - (1 - alpha) * y2) / a0;
      x2 = x1;
      x1 = input[i];
      y2 = y1;
      y1 = y;
      out[i] = y;
    }
    return out;
  };
  let y = Float64Array.from(x);
  for (let k = 0; k < 2; k++) y = section(section(y, low, false), Math.min(high, fs * 0.45), true);
  let e = 0;
  for (const v of y) e += v * v;
  return e;
}

/** Both signals are measured at the recogniser's 16 kHz, so the band stops short of its 8 kHz Nyquist. */
function consonantBandDb(x: Float32Array, fs: number): number {
  return 10 * Math.log10(bandEnergy(x, fs, 3000, 7000) / bandEnergy(x, fs, 100, 7000));
}

interface SongResult {
  song: string;
  voice: string;
  lines: number;
  contentWords: number;
  recall: { stem: number; mix: number; espeak: number };
  ratio: { stem: number; mix: number };
  closed: { stem: number; mix: number; espeak: number; chance: number };
  consonantBandDb: { stem: number; espeak: number };
  heard: { stem: string; mix: string; espeak: string };
}

const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : ' n/a');

const results: SongResult[] = [];
console.log(`${LISTENING_SONGS.length} songs, ${durationSec} s each; PocketSphinx en-us on the sung lines`);
console.log('song              voice     lines cwords | recall stem  mix espeak | ratio stem  mix | closed stem  mix espeak chance | 3-7k dB stem espeak');
for (const [index, song] of LISTENING_SONGS.entries()) {
  if (only && !only.has(song.name)) continue;
  const { track, stem } = await renderListeningSong(song, durationSec);
  const sungLines = stem.melody.lines.map((l) => l.text);
  const spans = stem.timeline.lines;
  const stemSung = sungSpans(stem.samples, stem.sampleRate, spans);
  const mix = await decodeAudio(track.mp3!, 'mp3', { sampleRate: RECOGNISER_RATE });
  const stemWav = await recogniserWav(stemSung, stem.sampleRate, work, `${song.name}.stem`);
  const mixWav = join(work, `${song.name}.mix.wav`);
  writeWav16(mixWav, sungSpans(mix.pcm, RECOGNISER_RATE, spans), RECOGNISER_RATE);
  const espeakWav = join(work, `${song.name}.espeak.wav`);
  speak(sungLines, espeakWav);
  const espeak = await decodeAudio(readFileSync(espeakWav), 'wav', { sampleRate: RECOGNISER_RATE });
  const stem16 = await decodeAudio(readFileSync(stemWav), 'wav', { sampleRate: RECOGNISER_RATE });

  const reference = sungLines.flatMap((l) => tokens(l));
  const own = new Set(reference);
  const vocabulary = closedVocabulary(index, own);
  const grammar = join(work, `${song.name}.gram`);
  const open = { stem: recogniseOpen(stemWav), mix: recogniseOpen(mixWav), espeak: recogniseOpen(espeakWav) };
  const closed = {
    stem: recogniseClosed(stemWav, vocabulary, grammar),
    mix: recogniseClosed(mixWav, vocabulary, grammar),
    espeak: recogniseClosed(espeakWav, vocabulary, grammar),
  };
  const recall = { stem: contentRecall(reference, open.stem), mix: contentRecall(reference, open.mix), espeak: contentRecall(reference, open.espeak) };
  const result: SongResult = {
    song: song.name,
    voice: stem.voice,
    lines: sungLines.length,
    contentWords: reference.filter((w) => !FUNCTION_WORDS.has(w)).length,
    recall,
    ratio: { stem: recall.stem / recall.espeak, mix: recall.mix / recall.espeak },
    closed: {
      stem: closedShare(closed.stem, own),
      mix: closedShare(closed.mix, own),
      espeak: closedShare(closed.espeak, own),
      chance: own.size / vocabulary.size,
    },
    consonantBandDb: { stem: consonantBandDb(stem16.pcm, RECOGNISER_RATE), espeak: consonantBandDb(espeak.pcm, RECOGNISER_RATE) },
    heard: { stem: open.stem.join(' '), mix: open.mix.join(' '), espeak: open.espeak.join(' ') },
  };
  results.push(result);
  const r = result;
  console.log(
    `${r.song.padEnd(17)} ${r.voice.padEnd(9)} ${String(r.lines).padStart(5)} ${String(r.contentWords).padStart(6)} |       ${f2(r.recall.stem)} ${f2(r.recall.mix)}   ${f2(r.recall.espeak)} |      ${f2(r.ratio.stem)} ${f2(r.ratio.mix)} |        ${f2(r.closed.stem)} ${f2(r.closed.mix)}   ${f2(r.closed.espeak)}   ${f2(r.closed.chance)} |        ${r.consonantBandDb.stem.toFixed(1).padStart(5)}  ${r.consonantBandDb.espeak.toFixed(1).padStart(5)}`,
  );
}

const summary = {
  recall: {
    stem: median(results.map((r) => r.recall.stem)),
    mix: median(results.map((r) => r.recall.mix)),
    espeak: median(results.map((r) => r.recall.espeak)),
  },
  ratio: { stem: median(results.map((r) => r.ratio.stem)), mix: median(results.map((r) => r.ratio.mix)) },
  closed: {
    stem: median(results.map((r) => r.closed.stem)),
    mix: median(results.map((r) => r.closed.mix)),
    espeak: median(results.map((r) => r.closed.espeak)),
    chance: median(results.map((r) => r.closed.chance)),
  },
  consonantBandDb: { stem: median(results.map((r) => r.consonantBandDb.stem)), espeak: median(results.map((r) => r.consonantBandDb.espeak)) },
};
console.log(
  `median            recall stem ${f2(summary.recall.stem)} mix ${f2(summary.recall.mix)} espeak ${f2(summary.recall.espeak)} | ratio stem ${f2(summary.ratio.stem)} (target >= ${TARGET_RECALL_RATIO}) mix ${f2(summary.ratio.mix)} | closed stem ${f2(summary.closed.stem)} (>= ${TARGET_CLOSED_STEM}) mix ${f2(summary.closed.mix)} (>= ${TARGET_CLOSED_MIX}) espeak ${f2(summary.closed.espeak)} chance ${f2(summary.closed.chance)} | 3-7 kHz stem ${summary.consonantBandDb.stem.toFixed(1)} dB espeak ${summary.consonantBandDb.espeak.toFixed(1)} dB`,
);
mkdirSync(join('artifacts', 'listening'), { recursive: true });
writeFileSync(join('artifacts', 'listening', 'listening.json'), JSON.stringify({ durationSec, summary, results }, null, 2));
if (!keep) rmSync(work, { recursive: true, force: true });
const missed = summary.ratio.stem < TARGET_RECALL_RATIO || summary.closed.stem < TARGET_CLOSED_STEM || summary.closed.mix < TARGET_CLOSED_MIX;
process.exit(missed ? 1 : 0);
