/** Process entry: parse configuration, build the product, listen, and shut down gracefully on SIGTERM/SIGINT. */
import { ConfigError, loadConfig } from './config.js';
import { createStation } from './app.js';

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

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    station.http.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), 25_000);
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

main().catch((error) => {
  process.stderr.write(`Station failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
