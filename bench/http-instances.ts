/**
 * Authenticated read throughput with 1 and N station instances on one PostgreSQL and Redis: requests/s of
 * `GET /v1/tracks/{id}` with a listener JWT (as served, track detail cached 5 s, and with that cache off) on
 * one instance, then on N, and the ratio N/1, next to a bare Fastify hello-world in the same run.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379 \
 *     npx tsx bench/http-instances.ts [--instances 3] [--duration 10] [--warmup 3] [--connections 12]
 *
 * Each instance is a child process forked from this file on a scratch database of DATABASE_URL's server
 * (dropped afterwards), one DATA_DIR (keys) and a Redis prefix of its own. The load: one autocannon child per
 * instance, all started together, the connections split evenly between them (each connection stays on one
 * instance: round-robin by connection, as a load balancer with keep-alive does). On one machine the
 * instances, PostgreSQL, Redis and the load generators share the cores, so the N/1 ratio says how much of the
 * machine one instance leaves unused, not how N machines would scale. No target; exits 1 on any non-2xx.
 */
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';

type ToInstance = { type: 'seed' } | { type: 'cache'; ttlMs: number } | { type: 'quit' };
type FromInstance = { type: 'ready'; port: number } | { type: 'seeded'; trackId: string; token: string } | { type: 'cached' };

async function runInstance(): Promise<void> {
  const { createStation } = await import('../src/app.js');
  const { loadConfig } = await import('../src/config.js');
  const { artists, tracks } = await import('../src/infra/db/schema/index.js');
  const station = await createStation(loadConfig(process.env), { logger: false });
  const send = (message: FromInstance) => process.send!(message);
  await station.http.listen({ port: 0, host: '127.0.0.1' });
  process.on('message', async (message: ToInstance) => {
    if (message.type === 'seed') {
      const artistId = randomUUID();
      const trackId = randomUUID();
      await station.database.db.insert(artists).values({ id: artistId, slug: 'bench-artist', name: 'Bench Artist', genre: 'Ambient' });
      await station.database.db
        .insert(tracks)
        .values({ id: trackId, slug: 'bench-track', title: 'Bench Track', artistId, genre: 'Ambient', durationSec: 150, bpm: 90, isrc: 'QZBEN2600001' });
      const signup = await station.http.inject({
        method: 'POST',
        url: '/v1/auth/signup',
        payload: { email: 'bench@example.com', password: 'bench-password', display_name: 'Bench' },
      });
      if (signup.statusCode !== 201) throw new Error(`signup failed: ${signup.body}`);
      send({ type: 'seeded', trackId, token: signup.json().token as string });
    } else if (message.type === 'cache') {
      station.catalog.useCacheTtl(message.ttlMs);
      send({ type: 'cached' });
    } else {
      await station.close();
      process.exit(0);
    }
  });
  send({ type: 'ready', port: (station.http.server.address() as { port: number }).port });
}

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

interface Load {
  requestsPerSec: number;
  p99: number;
  bad: number;
}

async function autocannon(urls: string[], headers: Record<string, string>, connections: number, durationSec: number): Promise<Load> {
  const runs = urls.map((url, i) => {
    const share = Math.floor(connections / urls.length) + (i < connections % urls.length ? 1 : 0);
    const argv = [AUTOCANNON, '-j', '-c', String(Math.max(1, share)), '-d', String(durationSec)];
    for (const [name, value] of Object.entries(headers)) argv.push('-H', `${name}=${value}`);
    argv.push(url);
    return promisify(execFile)(process.execPath, argv, { maxBuffer: 16 * 1024 * 1024 }).then(({ stdout }) => JSON.parse(stdout));
  });
  const results = await Promise.all(runs);
  return {
    requestsPerSec: results.reduce((sum, r) => sum + r.requests.average, 0),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    bad: results.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
  };
}

class Instance {
  private readonly inbox: FromInstance[] = [];
  private waiters: Array<() => void> = [];
  constructor(readonly child: ChildProcess) {
    child.on('message', (message: FromInstance) => {
      this.inbox.push(message);
      for (const waiter of this.waiters.splice(0)) waiter();
    });
  }
  send(message: ToInstance): void {
    this.child.send(message);
  }
  async take<T extends FromInstance['type']>(type: T): Promise<Extract<FromInstance, { type: T }>> {
    for (;;) {
      const at = this.inbox.findIndex((m) => m.type === type);
      if (at >= 0) return this.inbox.splice(at, 1)[0] as Extract<FromInstance, { type: T }>;
      if (this.child.exitCode !== null) throw new Error(`instance ${this.child.pid} exited with ${this.child.exitCode}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

async function helloWorld(connections: number, warmup: number, duration: number): Promise<Load> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/`;
    await autocannon([url], {}, connections, warmup);
    return await autocannon([url], {}, connections, duration);
  } finally {
    await app.close();
  }
}

async function runCoordinator(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      instances: { type: 'string', default: '3' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      connections: { type: 'string', default: '12' },
    },
  });
  const count = Math.max(2, Number(args.instances));
  const duration = Number(args.duration);
  const warmup = Number(args.warmup);
  const connections = Number(args.connections);
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL) throw new Error('set DATABASE_URL and REDIS_URL (the instances share them)');
  const { scratchDatabase } = await import('./support/scratch-database.js');
  const database = await scratchDatabase('http_instances');
  const dataDir = mkdtempSync(join(tmpdir(), 'http-instances-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    STATION_DEMO: 'false',
    LOG_LEVEL: 'silent',
    REDIS_PREFIX: `http-instances-${randomUUID().slice(0, 8)}`,
  };
  const self = fileURLToPath(import.meta.url);
  const instances: Instance[] = [];
  const ports: number[] = [];
  const start = async () => {
    const instance = new Instance(fork(self, ['--instance'], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    instances.push(instance);
    ports.push((await instance.take('ready')).port);
  };
  const setCache = async (ttlMs: number) => Promise.all(instances.map((instance) => (instance.send({ type: 'cache', ttlMs }), instance.take('cached'))));
  try {
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} on ${cpus().length} CPUs; ${connections} connections, ${warmup} s warm-up + ${duration} s per case\n`,
    );
    const bare = await helloWorld(connections, warmup, duration);
    console.log(`bare Fastify hello-world (1 process)             ${bare.requestsPerSec.toFixed(0).padStart(7)} req/s   p99 ${bare.p99} ms`);
    await start();
    instances[0].send({ type: 'seed' });
    const { trackId, token } = await instances[0].take('seeded');
    const headers = { authorization: `Bearer ${token}` };
    const results: Record<string, Load> = {};
    const phase = async (label: string) => {
      const urls = ports.map((port) => `http://127.0.0.1:${port}/v1/tracks/${trackId}`);
      for (const [name, ttlMs] of [
        ['as served', 5000],
        ['no detail cache', 0],
      ] as const) {
        await setCache(ttlMs);
        await autocannon(urls, headers, connections, warmup);
        const load = await autocannon(urls, headers, connections, duration);
        if (load.bad > 0) throw new Error(`${label}, ${name}: ${load.bad} non-2xx answers or errors`);
        results[`${label} ${name}`] = load;
        console.log(
          `${`${label}, ${name}`.padEnd(48)} ${load.requestsPerSec.toFixed(0).padStart(7)} req/s   p99 ${load.p99} ms   ratio to hello-world ${(load.requestsPerSec / bare.requestsPerSec).toFixed(3)}`,
        );
      }
    };
    await phase('1 instance');
    for (let i = 1; i < count; i++) await start();
    await phase(`${count} instances`);
    console.log('');
    for (const name of ['as served', 'no detail cache']) {
      console.log(
        `${count} instances / 1 instance, ${name}: ${(results[`${count} instances ${name}`].requestsPerSec / results[`1 instance ${name}`].requestsPerSec).toFixed(2)}`,
      );
    }
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await Promise.all(
      instances.map(
        (instance) =>
          new Promise<void>((resolve) => {
            if (instance.child.exitCode !== null) return resolve();
            const timer = setTimeout(() => (instance.child.kill('SIGKILL'), resolve()), 10_000);
            instance.child.once('exit', () => (clearTimeout(timer), resolve()));
            instance.send({ type: 'quit' });
          }),
      ),
    );
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--instance')) await runInstance();
else await runCoordinator();
