/**
 * `npm run worker`: runs the engine's jobs (generation, training) and webhook delivery from BullMQ, and
 * serves no HTTP, so operators scale the engine apart from the API (whose instances run with STATION_ROLE=api
 * and leave those queues to workers). Needs REDIS_URL and DATABASE_URL, and the same DATA_DIR (or S3_*) as the
 * API instances. SIGTERM finishes the running jobs (up to 10 s; a job cut short is retried by another worker).
 */
import { ConfigError, loadConfig } from './config.js';
import { createStation } from './app.js';
import { closeOnSignals } from './shutdown.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig({ ...process.env, STATION_ROLE: 'worker' });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const station = await createStation(config);
  station.http.log.info({ role: config.role }, 'worker ready: running generation, training and webhook jobs');

  closeOnSignals(station, 'finishing running jobs');
}

main().catch((error) => {
  process.stderr.write(`Worker failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
