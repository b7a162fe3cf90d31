/**
 * Writes the server's OpenAPI document (`GET /openapi.json`) to a file without listening: the product is built
 * on a throwaway embedded database with the demo off, asked for the document, and closed. Used by
 * `npm run lint:openapi` (and CI) and to regenerate the client library's types (clients/js).
 *
 *   npx tsx scripts/export-openapi.ts [out-file]      (default .tmp/openapi.json)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { createStation } from '../src/app.js';

const out = process.argv[2] ?? '.tmp/openapi.json';
const dataDir = mkdtempSync(join(tmpdir(), 'station-openapi-'));
try {
  const config = loadConfig({ DATA_DIR: dataDir, STATION_DEMO: 'false', LOG_LEVEL: 'warn', PUBLIC_BASE_URL: 'http://localhost:8080' });
  const station = await createStation(config, { logger: false });
  try {
    const response = await station.http.inject({ url: '/openapi.json' });
    if (response.statusCode !== 200) throw new Error(`GET /openapi.json answered ${response.statusCode}`);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(response.json(), null, 2)}\n`);
  } finally {
    await station.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
