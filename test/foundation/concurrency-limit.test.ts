import { describe, expect, it } from 'vitest';
import { decoyPasswordHash, passwordHashingLoad, verifyPassword } from '../../src/auth/passwords.js';
import { ConcurrencyLimit } from '../../src/lib/concurrency-limit.js';

/** A task the test finishes by hand. */
function gate<T>() {
  let open!: (value: T) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<T>((resolve, reject) => ((open = resolve), (fail = reject)));
  return { promise, open, fail };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ConcurrencyLimit', () => {
  it('runs at most `limit` calls at once and starts the others first come, first served', async () => {
    const limit = new ConcurrencyLimit(2);
    const gates = [gate<number>(), gate<number>(), gate<number>(), gate<number>()];
    const started: number[] = [];
    const results = gates.map((g, i) => limit.run(() => (started.push(i), g.promise)));
    const firstFails = expect(results[0]).rejects.toThrow('boom');
    await settle();
    expect(started).toEqual([0, 1]);
    expect([limit.running, limit.queued]).toEqual([2, 2]);
    gates[1].open(1);
    await settle();
    expect(started).toEqual([0, 1, 2]);
    gates[0].fail(new Error('boom'));
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
    gates[2].open(2);
    gates[3].open(3);
    await firstFails;
    expect(await Promise.all(results.slice(1))).toEqual([1, 2, 3]);
    expect([limit.running, limit.queued]).toEqual([0, 0]);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => new ConcurrencyLimit(0)).toThrow(RangeError);
    expect(() => new ConcurrencyLimit(1.5)).toThrow(RangeError);
  });
});

describe('password hashing', () => {
  it('computes at most two argon2 hashes at once, so libuv threads stay free for file I/O', async () => {
    const hash = await decoyPasswordHash();
    const checks = Array.from({ length: 5 }, () => verifyPassword(hash, 'wrong password'));
    expect(passwordHashingLoad()).toEqual({ running: 2, queued: 3 });
    expect(await Promise.all(checks)).toEqual([false, false, false, false, false]);
    expect(passwordHashingLoad()).toEqual({ running: 0, queued: 0 });
  });
});
