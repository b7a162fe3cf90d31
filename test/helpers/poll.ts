/** Waiting for something in a test: poll for the thing itself, never sleep and hope. */

/**
 * Reads until `done` holds; on timeout fails naming what never happened and the last value read. `intervalMs`:
 * time between reads (a few milliseconds where a suite watches a fast race, e.g. leader hand-over).
 */
export async function pollUntil<T>(what: string, read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 30_000, intervalMs = 50): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`${what}: not within ${timeoutMs} ms; last read ${JSON.stringify(value).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
