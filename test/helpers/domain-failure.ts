import { expect } from 'vitest';
import { DomainError } from '../../src/errors.js';

/**
 * The DomainError a call rejects with, as its kind and code (what the HTTP layer maps): the fast tier's way to
 * assert a service's refusal without an HTTP round trip. Fails the test when the call succeeds or throws
 * anything else.
 */
export async function domainFailure(work: Promise<unknown>): Promise<{ kind: string; code: string }> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  const { kind, code } = error as DomainError;
  return { kind, code };
}
