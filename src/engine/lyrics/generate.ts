/**
 * Lyrics generation (module F): structure string -> sections -> lines, each line written by LineWriter
 * under its section's plan (syllable range, rhyme scheme, hook repetition). Every random choice comes from
 * an Rng derived from the request seed, so the same model + request + seed gives the same lyrics.
 */
import { Rng } from '../random.js';
import { LyricsEngineError, UnknownArtistError } from './errors.js';
import { isContentWord } from './grammar.js';
import { biasWordsFor, moodPenaltiesFor } from './lexicon.js';
import { LineWriter, type WrittenLine } from './line-writer.js';
import { loadLanguage, type LyricsModel } from './model.js';
import { SECTION_PLANS } from './section-plan.js';
import { parseStructure, type SectionKind } from './structure.js';
import { normaliseForMatching, sectionToken } from './tokenizer.js';
import { Vocabulary } from './vocabulary.js';

export interface GenerateLyricsRequest {
  mood: string[];
  theme: string;
  language: string;
  /** "verse-chorus-verse-chorus-bridge-chorus" */
  structure: string;
  styleArtistIds?: string[];
  seed: number;
  /**
   * Lines this song must not sing: the caller's memory of its recent songs (a station session), so no line
   * comes back across songs. Compared in normalised form (case, accents and punctuation ignored).
   */
  avoidLines?: readonly string[];
}

export interface GeneratedSectionMeta {
  kind: SectionKind;
  scheme: string;
  syllables: number[];
  rhymeKeys: string[];
}

export interface GeneratedLyrics {
  /** Section key -> text, lines separated by "\n" (e.g. { verse_1, chorus, verse_2, bridge }). */
  structure: Record<string, string>;
  title?: string;
  meta: {
    modelVersion: string;
    language: string;
    seed: number;
    /** Section keys in singing order, repeats included. */
    order: string[];
    sections: Record<string, GeneratedSectionMeta>;
    styleArtistIds: string[];
    lexiconWords: string[];
    rhymedPairs: number;
    rhymePairsAsked: number;
    candidates: number;
    rejectedCopies: number;
    /** Distinct lines written inside the learned grammar (the rest by the n-gram sampler). */
    grammarLines: number;
    durationMs: number;
  };
}

/** Every candidate of every retry broke a hard rule (copy, length); with a trained model this is rare. */
export class LyricsGenerationError extends LyricsEngineError {
  constructor(message: string) {
    super(message, 'GENERATION_FAILED');
  }
}

export function generateLyrics(model: LyricsModel, req: GenerateLyricsRequest): GeneratedLyrics {
  const started = Date.now();
  const language = req.language.trim().toLowerCase();
  const lang = loadLanguage(model, language);
  const structure = parseStructure(req.structure);
  const styleArtistIds = [...new Set(req.styleArtistIds ?? [])];
  const missing = styleArtistIds.filter((id) => !lang.artists.has(id));
  if (missing.length > 0) throw new UnknownArtistError(missing, language);

  const vocab = lang.vocabulary;
  const biasByWord = biasWordsFor(lang.lexicon, req.mood, req.theme, language);
  const biasIds = new Map<number, number>();
  for (const [word, weight] of [...biasByWord, ...moodPenaltiesFor(lang.lexicon, req.mood, req.theme, language)]) {
    const id = vocab.idOrUndefined(word);
    if (id !== undefined) biasIds.set(id, weight);
  }
  const rng = Rng.derive(req.seed >>> 0, `lyrics:${model.version}:${language}`);
  const writer = new LineWriter(
    lang,
    styleArtistIds.map((id) => lang.artists.get(id)!),
    biasIds,
    rng,
  );

  const order = lang.forward.order;
  const history: number[] = Array.from({ length: order - 1 }, () => Vocabulary.BOS_ID);
  const written = new Map<string, WrittenLine[]>();
  const usedLines = new Set<string>((req.avoidLines ?? []).map(normaliseForMatching));
  const usedEndWords = new Set<string>();
  const wordUses = new Map<string, number>();
  const usedTemplates = new Set<number>();
  let grammarLines = 0;
  let rhymedPairs = 0;
  let rhymePairsAsked = 0;

  for (const key of structure.order) {
    const kind = structure.kinds[key];
    history.push(vocab.id(sectionToken(kind)));
    const existing = written.get(key);
    if (existing) {
      for (const line of existing) history.push(...line.ids, vocab.newlineId); // a repeated chorus is sung again, same words
      continue;
    }
    const plan = SECTION_PLANS[kind];
    const lines: WrittenLine[] = [];
    const keyOfLetter = new Map<string, string>();
    const endWordOfLetter = new Map<string, string>();
    let hook: WrittenLine | undefined;
    for (const letter of plan.scheme) {
      if (letter === 'H' && hook) {
        lines.push(hook);
        history.push(...hook.ids, vocab.newlineId);
        continue;
      }
      const rhymeWith = letter === 'H' ? null : (keyOfLetter.get(letter) ?? null);
      const targetSyllables = lines[0]?.syllables;
      const rhymePartner = rhymeWith === null ? undefined : endWordOfLetter.get(letter);
      const line = writer.write({
        history,
        syllables: plan.syllables,
        rhymeWith,
        rhymePartner,
        usedEndWords,
        usedLines,
        wordUses,
        usedTemplates,
        targetSyllables,
      });
      if (!line) throw new LyricsGenerationError(`could not write an original line for section "${key}"`);
      if (rhymeWith !== null) {
        rhymePairsAsked++;
        if (line.rhymed) rhymedPairs++;
      } else if (letter !== 'H') {
        keyOfLetter.set(letter, line.rhymeKey);
        endWordOfLetter.set(letter, vocab.token(line.ids[line.ids.length - 1]));
      }
      if (letter === 'H') hook = line;
      lines.push(line);
      usedLines.add(normaliseForMatching(line.text));
      usedEndWords.add(vocab.token(line.ids[line.ids.length - 1]));
      for (const id of line.ids) {
        const word = vocab.token(id);
        if (isContentWord(word, language)) wordUses.set(word, (wordUses.get(word) ?? 0) + 1);
      }
      if (line.template !== null) {
        usedTemplates.add(line.template);
        grammarLines++;
      }
      history.push(...line.ids, vocab.newlineId);
    }
    written.set(key, lines);
  }

  const sections: Record<string, string> = {};
  const sectionMeta: Record<string, GeneratedSectionMeta> = {};
  for (const key of structure.keys) {
    const lines = written.get(key)!;
    sections[key] = lines.map((l) => presentLine(l.text, language)).join('\n');
    sectionMeta[key] = {
      kind: structure.kinds[key],
      scheme: SECTION_PLANS[structure.kinds[key]].scheme,
      syllables: lines.map((l) => l.syllables),
      rhymeKeys: lines.map((l) => l.rhymeKey),
    };
  }
  const titleSource =
    [...written.entries()].find(([key]) => structure.kinds[key] === 'chorus' || structure.kinds[key] === 'hook')?.[1][0] ?? written.values().next().value?.[0];
  return {
    structure: sections,
    title: titleSource ? titleCase(titleSource.text, language) : undefined,
    meta: {
      modelVersion: model.version,
      language,
      seed: req.seed,
      order: structure.order,
      sections: sectionMeta,
      styleArtistIds,
      lexiconWords: [...biasByWord.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12)
        .map(([w]) => w),
      rhymedPairs,
      rhymePairsAsked,
      candidates: writer.stats.candidates,
      rejectedCopies: writer.stats.rejectedCopies,
      grammarLines,
      durationMs: Date.now() - started,
    },
  };
}

function presentLine(text: string, language: string): string {
  let out = text;
  if (language === 'en') out = out.replace(/\bi\b/g, 'I').replace(/\bi'(m|ll|ve|d)\b/g, "I'$1");
  return out.charAt(0).toLocaleUpperCase(language) + out.slice(1);
}

function titleCase(text: string, language: string): string {
  const words = presentLine(text, language).split(' ').slice(0, 6);
  return words.map((w) => w.charAt(0).toLocaleUpperCase(language) + w.slice(1)).join(' ');
}
