/**
 * Runs generateTrack jobs inside a worker thread, one at a time, posting progress and the result back.
 * Started by worker-pool.ts through render-worker.mjs.
 */
import { parentPort } from 'node:worker_threads';
import { generateTrack, type GenerateTrackRequest } from './pipeline.js';

export type WorkerRequest = { type: 'job'; id: number; request: GenerateTrackRequest; injectFault?: 'crash' };
export type WorkerReply =
  | { type: 'progress'; id: number; pct: number; eta: number }
  | { type: 'done'; id: number; result: Awaited<ReturnType<typeof generateTrack>> }
  | { type: 'failed'; id: number; message: string };

const PROGRESS_INTERVAL_MS = 250;

if (!parentPort) throw new Error('render-worker must run in a worker thread');
const port = parentPort;

port.on('message', async (message: WorkerRequest) => {
  if (message.type !== 'job') return;
  if (message.injectFault === 'crash') {
    // Test hook (only sent when the pool allows fault injection): an uncaught exception kills this thread.
    setImmediate(() => {
      throw new Error('injected render worker crash');
    });
    return;
  }
  let lastProgress = 0;
  try {
    const result = await generateTrack(message.request, (pct, eta) => {
      const now = Date.now();
      if (now - lastProgress < PROGRESS_INTERVAL_MS && pct < 100) return;
      lastProgress = now;
      port.postMessage({ type: 'progress', id: message.id, pct, eta } satisfies WorkerReply);
    });
    port.postMessage({ type: 'done', id: message.id, result } satisfies WorkerReply);
  } catch (error) {
    port.postMessage({ type: 'failed', id: message.id, message: error instanceof Error ? error.message : String(error) } satisfies WorkerReply);
  }
});
