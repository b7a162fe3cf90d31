/**
 * A pool of worker_threads that runs the engine's named tasks (protocol.ts), so nothing CPU-heavy runs on
 * the API's event loop. Bounded size (default: cores - 1, at least 1) with a FIFO queue; one task per
 * worker at a time. A crash or a timeout fails only the task that was running in that worker: the worker
 * is discarded and a fresh one is started on demand.
 *
 * Besides progress, a task can report events (training epochs, checkpoints). They are handed to the
 * caller's onEvent one at a time, in order, and the worker waits for each to be handled before it goes on,
 * so a checkpoint is persisted before the next epoch starts. A caller's shouldStop() is polled every
 * STOP_POLL_MS (and after each event); once true, the worker's stop flag is raised.
 *
 * Worker threads run at a lower CPU priority than the API's thread (thread-priority.ts; Linux only), so a
 * render or a training run uses the spare CPU and never the serving thread's.
 *
 * Workers ask for artifact bytes when they have no parsed copy cached; the pool reads them through the
 * ArtifactSource and the worker checks their sha256 before parsing.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ArtifactRef, ArtifactSource } from '../engine.js';
import { EngineError, toEngineError } from '../errors.js';
import type { ProgressFn } from '../types.js';
import type { FromWorker, TaskEvent, TaskInput, TaskName, TaskOutput, ToWorker } from './protocol.js';
import { ENGINE_THREAD_NICENESS, startThreadPoolHere } from './thread-priority.js';

export interface EngineWorkerPoolOptions {
  artifacts: ArtifactSource;
  size?: number;
  /** Default per-task limit; a task still running after this is killed with its worker. */
  taskTimeoutMs?: number;
  /** Nice value of the worker threads (default ENGINE_THREAD_NICENESS; 0 keeps normal priority). */
  niceness?: number;
  /** Lets tests ask a worker to crash; never enabled in production wiring. */
  allowFaultInjection?: boolean;
}

export interface TaskOptions {
  onProgress?: ProgressFn;
  /** Awaited in order; the worker waits until it returns. A throw fails the task with that error. */
  onEvent?(event: TaskEvent): void | Promise<void>;
  shouldStop?(): boolean;
  /** Overrides the pool's limit; null runs without a limit (training). */
  timeoutMs?: number | null;
  injectFault?: 'crash';
}

export interface PoolStats {
  size: number;
  workers: number;
  busy: number;
  queued: number;
  /** Tasks that crashed their worker / timed out within the last `FAILURE_WINDOW_MS`. */
  recentCrashes: number;
  recentTimeouts: number;
}

interface Task {
  id: number;
  name: TaskName;
  input: unknown;
  options: TaskOptions;
  stopFlag: Int32Array;
  /** Event hooks run one after another on this chain. */
  events: Promise<void>;
  hookError: { error: unknown } | null;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
  timer: NodeJS.Timeout | null;
  stopPoll: NodeJS.Timeout | null;
}

const WORKER_ENTRY = new URL('./engine-worker.mjs', import.meta.url);
const DEFAULT_TASK_TIMEOUT_MS = 5 * 60_000;
const STOP_POLL_MS = 200;
export const FAILURE_WINDOW_MS = 5 * 60_000;

export function defaultPoolSize(): number {
  return Math.max(1, availableParallelism() - 1);
}

export class EngineWorkerPool {
  readonly size: number;
  private readonly artifacts: ArtifactSource;
  private readonly taskTimeoutMs: number;
  private readonly allowFaultInjection: boolean;
  private readonly niceness: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private readonly crashes: number[] = [];
  private readonly timeouts: number[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: EngineWorkerPoolOptions) {
    this.artifacts = options.artifacts;
    this.size = Math.max(1, Math.floor(options.size ?? defaultPoolSize()));
    this.taskTimeoutMs = options.taskTimeoutMs ?? DEFAULT_TASK_TIMEOUT_MS;
    this.allowFaultInjection = options.allowFaultInjection ?? false;
    this.niceness = options.niceness ?? ENGINE_THREAD_NICENESS;
  }

  run<N extends TaskName>(name: N, input: TaskInput<N>, options: TaskOptions = {}): Promise<TaskOutput<N>> {
    if (this.closed) return Promise.reject(EngineError.shutdown(name));
    if (options.injectFault && !this.allowFaultInjection) return Promise.reject(new Error('fault injection is disabled on this pool'));
    return new Promise<TaskOutput<N>>((resolve, reject) => {
      this.queue.push({
        id: this.nextId++,
        name,
        input,
        options,
        stopFlag: new Int32Array(new SharedArrayBuffer(4)),
        events: Promise.resolve(),
        hookError: null,
        resolve: resolve as (result: unknown) => void,
        reject,
      });
      this.dispatch();
    });
  }

  stats(): PoolStats {
    const since = Date.now() - FAILURE_WINDOW_MS;
    return {
      size: this.size,
      workers: this.slots.length,
      busy: this.slots.filter((s) => s.task).length,
      queued: this.queue.length,
      recentCrashes: this.crashes.filter((t) => t >= since).length,
      recentTimeouts: this.timeouts.filter((t) => t >= since).length,
    };
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(EngineError.shutdown(task.name));
    await Promise.all(this.slots.slice().map((slot) => this.retire(slot, slot.task ? EngineError.shutdown(slot.task.name) : null)));
  }

  private dispatch(): void {
    while (this.queue.length > 0 && !this.closed) {
      let slot = this.slots.find((s) => s.task === null);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const task = this.queue.shift()!;
      this.start(slot, task);
    }
  }

  private start(slot: Slot, task: Task): void {
    slot.task = task;
    const timeoutMs = task.options.timeoutMs === undefined ? this.taskTimeoutMs : task.options.timeoutMs;
    if (timeoutMs !== null) {
      slot.timer = setTimeout(() => {
        this.timeouts.push(Date.now());
        void this.retire(slot, EngineError.timeout(task.name, timeoutMs));
      }, timeoutMs);
    }
    if (task.options.shouldStop) slot.stopPoll = setInterval(() => this.pollStop(slot, task), STOP_POLL_MS);
    this.post(slot, {
      type: 'task',
      id: task.id,
      name: task.name,
      input: task.input,
      stopFlag: task.stopFlag.buffer as SharedArrayBuffer,
      injectFault: task.options.injectFault,
    });
  }

  private spawn(): Slot {
    // libuv's pool must be started by this thread, not inherit the workers' lower priority.
    startThreadPoolHere();
    const worker = new Worker(WORKER_ENTRY, { workerData: { niceness: this.niceness } });
    const slot: Slot = { worker, task: null, timer: null, stopPoll: null };
    const crashed = (detail: string) => {
      if (slot.task) this.crashes.push(Date.now());
      void this.retire(slot, slot.task ? EngineError.crashed(slot.task.name, detail) : null);
    };
    worker.on('message', (message: FromWorker) => this.onMessage(slot, message));
    worker.on('error', (error) => crashed(error.message));
    worker.on('exit', (code) => crashed(`exited with code ${code}`));
    this.slots.push(slot);
    return slot;
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    const task = slot.task;
    if (!task || task.id !== message.id) return;
    switch (message.type) {
      case 'progress':
        task.options.onProgress?.(message.pct, message.eta);
        return;
      case 'need-artifact':
        void this.sendArtifact(slot, task, message.request, message.ref);
        return;
      case 'event':
        task.events = task.events.then(() => this.handleEvent(slot, task, message.seq, message.event));
        return;
      case 'done':
      case 'failed': {
        this.release(slot);
        // Settle after the event hooks that are still running, so callers see every epoch before the result.
        void task.events.then(() => {
          if (task.hookError) task.reject(asError(task.hookError.error));
          else if (message.type === 'done') task.resolve(message.result);
          else task.reject(EngineError.fromJSON(message.error));
        });
        this.dispatch();
        return;
      }
    }
  }

  private async handleEvent(slot: Slot, task: Task, seq: number, event: TaskEvent): Promise<void> {
    if (!task.hookError) {
      try {
        await task.options.onEvent?.(event);
      } catch (error) {
        task.hookError = { error };
      }
    }
    this.pollStop(slot, task);
    if (slot.task === task) this.post(slot, { type: 'ack', id: task.id, seq, ok: !task.hookError });
  }

  private pollStop(slot: Slot, task: Task): void {
    if (slot.task !== task || Atomics.load(task.stopFlag, 0) === 1) return;
    let stop: boolean;
    try {
      stop = task.options.shouldStop?.() ?? false;
    } catch {
      stop = false; // a broken poll must not kill the task; the next poll tries again
    }
    if (!stop) return;
    Atomics.store(task.stopFlag, 0, 1);
    this.post(slot, { type: 'stop', id: task.id });
  }

  private async sendArtifact(slot: Slot, task: Task, request: number, ref: ArtifactRef): Promise<void> {
    let reply: ToWorker;
    try {
      const bytes = await this.artifacts.read(ref);
      reply = { type: 'artifact', id: task.id, request, bytes };
    } catch (error) {
      const failure =
        error instanceof EngineError
          ? error
          : new EngineError('ARTIFACT_INVALID', `cannot read artifact ${ref.blobKey}: ${asError(error).message}`, { stage: 'artifact' });
      reply = { type: 'artifact-failed', id: task.id, request, error: failure.toJSON() };
    }
    if (slot.task === task) this.post(slot, reply);
  }

  private post(slot: Slot, message: ToWorker): void {
    slot.worker.postMessage(message);
  }

  /** Frees the slot for the next task (the worker stays). */
  private release(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    if (slot.stopPoll) clearInterval(slot.stopPoll);
    slot.timer = null;
    slot.stopPoll = null;
    slot.task = null;
  }

  /** Fails the slot's task (if any), removes the worker and lets the queue continue on a fresh one. */
  private async retire(slot: Slot, error: EngineError | null): Promise<void> {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    const task = slot.task;
    this.release(slot);
    if (task && error) task.reject(error);
    slot.worker.removeAllListeners();
    slot.worker.on('error', () => {}); // a dying worker may still report; nobody is waiting for it
    await slot.worker.terminate();
    if (!this.closed) this.dispatch();
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : toEngineError(error);
}
