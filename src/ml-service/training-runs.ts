/**
 * Training runs in progress, so the caller's hooks keep their in-process meaning across HTTP:
 *
 *   service                                  client (RemoteEngine)
 *   engine.train hook onEpoch/onCheckpoint
 *     ── line {type, seq, ...} ─────────────► awaits hooks.onEpoch / onCheckpoint
 *     waits for the ack                        polls hooks.shouldStop()
 *     ◄──────────── POST {run_id}:ack {seq, stop} ─┘
 *   hook returns; the pool polls shouldStop(), which is now true when stop was asked,
 *   so the run stops at exactly that checkpoint and the result line says stopped: true.
 *
 * POST {run_id}:stop raises the stop flag at any time (the worker stops at its next checkpoint). A caller
 * that closes the connection aborts the run: the waiting hook fails and the flag is raised.
 */
import { randomUUID } from 'node:crypto';
import { EngineError } from '../engine/errors.js';

/** A caller that neither acknowledges nor closes the stream for this long is gone: the run is aborted. */
const ACK_TIMEOUT_MS = 10 * 60_000;

interface PendingAck {
  seq: number;
  resolve(): void;
  reject(error: Error): void;
}

export class TrainingRun {
  readonly id = randomUUID();
  private seq = 0;
  private pending: PendingAck | null = null;
  private abortedWith: Error | null = null;
  stopRequested = false;

  nextSeq(): number {
    return ++this.seq;
  }

  /** Resolves when the caller acknowledged event `seq`; rejects if the run was aborted meanwhile. */
  waitForAck(seq: number, timeoutMs = ACK_TIMEOUT_MS): Promise<void> {
    if (this.abortedWith) return Promise.reject(this.abortedWith);
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.abortedWith ??= EngineError.timeout('train (waiting for the caller to acknowledge an event)', timeoutMs);
        this.abort();
      }, timeoutMs);
      this.pending = {
        seq,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
    });
  }

  /** False when no event with this seq is waiting. */
  ack(seq: number, stop: boolean): boolean {
    if (!this.pending || this.pending.seq !== seq) return false;
    if (stop) this.stopRequested = true;
    const { resolve } = this.pending;
    this.pending = null;
    resolve();
    return true;
  }

  abort(): void {
    this.stopRequested = true;
    this.abortedWith ??= new EngineError('SHUTDOWN', 'the caller closed the training stream; the run was aborted', { stage: 'train' });
    this.pending?.reject(this.abortedWith);
    this.pending = null;
  }
}

export class TrainingRuns {
  private readonly runs = new Map<string, TrainingRun>();

  start(): TrainingRun {
    const run = new TrainingRun();
    this.runs.set(run.id, run);
    return run;
  }

  get(id: string): TrainingRun | undefined {
    return this.runs.get(id);
  }

  finish(run: TrainingRun): void {
    this.runs.delete(run.id);
  }

  /** Aborts every run (shutdown). */
  abortAll(): void {
    for (const run of this.runs.values()) run.abort();
  }

  get size(): number {
    return this.runs.size;
  }
}
