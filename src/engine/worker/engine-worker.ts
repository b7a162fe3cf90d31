/**
 * The engine worker thread: runs one named task at a time (tasks.ts), posting progress, events and the
 * result back. Started by engine-worker-pool.ts through engine-worker.mjs.
 */
import { parentPort } from 'node:worker_threads';
import type { ArtifactRef } from '../engine.js';
import { EngineError, toEngineError } from '../errors.js';
import { ArtifactCache, readArtifact } from './artifact-cache.js';
import type { FromWorker, TaskEvent, ToWorker } from './protocol.js';
import type { TaskContext } from './task-context.js';
import { TASK_HANDLERS } from './tasks.js';

const PROGRESS_INTERVAL_MS = 250;

if (!parentPort) throw new Error('engine-worker must run in a worker thread');
const port = parentPort;
const cache = new ArtifactCache();

interface Pending<T> {
  resolve(value: T): void;
  reject(error: Error): void;
}
const artifactRequests = new Map<number, Pending<Uint8Array>>();
let nextRequest = 1;
const acks = new Map<number, Pending<void>>();
let current: { id: number; stopFlag: Int32Array } | null = null;

const send = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'task':
      void runTask(message);
      return;
    case 'artifact':
    case 'artifact-failed': {
      const pending = artifactRequests.get(message.request);
      artifactRequests.delete(message.request);
      if (message.type === 'artifact') pending?.resolve(message.bytes);
      else pending?.reject(EngineError.fromJSON(message.error));
      return;
    }
    case 'ack': {
      if (current?.id !== message.id) return;
      const pending = acks.get(message.seq);
      acks.delete(message.seq);
      if (message.ok) pending?.resolve();
      else pending?.reject(new EngineError('INTERNAL', 'the caller rejected a training event', { stage: 'hook' }));
      return;
    }
    case 'stop':
      if (current?.id === message.id) Atomics.store(current.stopFlag, 0, 1);
      return;
  }
});

async function runTask(message: Extract<ToWorker, { type: 'task' }>): Promise<void> {
  const { id, name } = message;
  if (message.injectFault === 'crash') {
    // Test hook (only sent when the pool allows fault injection): an uncaught exception kills this thread.
    setImmediate(() => {
      throw new Error('injected engine worker crash');
    });
    return;
  }
  const stopFlag = new Int32Array(message.stopFlag);
  current = { id, stopFlag };
  const transfers: ArrayBuffer[] = [];
  let lastProgress = 0;
  let nextSeq = 1;

  const fetchBytes = (ref: ArtifactRef) =>
    new Promise<Uint8Array>((resolve, reject) => {
      const request = nextRequest++;
      artifactRequests.set(request, { resolve, reject });
      send({ type: 'need-artifact', id, request, ref });
    });

  const ctx: TaskContext = {
    artifact: (ref, kind) => cache.get(ref, kind, fetchBytes),
    read: (ref, kind) => readArtifact(ref, kind, fetchBytes),
    memo: (key, compute) => cache.memo(key, compute),
    progress(pct, eta) {
      const now = Date.now();
      if (now - lastProgress < PROGRESS_INTERVAL_MS && pct < 100) return;
      lastProgress = now;
      send({ type: 'progress', id, pct, eta });
    },
    emit(event: TaskEvent) {
      const seq = nextSeq++;
      return new Promise<void>((resolve, reject) => {
        acks.set(seq, { resolve, reject });
        send({ type: 'event', id, seq, event });
      });
    },
    shouldStop: () => Atomics.load(stopFlag, 0) === 1,
    transfer(bytes) {
      // Only a buffer this view owns whole can move; a view into Node's shared pool must be copied.
      const buffer = bytes.buffer;
      if (buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength && !transfers.includes(buffer))
        transfers.push(buffer);
    },
  };

  try {
    const handler = TASK_HANDLERS[name] as (input: unknown, ctx: TaskContext) => Promise<unknown>;
    if (!handler) throw new EngineError('INVALID_INPUT', `unknown engine task "${name}"`, { stage: name });
    const result = await handler(message.input, ctx);
    send({ type: 'done', id, result }, transfers);
  } catch (error) {
    send({ type: 'failed', id, error: toEngineError(error, name).toJSON() });
  } finally {
    current = null;
    acks.clear();
    artifactRequests.clear();
  }
}
