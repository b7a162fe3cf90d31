/** What a database error means, whichever driver raised it (PGlite or node-postgres) and however Drizzle wrapped it. */

const UNIQUE_VIOLATION = '23505';

/** True when a query failed on a unique constraint, wherever the driver or Drizzle put the SQLSTATE. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === UNIQUE_VIOLATION) return true;
  }
  return false;
}
