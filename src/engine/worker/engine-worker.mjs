// Worker entry for engine-worker.ts. The app runs TypeScript through tsx, and a worker thread starts with
// a fresh module loader, so this plain .mjs file registers tsx first; works under tsx and under vitest.
import { register } from 'tsx/esm/api';

register();
await import('./engine-worker.ts');
