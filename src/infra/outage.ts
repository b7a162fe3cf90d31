/**
 * Tells a failure of a backing service (PostgreSQL or Redis down, restarting or unreachable) from a bug, so
 * the HTTP layer answers it as 503 with Retry-After instead of a 500: the request did nothing wrong and a
 * retry in a few seconds may work. Drivers report these in their own ways (a socket error code, a SQLSTATE of
 * class 08 or 57P, an ioredis message), sometimes wrapped by Drizzle in a query error whose `cause` is the
 * driver's, so the whole cause chain is read.
 */

/** Socket-level failures: the service refused, reset or did not answer the connection. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTCONN', 'EAI_AGAIN']);

/**
 * PostgreSQL SQLSTATEs of a server that cannot serve now: class 08 (connection exception), 57P01-57P03
 * (admin shutdown, crash shutdown, cannot connect now), 53300 (too many connections).
 */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

/** What node-postgres and ioredis say when their connection is gone or a bounded wait ran out. */
const DRIVER_MESSAGES = [
  'timeout exceeded when trying to connect', // pg Pool: connectionTimeoutMillis
  'connection terminated', // pg: the server closed the connection
  'query read timeout', // pg: query_timeout
  'client has encountered a connection error',
  'command timed out', // ioredis: commandTimeout
  "stream isn't writeable", // ioredis: offline queue disabled
  'connection is closed', // ioredis
  'reached the max retries per request limit', // ioredis: MaxRetriesPerRequestError
];

export function isServiceUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || (/^[0-9A-Z]{5}$/.test(code) && isUnavailableSqlState(code)))) return true;
    const message = current.message.toLowerCase();
    if (DRIVER_MESSAGES.some((text) => message.includes(text))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
