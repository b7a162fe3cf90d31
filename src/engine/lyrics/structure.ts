/**
 * Song structure strings ("verse-chorus-verse-chorus-bridge-chorus") to section keys. Sections that return
 * unchanged in a song (chorus, pre-chorus, hook, refrain) keep one key, so a repeated chorus is the same
 * text; verses are numbered (verse_1, verse_2), other sections are numbered only when they occur twice.
 */
import { InvalidStructureError, UnknownSectionError } from './errors.js';

export const SECTION_KINDS = ['intro', 'verse', 'pre_chorus', 'chorus', 'hook', 'refrain', 'bridge', 'outro'] as const;
export type SectionKind = (typeof SECTION_KINDS)[number];

const REPEATING: ReadonlySet<SectionKind> = new Set(['chorus', 'pre_chorus', 'hook', 'refrain']);
const ALIASES: Record<string, SectionKind> = {
  prechorus: 'pre_chorus',
  pre_chorus: 'pre_chorus',
  coro: 'chorus',
  estribillo: 'chorus',
  verso: 'verse',
  estrofa: 'verse',
  puente: 'bridge',
};

/** A synchronous request must stay well under 60 s; 16 sections is already a long song. */
export const MAX_SECTIONS = 16;

export interface SongStructure {
  /** Keys in singing order, repeats included: ["verse_1", "chorus", "verse_2", "chorus", "bridge", "chorus"]. */
  order: string[];
  /** Distinct keys in first-appearance order: the keys of the lyrics response. */
  keys: string[];
  kinds: Record<string, SectionKind>;
}

export function parseStructure(structure: string): SongStructure {
  const kinds = splitKinds(structure);
  if (kinds.length === 0) throw new InvalidStructureError('structure is empty');
  if (kinds.length > MAX_SECTIONS) throw new InvalidStructureError(`structure has ${kinds.length} sections; at most ${MAX_SECTIONS}`);
  const totals = new Map<SectionKind, number>();
  for (const k of kinds) totals.set(k, (totals.get(k) ?? 0) + 1);
  const seen = new Map<SectionKind, number>();
  const order: string[] = [];
  const keyKinds: Record<string, SectionKind> = {};
  for (const kind of kinds) {
    const n = (seen.get(kind) ?? 0) + 1;
    seen.set(kind, n);
    let key: string = kind;
    if (!REPEATING.has(kind) && (kind === 'verse' || totals.get(kind)! > 1)) key = `${kind}_${n}`;
    order.push(key);
    keyKinds[key] = kind;
  }
  return { order, keys: [...new Set(order)], kinds: keyKinds };
}

/** Items are separated by "-", ",", "|" or spaces; "pre-chorus" (hyphenated) is one item. */
function splitKinds(structure: string): SectionKind[] {
  const raw = structure
    .toLowerCase()
    .split(/[\s,|>+-]+/)
    .filter((x) => x.length > 0);
  const out: SectionKind[] = [];
  for (let i = 0; i < raw.length; i++) {
    let item = raw[i].replace(/_?\d+$/, '');
    if (item === 'pre' && raw[i + 1]?.replace(/_?\d+$/, '') === 'chorus') {
      item = 'pre_chorus';
      i++;
    }
    out.push(toKind(item));
  }
  return out;
}

function toKind(item: string): SectionKind {
  if ((SECTION_KINDS as readonly string[]).includes(item)) return item as SectionKind;
  const alias = ALIASES[item];
  if (alias) return alias;
  throw new UnknownSectionError(item, SECTION_KINDS);
}
