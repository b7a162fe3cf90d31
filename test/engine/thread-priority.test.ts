import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EngineWorkerPool } from '../../src/engine/worker/engine-worker-pool.js';
import { ENGINE_THREAD_NICENESS, currentThreadId, lowerThisThreadPriority } from '../../src/engine/worker/thread-priority.js';

/** Nice value of each thread of this process, by thread id (Linux: field 19 of /proc/self/task/<tid>/stat). */
function threadNiceness(): Map<number, number> {
  const nice = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      nice.set(Number(tid), Number(fields[16]));
    } catch {
      // the thread ended while we listed
    }
  }
  return nice;
}

const artifacts = { read: async () => Buffer.alloc(0) };

describe.runIf(process.platform === 'linux')('engine worker thread priority (Linux)', () => {
  it('never lowers the main thread', () => {
    expect(currentThreadId()).toBe(process.pid);
    expect(lowerThisThreadPriority(ENGINE_THREAD_NICENESS)).toBeNull();
    expect(threadNiceness().get(process.pid)).toBe(0);
  });

  it('runs worker threads at the engine niceness while the main thread stays at normal priority', async () => {
    const before = threadNiceness();
    const pool = new EngineWorkerPool({ artifacts, size: 1 });
    try {
      // Any task starts the worker; this one fails on its empty input, which is fine here.
      await pool.run('generateLyrics', {} as never).catch(() => undefined);
      const after = threadNiceness();
      const lowered = [...after].filter(([tid, nice]) => !before.has(tid) && nice === ENGINE_THREAD_NICENESS);
      expect(lowered.length).toBeGreaterThanOrEqual(1);
      expect(after.get(process.pid)).toBe(0);
      // Threads that existed before (libuv's pool among them) keep their priority.
      for (const [tid, nice] of before) if (after.has(tid)) expect(after.get(tid)).toBe(nice);
    } finally {
      await pool.close();
    }
  });

  it('leaves workers at normal priority when told to', async () => {
    const before = threadNiceness();
    const pool = new EngineWorkerPool({ artifacts, size: 1, niceness: 0 });
    try {
      await pool.run('generateLyrics', {} as never).catch(() => undefined);
      const fresh = [...threadNiceness()].filter(([tid]) => !before.has(tid));
      expect(fresh.length).toBeGreaterThanOrEqual(1);
      expect(fresh.every(([, nice]) => nice === 0)).toBe(true);
    } finally {
      await pool.close();
    }
  });
});
