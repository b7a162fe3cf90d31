/**
 * HTTP benchmark: requests/s of an authenticated JSON read (GET /v1/tracks/{id} with a listener JWT, so a JWT
 * verification, a session check and an indexed query per request) against a bare Fastify hello-world on the
 * same machine, and their ratio (target >= 0.35).
 *
 *   npx tsx bench/http.ts [--duration 10] [--connections 10]
 *
 * Both servers run in this process with logging off; autocannon runs in a child process so the load
 * generator does not share the servers' event loop. Each case gets a short warm-up first. The station runs on
 * the embedded PGlite, or on a fresh database of the PostgreSQL server at DATABASE_URL when that is set.
 * After the headline figure, two cheaper routes of the same station show where the time goes.
 *
 * Besides requests per second, each case reports CPU time per request: this process (the server under test;
 * autocannon runs elsewhere) and, when PostgreSQL runs on this machine, the backends serving the bench
 * database (from /proc). On a shared machine throughput swings with the neighbours' load; CPU per request
 * barely does, so it is the figure to compare between versions.
 *
 * Targets: the read as served >= 0.35 of hello-world; on PostgreSQL, the read without the detail cache
 * (one indexed query per request) >= 0.2 (issue 20). Exits 1 below either.
 */
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import Fastify from 'fastify';
import pg from 'pg';
import { createStation } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { apiKeys, artists, tracks } from '../src/infra/db/schema/index.js';
import { scratchDatabase } from './support/scratch-database.js';

const TARGET_RATIO = 0.35;
const TARGET_UNCACHED_RATIO_POSTGRES = 0.2;

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
  },
});

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

interface Result {
  requestsPerSec: number;
  /** CPU µs per request of this process, and of the PostgreSQL backends serving the bench (null when unknown). */
  serverCpuUs: number;
  databaseCpuUs: number | null;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
}

async function autocannon(url: string, headers: Record<string, string>, durationSec: number): Promise<Result> {
  const argv = [AUTOCANNON, '-j', '-c', args.connections!, '-d', String(durationSec)];
  for (const [name, value] of Object.entries(headers)) argv.push('-H', `${name}=${value}`);
  argv.push(url);
  const { stdout } = await promisify(execFile)(process.execPath, argv, { maxBuffer: 16 * 1024 * 1024 });
  const json = JSON.parse(stdout);
  return {
    serverCpuUs: 0,
    databaseCpuUs: null,
    requestsPerSec: json.requests.average,
    p50: json.latency.p50,
    p99: json.latency.p99,
    total: json.requests.total,
    non2xx: json.non2xx,
    errors: json.errors + json.timeouts,
  };
}

/** CPU seconds used so far by each database backend serving the bench database, when they run on this machine. */
type DatabaseCpu = () => Promise<Map<number, number> | null>;

/** CPU seconds the backends used between two readings; a backend that started in between counts from zero. */
function backendCpuBetween(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null;
  let seconds = 0;
  for (const [pid, used] of after) seconds += used - (before.get(pid) ?? 0);
  return seconds;
}

async function measure(name: string, url: string, headers: Record<string, string> = {}, databaseCpu?: DatabaseCpu): Promise<Result> {
  await autocannon(url, headers, Number(args.warmup));
  const cpuBefore = process.cpuUsage();
  const databaseBefore = (await databaseCpu?.()) ?? null;
  const result = await autocannon(url, headers, Number(args.duration));
  const cpu = process.cpuUsage(cpuBefore);
  const databaseAfter = (await databaseCpu?.()) ?? null;
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${name}: ${result.non2xx} non-2xx answers and ${result.errors} errors; the figure would be meaningless`);
  }
  result.serverCpuUs = (cpu.user + cpu.system) / result.total;
  const databaseSeconds = backendCpuBetween(databaseBefore, databaseAfter);
  result.databaseCpuUs = databaseSeconds === null ? null : (databaseSeconds * 1e6) / result.total;
  const database = result.databaseCpuUs === null ? '' : `, database ${result.databaseCpuUs.toFixed(0)} µs`;
  console.log(
    `${name.padEnd(48)} ${result.requestsPerSec.toFixed(0).padStart(7)} req/s   p50 ${result.p50} ms   p99 ${result.p99} ms   ` +
      `CPU/request: server ${result.serverCpuUs.toFixed(0)} µs${database}   (${result.total} requests)`,
  );
  return result;
}

async function helloWorld(): Promise<Result> {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  try {
    return await measure('bare Fastify hello-world', `http://127.0.0.1:${port}/`);
  } finally {
    await app.close();
  }
}

/**
 * The floor of a read with one query: bare Fastify answering each request with one prepared `select 1` through
 * node-postgres (a pool of 10, as the station's), on the bench database. What the station adds is above it.
 */
async function bareQueryFloor(url: string, databaseCpu?: DatabaseCpu): Promise<Result> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const app = Fastify({ logger: false });
  app.get('/', async () => (await pool.query({ name: 'floor', text: 'select 1 as one' })).rows[0]);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  try {
    return await measure('  bare Fastify + one prepared query (select 1)', `http://127.0.0.1:${port}/`, {}, databaseCpu);
  } finally {
    await app.close();
    await pool.end();
  }
}

/** A scratch database (see support/scratch-database.ts) and, on PostgreSQL, a reading of its backends' CPU. */
async function benchDatabaseUrl(): Promise<{ url: string | undefined; drop: () => Promise<void>; cpu?: DatabaseCpu }> {
  const scratch = await scratchDatabase('station_bench');
  const { server, name } = scratch;
  return server && name ? { ...scratch, cpu: () => backendCpuSeconds(server, name) } : scratch;
}

/** CPU seconds of each backend connected to one database, read from /proc (Linux, server on this machine); else null. */
async function backendCpuSeconds(server: string, database: string): Promise<Map<number, number> | null> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [database]);
    const seconds = new Map<number, number>();
    for (const { pid } of rows) {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      seconds.set(pid, (Number(fields[11]) + Number(fields[12])) / 100); // utime + stime, in ticks of 10 ms (USER_HZ)
    }
    return rows.length > 0 ? seconds : null;
  } catch {
    return null; // not Linux, or the server runs elsewhere
  } finally {
    await client.end();
  }
}

/** The station in-process; answers the headline case and, for the breakdown, two cheaper routes. */
async function stationCases(): Promise<{ read: Result; uncached: Result; keyed: Result; health: Result; validate: Result; driver: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'station-bench-'));
  const database = await benchDatabaseUrl();
  const serviceKey = randomUUID().replaceAll('-', '');
  const config = loadConfig({
    DATA_DIR: dataDir,
    STATION_DEMO: 'false',
    LOG_LEVEL: 'silent',
    PORT: '0',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
  const station = await createStation(config, { logger: false });
  try {
    const artistId = randomUUID();
    const trackId = randomUUID();
    await station.database.db.insert(artists).values({ id: artistId, slug: 'bench-artist', name: 'Bench Artist', genre: 'Ambient' });
    await station.database.db
      .insert(tracks)
      .values({ id: trackId, slug: 'bench-track', title: 'Bench Track', artistId, genre: 'Ambient', durationSec: 150, bpm: 90, isrc: 'QZBEN2600001' });
    // An ownerless key (as the bootstrap service key, so no quota) that may read the catalog.
    await station.database.db.insert(apiKeys).values({
      name: 'bench key',
      keyHash: createHash('sha256').update(serviceKey).digest('hex'),
      keyPrefix: serviceKey.slice(0, 4),
      scopes: ['tracks:read'],
      environment: 'live',
      ownerUserId: null,
    });
    const signup = await station.http.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      payload: { email: 'bench@example.com', password: 'bench-password', display_name: 'Bench' },
    });
    if (signup.statusCode !== 201) throw new Error(`signup failed: ${signup.body}`);
    const auth = { authorization: `Bearer ${signup.json().token}` };

    await station.http.listen({ port: 0, host: '127.0.0.1' });
    const { port } = station.http.server.address() as { port: number };
    const base = `http://127.0.0.1:${port}`;
    const check = await fetch(`${base}/v1/tracks/${trackId}`, { headers: auth });
    if (check.status !== 200) throw new Error(`GET /v1/tracks/${trackId} answered ${check.status}: ${await check.text()}`);
    const read = await measure(`GET /v1/tracks/{id} (listener JWT, ${station.database.driver}, 5 s detail cache)`, `${base}/v1/tracks/${trackId}`, auth);
    // The same route with the detail cache off: every request runs the indexed query.
    station.catalog.useCacheTtl(0);
    const uncached = await measure(
      `GET /v1/tracks/{id} (listener JWT, ${station.database.driver}, no cache: one indexed query per request)`,
      `${base}/v1/tracks/${trackId}`,
      auth,
      database.cpu,
    );
    // With an API key nothing is cached on the auth side either: the key lookup and the track query per request.
    const keyed = await measure(
      `GET /v1/tracks/{id} (X-API-Key, ${station.database.driver}, no cache: key lookup + track query per request)`,
      `${base}/v1/tracks/${trackId}`,
      { 'x-api-key': serviceKey },
      database.cpu,
    );
    console.log('  breakdown (same station):');
    if (database.url) await bareQueryFloor(database.url, database.cpu);
    const health = await measure('  GET /healthz (public, no DB)', `${base}/healthz`);
    const validate = await measure('  GET /station/v1/auth/validate (JWT)', `${base}/station/v1/auth/validate`, auth);
    return { read, uncached, keyed, health, validate, driver: station.database.driver };
  } finally {
    await station.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`autocannon: ${args.connections} connections, ${args.warmup} s warm-up + ${args.duration} s per case, loopback\n`);
const bare = await helloWorld();
const { read, uncached, keyed, health, validate, driver } = await stationCases();
const ratio = read.requestsPerSec / bare.requestsPerSec;
const uncachedRatio = uncached.requestsPerSec / bare.requestsPerSec;
const perRequestUs = (r: Result) => (1e6 / r.requestsPerSec).toFixed(0);
console.log(
  `\nserver time per request at saturation: hello-world ${perRequestUs(bare)} µs, station /healthz ${perRequestUs(health)} µs, ` +
    `+JWT ${perRequestUs(validate)} µs, track read ${perRequestUs(read)} µs, without the detail cache ${perRequestUs(uncached)} µs`,
);
console.log(`\nratio authenticated read / hello-world: ${ratio.toFixed(3)} (target >= ${TARGET_RATIO}) ${ratio >= TARGET_RATIO ? 'PASS' : 'BELOW TARGET'}`);
const uncachedTarget = driver === 'postgres' ? TARGET_UNCACHED_RATIO_POSTGRES : null;
const uncachedVerdict =
  uncachedTarget === null ? '(no target on PGlite)' : `(target >= ${uncachedTarget}) ${uncachedRatio >= uncachedTarget ? 'PASS' : 'BELOW TARGET'}`;
console.log(`ratio without the detail cache (one indexed query per request): ${uncachedRatio.toFixed(3)} ${uncachedVerdict}`);
console.log(`ratio with an API key, nothing cached (key lookup + track query): ${(keyed.requestsPerSec / bare.requestsPerSec).toFixed(3)} (no target)`);
process.exitCode = ratio >= TARGET_RATIO && (uncachedTarget === null || uncachedRatio >= uncachedTarget) ? 0 : 1;
