/**
 * Copyright similarity of lyrics against a reference corpus (the training corpus plus catalog lyrics).
 * Two signals, both on normalised text (lower case, no accents, no punctuation), so "Hold ON, to the
 * light!" still matches "hold on to the light":
 *   - copied lines: a checked line equal to a reference line of at least 4 words (short stock lines such as
 *     "oh oh oh" or "I love you" are not evidence of copying);
 *   - shingle containment: the share of the text's distinct word 5-grams (within lines) found in one
 *     reference song, maximised over songs.
 *   similarity = max(containment, copied lines ? 0.3 + 0.7 * copied share of distinct lines : 0)
 * One copied line therefore costs at least 0.3, enough on its own to fail the 0.80 playback threshold.
 */
import type { LyricsDocument } from '../types.js';
import { hash53, lineShingles } from '../lyrics/copy-guard.js';
import { normaliseForMatching } from '../lyrics/tokenizer.js';

export interface ReferenceLyric {
  id: string;
  title?: string;
  lines: string[];
}

export interface CopiedLine {
  line: string;
  referenceId: string;
  referenceLine: string;
}

export interface CopyrightResult {
  similarity: number;
  copiedLines: CopiedLine[];
  shingleContainment: number;
  nearestReferenceId: string | null;
}

const MIN_COPY_WORDS = 4;

export function referencesFromDocuments(docs: readonly LyricsDocument[]): ReferenceLyric[] {
  return docs.map((d) => ({ id: d.id, title: d.title, lines: d.sections.flatMap((s) => s.lines) }));
}

export class CopyrightIndex {
  private readonly lines = new Map<number, { referenceId: string; line: string }>();
  private readonly shingles = new Map<number, Set<number>>();
  private readonly ids: string[] = [];

  constructor(references: readonly ReferenceLyric[]) {
    references.forEach((ref, refIndex) => {
      this.ids.push(ref.id);
      for (const line of ref.lines) {
        const normalised = normaliseForMatching(line);
        if (normalised.split(' ').length >= MIN_COPY_WORDS) {
          const h = hash53(normalised);
          if (!this.lines.has(h)) this.lines.set(h, { referenceId: ref.id, line });
        }
        for (const s of lineShingles(normalised)) {
          let owners = this.shingles.get(s);
          if (!owners) this.shingles.set(s, (owners = new Set()));
          owners.add(refIndex);
        }
      }
    });
  }

  get size(): number {
    return this.ids.length;
  }

  check(lines: readonly string[]): CopyrightResult {
    const distinct = [...new Set(lines.map(normaliseForMatching).filter((l) => l.length > 0))];
    const copiedLines: CopiedLine[] = [];
    const originals = new Map(lines.map((l) => [normaliseForMatching(l), l]));
    for (const normalised of distinct) {
      const hit = this.lines.get(hash53(normalised));
      if (hit) copiedLines.push({ line: originals.get(normalised) ?? normalised, referenceId: hit.referenceId, referenceLine: hit.line });
    }
    const shingleSet = new Set(distinct.flatMap((l) => lineShingles(l)));
    const perReference = new Map<number, number>();
    for (const s of shingleSet) for (const owner of this.shingles.get(s) ?? []) perReference.set(owner, (perReference.get(owner) ?? 0) + 1);
    let bestRef = -1;
    let bestShared = 0;
    for (const [ref, shared] of perReference) if (shared > bestShared || (shared === bestShared && ref < bestRef)) [bestRef, bestShared] = [ref, shared];
    const containment = shingleSet.size > 0 ? bestShared / shingleSet.size : 0;
    const lineSimilarity = copiedLines.length > 0 ? 0.3 + (0.7 * copiedLines.length) / Math.max(1, distinct.length) : 0;
    const nearest = copiedLines[0]?.referenceId ?? (bestRef >= 0 ? this.ids[bestRef] : null);
    return {
      similarity: Math.min(1, Math.max(containment, lineSimilarity)),
      copiedLines,
      shingleContainment: containment,
      nearestReferenceId: nearest,
    };
  }
}
