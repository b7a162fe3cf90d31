/**
 * At most `limit` calls of an async function run at once; the others wait their turn, first come first
 * served. (A dozen lines; not worth a dependency.)
 */
export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer; got ${limit}`);
  }

  /** Calls running now, and calls waiting for a turn. */
  get running(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await work();
    } finally {
      // The turn passes straight to the next caller, so `active` never drops and a newcomer cannot jump the queue.
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
