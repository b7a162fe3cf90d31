/**
 * Ids are opaque strings to clients (contract.md), but most of ours are stored in PostgreSQL `uuid` columns,
 * where comparing with text that is not a UUID is an error, not a miss. `idEq` turns such text into a
 * condition that matches nothing, so a lookup by any string answers "not found" instead of failing.
 */
import { eq, sql, type Column, type SQL } from 'drizzle-orm';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** `column = value` for a uuid column; FALSE when the value cannot be a uuid. */
export function idEq(column: Column, value: string): SQL {
  return isUuid(value) ? eq(column, value) : sql`false`;
}
