// Worker entry for engine-worker.ts. The app runs TypeScript through tsx, and a worker thread starts with
// a fresh module loader, so this plain .mjs file registers tsx first; works under tsx and under vitest.
// Then the thread lowers its own CPU priority (thread-priority.ts) before it loads the engine.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { lowerThisThreadPriority } = await import('./thread-priority.ts');
lowerThisThreadPriority(workerData?.niceness ?? 0);
await import('./engine-worker.ts');
