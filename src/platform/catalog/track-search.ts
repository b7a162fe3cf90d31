/**
 * Catalog search (GET /v1/tracks?q=): PostgreSQL full-text search over each track's search document
 * (tracks.search_vector: title, artist name, release title, genre; GIN-indexed, kept by triggers: see
 * drizzle/0022_artists_albums_search.sql), the same on PGlite and PostgreSQL.
 *
 * Matching: every word of the query must appear as a word, the last one also as the start of a word from two
 * characters on, since it may still be being typed ("paper radi" finds "Paper Lantern" by Quiet Radiator), case-
 * and accent-insensitively ("rio" finds "Río"). Punctuation separates words and is otherwise ignored, so a query without a letter or a digit
 * matches nothing.
 *
 * Ranking, in tiers: (3) every word is a whole word of the title; (2) every word is a whole word of the title,
 * the artist's name or the release title; (1) the other matches (prefixes, genre). Within a tier the most
 * streamed first, then title and id, so pages never overlap.
 *
 * A search yields at most its MAX_SEARCH_RESULTS best matches (`total` is exact up to that many, and that many
 * beyond), which bounds the work of any query, however common its words. Each search is one statement (two the
 * first time a broad one is seen), answering the page's rows as one json value each (bench/README.md, catalog search):
 * - the first takes up to MAX_SEARCH_RESULTS + 1 matches from the GIN index, ranks and counts them, and joins the
 *   page's rows: when there are no more than MAX_SEARCH_RESULTS, that is the page and the exact total (most
 *   searches);
 * - a broader search ("the", a genre) is served tier by tier, each read most streamed first and stopped once the
 *   page is full. A tier that the first statement's matches show to be common is read along tracks_popularity_idx
 *   within the WALK_ROWS most streamed tracks (a few rows per hit); a rare one, or one the walk did not fill, from
 *   the GIN index and sorted (as many rows as the tier has). The choice is made here, not by the planner, whose
 *   cost model puts a walk's filtered rows at a fraction of their real cost.
 * A search found broad is remembered for BROAD_MEMORY_MS on this instance (its tsqueries, its tiers' shares, and
 * which tiers a walk could not fill), so the common words that make most broad searches skip the first statement
 * while it lasts; its total meanwhile says MAX_SEARCH_RESULTS even if removals brought the matches under it.
 * On PostgreSQL, the first search of a text that the table's statistics say is broad (search-statistics.ts) runs
 * the two statements side by side on two connections instead of one after the other; the first still decides.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../infra/db/client.js';
import { SearchStatistics, type SearchEstimate } from './search-statistics.js';
import { trackSummaryJson, type TrackSummaryRow } from './track-columns.js';

export const MAX_SEARCH_RESULTS = 1000;
/** How far a walk along the popularity index goes before the GIN index is asked instead (per row wanted: WALK_ROWS_PER_ROW). */
const WALK_ROWS = 2000;
/**
 * 40, not 20: a deep page of a common word (page 5 of "in", 4% of titles) walked 2,000 rows, fell short of 100
 * and sorted the word's 3,900 title matches from the GIN index (8-9 ms); walking 4,000 rows fills it (4 ms).
 */
const WALK_ROWS_PER_ROW = 40;
/** A tier holding at least this share of the first statement's matches is walked; a rarer one read from the GIN index. */
const WALK_SHARE = 0.05;
const BROAD_MEMORY_MS = 60_000;
const BROAD_MEMORY_SIZE = 10_000;
const TIERS = [3, 2, 1] as const;

/** At least one letter or digit in any script: otherwise the parser finds no word and nothing can match. */
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

export function hasSearchWords(text: string): boolean {
  return WORD_CHARACTER.test(text);
}

interface Queries {
  match: SQL;
  names: SQL;
  title: SQL;
}

type Tier = (typeof TIERS)[number];

interface BroadSearch {
  /** The text's three tsqueries, as the first statement computed them: later statements pass them as constants. */
  queries: Queries;
  /** Each tier's share of the first statement's matches. */
  shares: Record<Tier, number>;
  /** The fewest rows a walk of the tier was asked for and could not find: asked for as many, the index is read at once. */
  walkShortAt: Partial<Record<Tier, number>>;
  until: number;
}

/** The first statement's one row: the counts among the first MAX_SEARCH_RESULTS + 1 matches, the page, the tsqueries. */
interface RankedRow {
  matches: number;
  title_hits: number;
  name_hits: number;
  rows: TrackSummaryRow[] | string | null;
  match_query: string | null;
  names_query: string | null;
  title_query: string | null;
}

/** A broad search's statement: the best `wanted` matches in rank order, the page's rows with their summary. */
interface FoundRow {
  id: string;
  tier: Tier;
  walked: boolean;
  doc: TrackSummaryRow | string | null;
}

/** node-postgres parses json, PGlite's driver may hand it over as text. */
const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
const searchVector = sql.raw('tracks.search_vector');

/**
 * The text's three tsqueries (catalog_search_query, PL/pgSQL, its plan kept per session): immutable, so each is
 * computed once when the statement is planned, and the planner sees the real words.
 */
function queriesOf(text: string): Queries {
  return {
    match: sql`catalog_search_query(${text}, 'match')`,
    names: sql`catalog_search_query(${text}, 'names')`,
    title: sql`catalog_search_query(${text}, 'title')`,
  };
}

/** The tsqueries the first statement computed, as constants (a bound parameter cast is folded when planning). */
function constantQueries(row: RankedRow): Queries {
  return { match: sql`${row.match_query}::tsquery`, names: sql`${row.names_query}::tsquery`, title: sql`${row.title_query}::tsquery` };
}

/** The tier's condition on a search document (tracks.search_vector, or a subquery's copy of it). */
function tierCondition(queries: Queries, tier: Tier, v: SQL = searchVector): SQL {
  if (tier === 3) return sql`${v} @@ ${queries.title}`;
  if (tier === 2) return sql`${v} @@ ${queries.names} and not ${v} @@ ${queries.title}`;
  return sql`${v} @@ ${queries.match} and not ${v} @@ ${queries.names}`;
}

export interface TrackSearchOptions {
  /**
   * Whether two statements of one search can run at once (a PostgreSQL pool). PGlite runs one at a time, so
   * starting the broad path early would only add work whenever the guess is wrong.
   */
  concurrentStatements: boolean;
}

export interface SearchRequest {
  text: string;
  /** The other conditions on tracks (environment, published, genre, artist). */
  where: SQL[];
  limit: number;
  offset: number;
  /** Names the text and the filters: what a broad search is remembered by. */
  key: string;
  /** The filters keep the whole live catalog, which the table's statistics describe (no genre, artist...). */
  wholeCatalog: boolean;
}

export class TrackSearch {
  /** Broad searches by key (text and filters), until when they are remembered, and what was learned of their tiers. */
  private readonly broad = new Map<string, BroadSearch>();
  private readonly statistics: SearchStatistics;

  constructor(
    private readonly db: DbOrTx,
    private readonly options: TrackSearchOptions = { concurrentStatements: false },
  ) {
    this.statistics = new SearchStatistics(db);
  }

  /** One page of matches, in rank order, and the total (at most MAX_SEARCH_RESULTS). */
  async page(request: SearchRequest): Promise<{ rows: TrackSummaryRow[]; total: number }> {
    const { text, limit, offset, key } = request;
    const filter = sql.join(request.where, sql` and `);
    const now = Date.now();
    let broad = this.broad.get(key);
    if (!broad || broad.until <= now) {
      const guess = this.options.concurrentStatements && request.wholeCatalog && offset < MAX_SEARCH_RESULTS ? this.statistics.estimate(text) : null;
      if (guess && guess.match > MAX_SEARCH_RESULTS) return this.probablyBroad(request, filter, guess, now);
      const first = await this.ranked(queriesOf(text), filter, limit, offset);
      if (first.matches <= MAX_SEARCH_RESULTS) return { rows: first.rows ? json(first.rows) : [], total: first.matches };
      broad = this.remember(key, first, now);
    }
    if (offset >= MAX_SEARCH_RESULTS) return { rows: [], total: MAX_SEARCH_RESULTS };
    return { rows: await this.tierByTier(broad, filter, limit, offset), total: MAX_SEARCH_RESULTS };
  }

  /**
   * The first search of a text the statistics say is broad: the first statement, which tells whether it is, and
   * the broad path's page at once, side by side on two connections (tiers guessed common from the statistics
   * are walked). If the first finds no more than MAX_SEARCH_RESULTS matches after all, its page is the answer
   * and the other is dropped; either way the answer is what the two statements in turn would have given.
   */
  private async probablyBroad(request: SearchRequest, filter: SQL, guess: SearchEstimate, now: number): Promise<{ rows: TrackSummaryRow[]; total: number }> {
    const queries = queriesOf(request.text);
    const title = Math.min(guess.title, guess.match);
    const names = Math.min(Math.max(guess.names - title, 0), guess.match - title);
    const provisional: BroadSearch = {
      queries,
      shares: { 3: title / guess.match, 2: names / guess.match, 1: 1 - (title + names) / guess.match },
      walkShortAt: {},
      until: now,
    };
    const [first, rows] = await Promise.all([
      this.ranked(queries, filter, request.limit, request.offset),
      this.tierByTier(provisional, filter, request.limit, request.offset),
    ]);
    if (first.matches <= MAX_SEARCH_RESULTS) return { rows: first.rows ? json(first.rows) : [], total: first.matches };
    this.remember(request.key, first, now).walkShortAt = provisional.walkShortAt;
    return { rows, total: MAX_SEARCH_RESULTS };
  }

  /** A search the first statement found broad, with its tsqueries and its tiers' shares among those matches. */
  private remember(key: string, first: RankedRow, now: number): BroadSearch {
    const shares: Record<Tier, number> = {
      3: first.title_hits / first.matches,
      2: first.name_hits / first.matches,
      1: (first.matches - first.title_hits - first.name_hits) / first.matches,
    };
    if (this.broad.size >= BROAD_MEMORY_SIZE) this.broad.clear();
    const broad: BroadSearch = { queries: constantQueries(first), shares, walkShortAt: {}, until: now + BROAD_MEMORY_MS };
    this.broad.set(key, broad);
    return broad;
  }

  /**
   * One statement: up to MAX_SEARCH_RESULTS + 1 matches from the GIN index, their count and each tier's, the page
   * ranked among them with its rows, and the tsqueries. Right whenever the matches are no more than MAX_SEARCH_RESULTS.
   */
  private async ranked(queries: Queries, filter: SQL, limit: number, offset: number): Promise<RankedRow> {
    const v = searchVector;
    const result = await this.db.execute(sql`
      with candidates as materialized (
        select tracks.id, tracks.streams, tracks.title,
               case when ${v} @@ ${queries.title} then 3 when ${v} @@ ${queries.names} then 2 else 1 end as tier
          from tracks
         where ${filter} and ${v} @@ ${queries.match}
         limit ${MAX_SEARCH_RESULTS + 1}
      ), page as (
        select * from candidates order by tier desc, streams desc, title, id limit ${limit} offset ${offset}
      )
      select (select count(*)::int from candidates) as matches,
             (select count(*)::int from candidates where tier = 3) as title_hits,
             (select count(*)::int from candidates where tier = 2) as name_hits,
             (select json_agg(${trackSummaryJson} order by p.tier desc, p.streams desc, p.title, p.id)
                from page p join tracks t on t.id = p.id join artists a on a.id = t.artist_id) as rows,
             ${queries.match}::text as match_query, ${queries.names}::text as names_query, ${queries.title}::text as title_query`);
    return rowsOf<RankedRow>(result)[0];
  }

  /**
   * The page of a broad search, in one statement: each tier in turn, most streamed first, under one LIMIT of the
   * rows up to the page's end, so that a tier is read only if those before it did not fill the page (an Append
   * runs its branches in order and stops when its LIMIT is reached). A tier that the first statement's matches
   * show to be common is walked along tracks_popularity_idx within the WALK_ROWS (or more, for deep pages) most
   * streamed tracks; what such a walk finds is the start of the tier in rank order (every track of the tier
   * streamed more is among those walked), and if it finds too few the GIN index gives the rest, sorted. A rare
   * tier is read from the GIN index at once. Only the page's rows are joined to their artists and summarised.
   */
  private async tierByTier(broad: BroadSearch, filter: SQL, limit: number, offset: number): Promise<TrackSummaryRow[]> {
    const wanted = Math.min(offset + limit, MAX_SEARCH_RESULTS);
    const walks: SQL[] = [];
    const branches: SQL[] = [];
    const walked = new Set<Tier>();
    for (const tier of TIERS) {
      const condition = tierCondition(broad.queries, tier);
      // tracks.streams + 0: the expression keeps the planner off the popularity walk for a read from the GIN index.
      const fromIndex = (skip: SQL) => sql`(select tracks.id, tracks.streams, tracks.title, ${sql.raw(String(tier))} as tier, false as walked
          from tracks where ${filter} and ${condition}
         order by tracks.streams + 0 desc, tracks.title, tracks.id limit ${wanted} offset ${skip})`;
      if (broad.shares[tier] >= WALK_SHARE && wanted < (broad.walkShortAt[tier] ?? Infinity)) {
        const walk = sql.raw(`walk${tier}`);
        walks.push(sql`${walk} as materialized (
          select top.id, top.streams, top.title from (
            select tracks.id, tracks.streams, tracks.title, tracks.search_vector from tracks where ${filter}
             order by tracks.streams desc, tracks.title, tracks.id limit ${Math.max(WALK_ROWS, wanted * WALK_ROWS_PER_ROW)}
          ) top
          where ${tierCondition(broad.queries, tier, sql.raw('top.search_vector'))}
          order by top.streams desc, top.title, top.id limit ${wanted})`);
        branches.push(sql`(select id, streams, title, ${sql.raw(String(tier))} as tier, true as walked from ${walk})`);
        branches.push(fromIndex(sql`(select count(*) from ${walk})`));
        walked.add(tier);
      } else {
        branches.push(fromIndex(sql`0`));
      }
    }
    const result = await this.db.execute(sql`
      with ${sql.join([...walks, sql`found as (select * from (${sql.join(branches, sql` union all `)}) branches limit ${wanted})`], sql`, `)}
      select f.id, f.tier, f.walked,
             case when row_number() over (order by f.tier desc, f.streams desc, f.title, f.id) > ${offset}
                  then (select ${trackSummaryJson} from tracks t join artists a on a.id = t.artist_id where t.id = f.id) end as doc
        from found f
       order by f.tier desc, f.streams desc, f.title, f.id`);
    const found = rowsOf<FoundRow>(result);
    this.learnShortWalks(broad, found, walked, wanted);
    return found.flatMap((row) => (row.doc === null ? [] : [json(row.doc)]));
  }

  /** A walked tier that gave fewer rows than were still wanted when it was reached: next time, the index at once. */
  private learnShortWalks(broad: BroadSearch, found: FoundRow[], walked: Set<Tier>, wanted: number): void {
    let before = 0;
    for (const tier of TIERS) {
      const ofTier = found.filter((row) => row.tier === tier);
      const need = wanted - before;
      if (need > 0 && walked.has(tier)) {
        const fromWalk = ofTier.filter((row) => row.walked).length;
        if (fromWalk < need) broad.walkShortAt[tier] = Math.min(need, broad.walkShortAt[tier] ?? Infinity);
      }
      before += ofTier.length;
    }
  }
}
