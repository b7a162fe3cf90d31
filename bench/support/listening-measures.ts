/**
 * What the listening benches count (bench/listening.ts, the whole bench; bench/listening-stem.ts, the fast
 * stem-only check): the sung spans a recogniser hears, content-word recall and the closed-set share.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { decodeAudio } from '../../src/engine/features/decode.js';
import { RECOGNISER_RATE, writeWav16 } from './recognise.js';

/** Function words: not counted as content words (articles, pronouns, auxiliaries, prepositions, conjunctions). */
export const FUNCTION_WORDS = new Set(
  (
    'a an the i me my mine you your yours he him his she her hers it its we us our ours they them their theirs this that these those ' +
    'is am are was were be been being do does did have has had will would shall should can could may might must ' +
    'and or but nor so yet if then than as of at by for from in into on onto to up down out over under with without ' +
    'about across along around through till until upon oh all every no not there here what who when where why how ' +
    "let let's i'm you're it's we're don't can't"
  ).split(/\s+/),
);

/** Bag-of-words recall of `reference`'s content words in `heard`. */
export function contentRecall(reference: readonly string[], heard: readonly string[]): number {
  const want = new Map<string, number>();
  for (const w of reference) if (!FUNCTION_WORDS.has(w)) want.set(w, (want.get(w) ?? 0) + 1);
  const got = new Map<string, number>();
  for (const w of heard) got.set(w, (got.get(w) ?? 0) + 1);
  let total = 0;
  let found = 0;
  for (const [w, n] of want) {
    total += n;
    found += Math.min(n, got.get(w) ?? 0);
  }
  return total > 0 ? found / total : 0;
}

export function closedShare(heard: readonly string[], own: ReadonlySet<string>): number {
  return heard.length > 0 ? heard.filter((w) => own.has(w)).length / heard.length : 0;
}

/** The sung spans of `signal` (at `fs`), joined with 0.3 s of silence. */
export function sungSpans(signal: Float32Array, fs: number, lines: readonly { startSec: number; endSec: number }[]): Float32Array {
  const gap = Math.round(0.3 * fs);
  const pieces = lines.map((l) =>
    signal.subarray(Math.max(0, Math.round((l.startSec - 0.15) * fs)), Math.min(signal.length, Math.round((l.endSec + 0.35) * fs))),
  );
  const out = new Float32Array(pieces.reduce((s, p) => s + p.length + gap, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length + gap;
  }
  return out;
}

/** Median of the finite values (a song where espeak's recall is 0 has no ratio). */
export const median = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** `samples` (at `fs`) resampled to the recogniser's 16 kHz by the engine's decoder, as `work/name.wav`. */
export async function recogniserWav(samples: Float32Array, fs: number, work: string, name: string): Promise<string> {
  const source = join(work, `${name}.src.wav`);
  writeWav16(source, samples, fs);
  const { pcm } = await decodeAudio(readFileSync(source), 'wav', { sampleRate: RECOGNISER_RATE });
  const path = join(work, `${name}.wav`);
  writeWav16(path, pcm, RECOGNISER_RATE);
  rmSync(source);
  return path;
}
