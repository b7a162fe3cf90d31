/** `npm run ml-service`: parse configuration, serve the engine over /ml/v1, shut down gracefully on SIGTERM/SIGINT. */
import { ConfigError } from '../config.js';
import { loadMlServiceConfig } from './config.js';
import { createMlService } from './server.js';

export async function main(): Promise<void> {
  let config;
  try {
    config = loadMlServiceConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const service = await createMlService({
    apiKey: config.apiKey,
    dataDir: config.dataDir,
    logger: {
      level: config.logLevel,
      // Request bodies (with their signed artifact links) are never logged; the key is redacted.
      redact: { paths: ['req.headers["x-api-key"]'], censor: '[redacted]' },
    },
  });
  await service.http.listen({ port: config.port, host: config.host });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    service.http.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), 25_000);
    force.unref();
    try {
      await service.close(20_000);
      process.exit(0);
    } catch (error) {
      service.http.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
