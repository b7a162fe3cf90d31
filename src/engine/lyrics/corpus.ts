/**
 * Corpus preparation for training: validation, the deterministic held-out split, token-id sequences for the
 * forward and line-reversed models, the unigram baseline and the rhyme index.
 */
import type { LyricsDocument } from '../types.js';
import { hash53 } from './copy-guard.js';
import { InvalidCorpusError } from './errors.js';
import { rhymeKey } from './rhyme.js';
import { BOS, EOS, documentTokens, isSpecialToken, tokenizeLine } from './tokenizer.js';
import { Vocabulary } from './vocabulary.js';

export interface LanguageCorpus {
  language: string;
  all: LyricsDocument[];
  train: LyricsDocument[];
  heldOut: LyricsDocument[];
}

/** Languages with at least this many songs get a held-out split; smaller ones train on everything. */
const MIN_DOCS_FOR_SPLIT = 4;

/**
 * Group by language and hold out ~`fraction` of each language's songs, chosen by a hash of the song id: the
 * split does not depend on corpus order, and adding songs later does not reshuffle the existing ones.
 */
export function splitCorpus(docs: readonly LyricsDocument[], fraction = 0.1): LanguageCorpus[] {
  if (docs.length === 0) throw new InvalidCorpusError('the lyrics corpus is empty');
  const byLanguage = new Map<string, LyricsDocument[]>();
  const ids = new Set<string>();
  for (const doc of docs) {
    if (ids.has(doc.id)) throw new InvalidCorpusError(`duplicate lyrics document id "${doc.id}"`);
    ids.add(doc.id);
    const language = doc.language.trim().toLowerCase();
    if (!/^[a-z]{2,3}$/.test(language)) throw new InvalidCorpusError(`document "${doc.id}" has invalid language "${doc.language}"`);
    if (!byLanguage.has(language)) byLanguage.set(language, []);
    byLanguage.get(language)!.push({ ...doc, language });
  }
  return [...byLanguage.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([language, all]) => {
      const ranked = [...all].sort((a, b) => hash53(a.id) - hash53(b.id) || (a.id < b.id ? -1 : 1));
      const heldOutCount = all.length >= MIN_DOCS_FOR_SPLIT ? Math.max(1, Math.round(all.length * fraction)) : 0;
      const heldOutIds = new Set(ranked.slice(0, heldOutCount).map((d) => d.id));
      return {
        language,
        all,
        train: all.filter((d) => !heldOutIds.has(d.id)),
        heldOut: all.filter((d) => heldOutIds.has(d.id)),
      };
    });
}

export function forwardSequences(docs: readonly LyricsDocument[], vocabulary: Vocabulary, order: number): number[][] {
  return docs.map((d) => vocabulary.encode(documentTokens(d, order - 1)));
}

/** Each line on its own, words right to left: `<s> <s> lastWord ... firstWord </s>`. */
export function reverseLineSequences(docs: readonly LyricsDocument[], vocabulary: Vocabulary, order: number): number[][] {
  const out: number[][] = [];
  for (const doc of docs) {
    for (const section of doc.sections) {
      for (const line of section.lines) {
        const words = tokenizeLine(line, doc.language);
        if (words.length === 0) continue;
        out.push(vocabulary.encode([...Array.from({ length: order - 1 }, () => BOS), ...words.reverse(), EOS]));
      }
    }
  }
  return out;
}

/** Add-one smoothed unigram perplexity over the predictable vocabulary (every id but `<s>`). */
export function unigramPerplexity(train: readonly number[][], heldOut: readonly number[][], vocabSize: number): number {
  const counts = new Float64Array(vocabSize);
  let total = 0;
  for (const seq of train) {
    for (const id of seq) {
      if (id === Vocabulary.BOS_ID) continue;
      counts[id]++;
      total++;
    }
  }
  const outcomes = vocabSize - 1;
  let logProb = 0;
  let tokens = 0;
  for (const seq of heldOut) {
    for (const id of seq) {
      if (id === Vocabulary.BOS_ID) continue;
      logProb += Math.log((counts[id] + 1) / (total + outcomes));
      tokens++;
    }
  }
  return Math.exp(-logProb / Math.max(1, tokens));
}

export function countPredictedTokens(sequences: readonly number[][]): number {
  let n = 0;
  for (const seq of sequences) for (const id of seq) if (id !== Vocabulary.BOS_ID) n++;
  return n;
}

export function buildRhymeIndex(vocabulary: Vocabulary, language: string): Record<string, string[]> {
  const index: Record<string, string[]> = {};
  for (const token of vocabulary.tokens) {
    if (isSpecialToken(token)) continue;
    const key = rhymeKey(token, language);
    if (!key) continue;
    (index[key] ??= []).push(token);
  }
  return index;
}

export function corpusLines(docs: readonly LyricsDocument[]): string[] {
  return docs.flatMap((d) => d.sections.flatMap((s) => s.lines));
}
