/** Helpers for the infra adapter tests: polling, sleeping, and a Redis that the tests clean up after. */
import { Redis } from 'ioredis';

export const REDIS_URL = process.env.REDIS_URL;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until the check passes (returns without throwing), or rethrows its last failure after the timeout. */
export async function eventually(check: () => void | Promise<void>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(20);
    }
  }
}

/** A plain connection for inspecting Redis from the outside (PUBSUB NUMSUB, CLIENT LIST, leftover keys). */
export function inspector(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 1 });
}

export async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

export async function deleteKeysUnder(redis: Redis, prefix: string): Promise<void> {
  const keys = await keysUnder(redis, prefix);
  if (keys.length > 0) await redis.del(...keys);
}

export async function clientNames(redis: Redis): Promise<string[]> {
  const list = (await redis.client('LIST')) as string;
  return list
    .split('\n')
    .map((line) => /(?:^| )name=(\S*)/.exec(line)?.[1] ?? '')
    .filter((name) => name !== '');
}
