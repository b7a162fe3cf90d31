/**
 * A hot read built once by Drizzle and run as a named prepared statement with as little per-call work as the
 * driver allows (bench/README.md, HTTP: the uncached track read).
 *
 * On node-postgres the statement goes straight to the pool: Drizzle's prepared `execute` wraps every call in
 * three tracing spans, a cache lookup, a placeholder scan with entity checks, a per-field type-parser setup
 * and a row mapper, several microseconds per request for a statement that selects one json value. On PGlite
 * (no named statements in its Drizzle driver) it is Drizzle's prepared query as before.
 *
 * Only for statements whose selection is plain `sql` values with an alias (`sql\`...\`.as('name')`): their
 * rows come back as node-postgres parses them (json as objects, text as strings), with no Drizzle column
 * decoders, which a selection of table columns would need.
 */
import { Param, Placeholder, is } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from './client.js';

/** What a Drizzle select offers that this needs: its SQL with placeholders, and a prepared form. */
interface BuiltQuery<Row> {
  toSQL(): { sql: string; params: unknown[] };
  prepare(name: string): { execute(values?: Record<string, unknown>): Promise<Row[]> };
}

export type NamedStatement<Row> = (values: Record<string, unknown>) => Promise<Row[]>;

/** One parameter of the statement: a placeholder filled per call, or a value fixed when it was built. */
type Slot = { placeholder: string } | { value: unknown };

function slotOf(param: unknown): Slot {
  if (is(param, Placeholder)) return { placeholder: param.name };
  if (is(param, Param) && is(param.value, Placeholder)) return { placeholder: param.value.name };
  return { value: param };
}

export function namedStatement<Row>(db: Db, name: string, query: BuiltQuery<Row>): NamedStatement<Row> {
  // Drizzle's node-postgres database keeps its pool as `$client`; PgDatabase's type does not declare it.
  const client = (db as { $client?: unknown }).$client;
  if (!(client instanceof pg.Pool)) {
    const prepared = query.prepare(name);
    return (values) => prepared.execute(values);
  }
  const { sql: text, params } = query.toSQL();
  const slots = params.map(slotOf);
  return async (values) => {
    const filled = slots.map((slot) => {
      if ('value' in slot) return slot.value;
      if (!(slot.placeholder in values)) throw new Error(`No value for placeholder "${slot.placeholder}" of ${name}`);
      return values[slot.placeholder];
    });
    // A Query built from the text alone, then named: node-postgres copies a config object's property
    // descriptors for every query (normalizeQueryConfig), a few µs per request; a string is not copied.
    // The pool answers a Query with its result, as it does a config (its types say otherwise).
    const query = Object.assign(new pg.Query(text, filled), { name });
    const result = (await (client.query(query) as unknown as Promise<pg.QueryResult>)) satisfies pg.QueryResult;
    return result.rows as Row[];
  };
}
