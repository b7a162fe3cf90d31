/**
 * How a process of the product ends (`npm start` and `npm run worker`): on SIGTERM or SIGINT it closes the
 * station once (in-flight requests and running jobs finish), and exits 1 if that takes over 25 s or fails.
 */
import type { Station } from './app.js';

const FORCE_EXIT_MS = 25_000;

export function closeOnSignals(station: Station, what: string): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    station.http.log.info({ signal }, `shutting down: ${what}`);
    const force = setTimeout(() => process.exit(1), FORCE_EXIT_MS);
    force.unref();
    try {
      await station.close();
      process.exit(0);
    } catch (error) {
      station.http.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
