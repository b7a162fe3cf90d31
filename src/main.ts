/** Process entry: parse configuration, build the product, listen, and shut down gracefully on SIGTERM/SIGINT. */
import { ConfigError, loadConfig } from './config.js';
import { createStation } from './app.js';
import { closeOnSignals } from './shutdown.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const station = await createStation(config);
  await station.http.listen({ port: config.port, host: config.host });

  closeOnSignals(station, 'finishing in-flight requests');
}

main().catch((error) => {
  process.stderr.write(`Station failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
