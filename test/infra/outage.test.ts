import { describe, expect, it } from 'vitest';
import { isServiceUnavailable } from '../../src/infra/outage.js';
import { toErrorResponse } from '../../src/http/error-handler.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isServiceUnavailable', () => {
  it('recognises a refused or reset connection, a connection SQLSTATE and the drivers own timeouts', () => {
    expect(isServiceUnavailable(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe(true);
    expect(isServiceUnavailable(withCode('read ECONNRESET', 'ECONNRESET'))).toBe(true);
    expect(isServiceUnavailable(withCode('terminating connection due to administrator command', '57P01'))).toBe(true);
    expect(isServiceUnavailable(withCode('the database system is starting up', '57P03'))).toBe(true);
    expect(isServiceUnavailable(withCode('connection failure', '08006'))).toBe(true);
    expect(isServiceUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isServiceUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isServiceUnavailable(new Error('Command timed out'))).toBe(true);
  });

  it('reads the cause chain (Drizzle wraps the driver error)', () => {
    const wrapped = new Error('Failed query: select 1', { cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED') });
    expect(isServiceUnavailable(wrapped)).toBe(true);
  });

  it('leaves bugs and data errors alone', () => {
    expect(isServiceUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isServiceUnavailable(withCode('duplicate key value violates unique constraint', '23505'))).toBe(false);
    expect(isServiceUnavailable(withCode('syntax error at or near "selct"', '42601'))).toBe(false);
    expect(isServiceUnavailable('ECONNREFUSED')).toBe(false);
  });

  it('makes the error handler answer 503 with Retry-After, not 500', () => {
    const failure = toErrorResponse(new Error('Failed query', { cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED') }));
    expect(failure).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: 5 });
    expect(toErrorResponse(new TypeError('x is undefined'))).toMatchObject({ status: 500 });
  });
});
