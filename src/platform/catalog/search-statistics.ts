/**
 * How many tracks a search's words probably match, from the planner's own statistics of tracks.search_vector:
 * ANALYZE (autovacuum on PostgreSQL, each start on PGlite) keeps the column's 1,000 commonest lexemes with their
 * frequencies in pg_stats.most_common_elems, the marked '§t'/'§n' copies included (drizzle/0022), so it knows how
 * common a word is anywhere, in titles and in names. A word not among them is rarer than the rarest that is.
 *
 * The estimate only steers TrackSearch's plan (whether a search is probably broad enough to start the broad path's
 * statement alongside the first one); what a search answers never depends on it, so stale statistics cost time,
 * never correctness. Read at most every STATISTICS_TTL_MS, in the background: a search never waits for it.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../infra/db/client.js';

const STATISTICS_TTL_MS = 5 * 60_000;

/** catalog_search_fold (drizzle/0022): lower case, then these letters folded to their base letter. */
const FOLD_FROM = 'àáâãäåāăąçćčďèéêëēėęěìíîïīįłñńňòóôõöøōőřśšşťùúûüūůűųýÿžźż';
const FOLD_TO = 'aaaaaaaaacccdeeeeeeeeiiiiiilnnnoooooooorssstuuuuuuuuyyzzz';
const FOLD = new Map([...FOLD_FROM].map((from, i) => [from, FOLD_TO[i]]));
/** The words the 'simple' parser would find, near enough for an estimate: runs of letters and digits. */
const WORDS = /[\p{L}\p{N}]+/gu;

/** Estimated matching tracks of the three tsqueries catalog_search_query builds from one text. */
export interface SearchEstimate {
  /** Every word, the last also as a prefix from two characters on. */
  match: number;
  /** Every word in the title, the artist's name or the release title. */
  names: number;
  /** Every word in the title. */
  title: number;
}

interface Snapshot {
  rows: number;
  frequencies: Map<string, number>;
  /** The listed lexemes in code-unit order with their frequencies, for prefixes (a binary search finds where one starts). */
  sorted: { lexeme: string; frequency: number }[];
  /** The rarest listed lexeme's frequency: a lexeme not listed is rarer. */
  floor: number;
}

interface StatisticsRow {
  rows: number | string | null;
  lexemes: string[] | null;
  frequencies: (number | string)[] | null;
}

/** The words of a search text as catalog_search_query sees them (folded, in order, repeats kept). */
export function searchWords(text: string): string[] {
  const folded = [...text.toLowerCase()].map((character) => FOLD.get(character) ?? character).join('');
  return folded.match(WORDS) ?? [];
}

export class SearchStatistics {
  private snapshot: Snapshot | null = null;
  /** When the statistics were last read (found or not): the next read waits STATISTICS_TTL_MS from it. */
  private readAt = -Infinity;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly db: DbOrTx,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The estimate for a text, from the statistics last read; null while none have been read (or ANALYZE has not
   * run yet). Starts a read in the background when they are missing or older than STATISTICS_TTL_MS.
   */
  estimate(text: string): SearchEstimate | null {
    const snapshot = this.snapshot;
    if (this.now() - this.readAt >= STATISTICS_TTL_MS) void this.refresh().catch(() => undefined);
    const words = searchWords(text);
    if (!snapshot || words.length === 0) return null;
    const exact = (lexeme: string) => snapshot.frequencies.get(lexeme) ?? snapshot.floor / 2;
    const last = words[words.length - 1];
    const distinct = [...new Set(words)];
    const match = distinct.reduce((product, word) => product * (word === last && word.length >= 2 ? this.prefixFrequency(snapshot, word) : exact(word)), 1);
    const marked = (mark: string) => distinct.reduce((product, word) => product * exact(mark + word), 1);
    return { match: snapshot.rows * match, names: snapshot.rows * marked('§n'), title: snapshot.rows * marked('§t') };
  }

  /** Reads the statistics now (one read at a time); keeps the last ones if the read fails. */
  refresh(): Promise<void> {
    // A failed read counts as a read too, so a failing database is not asked again at every search.
    this.reading ??= this.read()
      .catch((error: unknown) => {
        this.readAt = this.now();
        throw error;
      })
      .finally(() => (this.reading = null));
    return this.reading;
  }

  private async read(): Promise<void> {
    const result = await this.db.execute(sql`
      select greatest(c.reltuples, 0)::float8 as rows, s.most_common_elems::text::text[] as lexemes,
             s.most_common_elem_freqs as frequencies
        from pg_class c
        left join pg_stats s on s.schemaname = c.relnamespace::regnamespace::text and s.tablename = c.relname and s.attname = 'search_vector'
       where c.oid = 'tracks'::regclass`);
    // Db is driver-neutral (PgQueryResultHKT), so execute()'s result is opaque; both drivers (pg, PGlite) answer { rows } for a select.
    const row = (result as unknown as { rows: StatisticsRow[] }).rows[0];
    this.readAt = this.now();
    if (!row?.lexemes || !row.frequencies || !row.rows) {
      this.snapshot = null;
      return;
    }
    // tsvector statistics list each lexeme's frequency, then the lowest and the highest of them (ts_typanalyze).
    const frequencies = new Map<string, number>();
    row.lexemes.forEach((lexeme, i) => frequencies.set(lexeme, Number(row.frequencies![i])));
    const floor = Number(row.frequencies[row.lexemes.length]);
    const sorted = [...frequencies]
      .map(([lexeme, frequency]) => ({ lexeme, frequency }))
      .sort((a, b) => (a.lexeme < b.lexeme ? -1 : a.lexeme > b.lexeme ? 1 : 0));
    this.snapshot = { rows: Number(row.rows), frequencies, sorted, floor };
  }

  /** A prefix's share: the listed lexemes it starts (a document holding two of them is counted twice), at most all. */
  private prefixFrequency(snapshot: Snapshot, prefix: string): number {
    const { sorted } = snapshot;
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (sorted[middle].lexeme < prefix) low = middle + 1;
      else high = middle;
    }
    let sum = 0;
    for (let i = low; i < sorted.length && sorted[i].lexeme.startsWith(prefix); i++) sum += sorted[i].frequency;
    return Math.min(1, sum || snapshot.floor / 2);
  }
}
