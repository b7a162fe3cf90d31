/**
 * CPU priority of the engine's worker threads. Rendering, analysis and training keep a core busy for
 * minutes; at the same priority they take CPU time from the thread that serves the API and from libuv's
 * pool, where argon2 verifies passwords, so a login can wait seconds behind a render. A worker thread
 * lowers its own priority (a higher nice value) as the first thing it does: when the API needs the CPU it
 * gets it, and when the API is idle the engine still has every spare cycle, so it runs at full speed.
 *
 * Only on Linux, where the nice value belongs to each thread: setpriority(PRIO_PROCESS, tid) changes that
 * one thread, and the thread's id is readable from /proc/thread-self. Elsewhere (macOS, the BSDs, Windows)
 * setpriority or SetPriorityClass act on the whole process, which would slow the API as well, so nothing
 * is changed there. Raising one's own nice value needs no privilege; lowering it back would, and is never
 * needed: a replaced worker is a new thread.
 */
import { readlinkSync, stat } from 'node:fs';
import { setPriority } from 'node:os';

/** Nice value of engine worker threads (0 normal, 19 lowest); 10 is the usual "background job" level. */
export const ENGINE_THREAD_NICENESS = 10;

/** The calling thread's id on Linux (its task id under /proc), or null elsewhere. */
export function currentThreadId(): number | null {
  if (process.platform !== 'linux') return null;
  try {
    // "/proc/thread-self" links to "<pid>/task/<tid>".
    const match = /^(\d+)\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'));
    return match && Number(match[1]) === process.pid ? Number(match[2]) : null;
  } catch {
    return null;
  }
}

/**
 * Gives the calling worker thread the nice value `niceness` (and threads it starts later inherit it).
 * Returns the thread id changed, or null when the platform cannot change one thread alone, when called
 * on the main thread (that would slow the API), or when the system refuses.
 */
export function lowerThisThreadPriority(niceness: number): number | null {
  const tid = currentThreadId();
  if (tid === null || tid === process.pid || niceness <= 0) return null;
  try {
    setPriority(tid, Math.min(19, Math.floor(niceness)));
    return tid;
  } catch {
    return null; // a sandbox may forbid it; the engine still works at normal priority
  }
}

/**
 * A new thread inherits the nice value of the thread that creates it, and libuv creates its thread pool
 * (file I/O, WebCrypto, argon2) on the first request for it, from whichever thread asks first. Calling this
 * on the main thread before starting low-priority workers makes sure that pool is started here, at normal
 * priority, and never by a worker after it lowered itself. Cheap and idempotent.
 */
let poolStarted = false;
export function startThreadPoolHere(): void {
  if (poolStarted) return;
  poolStarted = true;
  stat(process.execPath, () => undefined); // queues one request on the pool, which starts it synchronously
}
