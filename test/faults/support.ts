/**
 * Fault tests: real instances as child processes (`tsx src/main.ts`) on the local PostgreSQL (a fresh database
 * per test) and Redis (a key prefix per test), on loopback ports, sharing one DATA_DIR. The station is seeded
 * directly in the database with a few tone masters, so the radio plays at once without the demo's rendering
 * and training competing for the CPU the measurements need.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { Redis } from 'ioredis';
import pg from 'pg';
import { expect } from 'vitest';
import { WebSocket } from 'ws';
import { join } from 'node:path';
import { FileBlobStore } from '../../src/infra/blobs/blob-store.js';
import { artists, stationConfig, tracks } from '../../src/infra/db/schema/index.js';
import { openDatabase } from '../../src/infra/db/client.js';
import { createTestDatabase, type TestDatabase } from '../helpers/station.js';
import { toneMaster } from '../station/playout-support.js';

export const DATABASE_URL = process.env.DATABASE_URL;
export const REDIS_URL = process.env.REDIS_URL;
export const SERVICE_KEY = `fault-${randomBytes(12).toString('hex')}`;

/** Starting an instance compiles the product with tsx: on a loaded machine (two cores shared) that can take a minute. */
const READY_TIMEOUT_MS = 90_000;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function until<T>(what: string, read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up after ${timeoutMs} ms waiting until ${what}`);
    await sleep(50);
  }
}

export interface Instance {
  name: string;
  port: number;
  base: string;
  child: ChildProcess;
  output: () => string;
}

/** A station's shared resources: the database, the Redis prefix, DATA_DIR, and the instances started on them. */
export class FaultStation {
  readonly prefix = `fault-${randomBytes(5).toString('hex')}`;
  readonly dataDir = mkdtempSync(join(tmpdir(), 'station-fault-'));
  readonly instances: Instance[] = [];
  /** Set by createDatabase() or seed(). */
  database!: TestDatabase;

  /** A fresh, migrated database (seed() makes one too). */
  async createDatabase(): Promise<void> {
    this.database = await createTestDatabase();
    const database = await this.database.open();
    await database.migrate();
    await database.close();
  }

  /**
   * `trackCount` catalog tones of `trackSec` each, the radio on, catalog only; in the database made by
   * createDatabase() (and seeded further by the test), or a fresh one.
   */
  async seed(options: { trackCount: number; trackSec: number; crossfadeSec?: number }): Promise<void> {
    this.database ??= await createTestDatabase();
    const database = await this.database.open();
    await database.migrate();
    const { db, close } = database;
    try {
      const blobs = new FileBlobStore(join(this.dataDir, 'blobs'));
      const [artist] = await db.insert(artists).values({ slug: 'fault-tones', name: 'Fault Tones', genre: 'ambient', platformOwned: true }).returning();
      for (let i = 0; i < options.trackCount; i++) {
        const key = `catalog/fault-${i}.mp3`;
        await blobs.put(key, await toneMaster({ frequencyHz: 220 + 55 * i, amplitude: 0.2, seconds: options.trackSec }));
        await db.insert(tracks).values({
          slug: `tone-${i}`,
          title: `Tone ${i}`,
          artistId: artist.id,
          genre: 'ambient',
          durationSec: options.trackSec,
          audioBlobKey: key,
          audioFormat: 'mp3',
        });
      }
      await db
        .insert(stationConfig)
        .values({ id: 1, radioEnabled: true, generationMode: 'catalog_only', crossfadeSec: options.crossfadeSec ?? 3 })
        .onConflictDoUpdate({ target: stationConfig.id, set: { radioEnabled: true, generationMode: 'catalog_only', crossfadeSec: options.crossfadeSec ?? 3 } });
    } finally {
      await close();
    }
  }

  /** Starts `tsx src/main.ts` on a free port; resolves once /readyz answers 200. */
  async start(name: string, env: Record<string, string> = {}, script = 'src/main.ts'): Promise<Instance> {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_BASE_URL: base,
        DATA_DIR: this.dataDir,
        DATABASE_URL: this.database.url!,
        REDIS_URL: REDIS_URL!,
        REDIS_PREFIX: this.prefix,
        STATION_DEMO: 'false',
        // The engine at the instances' priority: see ENGINE_AT_TEST_PRIORITY (test/helpers/station.ts).
        STATION_ENGINE_NICENESS: '0',
        STATION_SERVICE_API_KEY: SERVICE_KEY,
        STATION_SCHEDULER_CYCLE_SEC: '5',
        LOG_LEVEL: script === 'src/main.ts' ? 'warn' : 'info',
        ...env,
      },
    });
    let output = '';
    child.stdout!.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
    child.stderr!.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
    const instance: Instance = { name, port, base, child, output: () => output };
    this.instances.push(instance);
    if (script !== 'src/main.ts') {
      await until(
        `${name} is ready`,
        () => {
          if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${output}`);
          return output.includes('worker ready');
        },
        Boolean,
        READY_TIMEOUT_MS,
      );
    } else {
      await until(
        `${name} is ready`,
        async () => {
          if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${output}`);
          return fetch(`${base}/readyz`)
            .then((r) => r.status)
            .catch(() => 0);
        },
        (status) => status === 200,
        READY_TIMEOUT_MS,
      ).catch((error: unknown) => {
        throw new Error(`${String(error)}; its output: ${output.slice(-3000)}`);
      });
    }
    return instance;
  }

  async close(): Promise<void> {
    await Promise.all(
      this.instances.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
    await this.database?.drop().catch(() => undefined);
    // The shared Redis keeps nothing of this station.
    const redis = new Redis(REDIS_URL!);
    try {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${this.prefix}:*`, 'COUNT', 500);
        cursor = next;
        if (keys.length > 0) await redis.del(...keys);
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

export const serviceHeaders = { 'x-api-key': SERVICE_KEY };

export async function getJson<T>(url: string, headers: Record<string, string> = serviceHeaders): Promise<{ status: number; body: T }> {
  const response = await fetch(url, { headers });
  return { status: response.status, body: (await response.json().catch(() => null)) as T };
}

/** A private redis-server on `port` (never the shared one), answering PING; kill it with SIGKILL to cut Redis. */
export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  await until(
    'the private redis-server answers',
    () =>
      client
        .connect()
        .then(() => client.ping())
        .catch(() => null),
    (pong) => pong === 'PONG',
    10_000,
  );
  client.disconnect();
  return child;
}

export interface Card {
  slot_id?: number;
  title: string;
  started_at: string;
  duration_sec: number;
}

/** Arrival times of a stream's bytes (and, with `keep`, the bytes). */
export function listen(url: string, keep = false): { arrivals: number[]; chunks: Buffer[]; bytes: () => number; close(): void } {
  const arrivals: number[] = [];
  const chunks: Buffer[] = [];
  let total = 0;
  const request = http.get(url, (response) => {
    response.on('data', (chunk: Buffer) => {
      arrivals.push(Date.now());
      if (keep) chunks.push(chunk);
      total += chunk.length;
    });
  });
  request.on('error', () => undefined);
  return { arrivals, chunks, bytes: () => total, close: () => request.destroy() };
}

/** Now-playing cards as a WebSocket client receives them, with the time each arrived. */
export function watchCards(instance: Instance, token: string): { cards: { at: number; card: Card }[]; close(): void } {
  const cards: { at: number; card: Card }[] = [];
  const ws = new WebSocket(`ws://127.0.0.1:${instance.port}/station/ws/now-playing?token=${encodeURIComponent(token)}`);
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as { event?: string; data?: Card };
    if (message.event === 'now_playing' && message.data) cards.push({ at: Date.now(), card: message.data });
  });
  ws.on('error', () => undefined);
  return { cards, close: () => ws.close() };
}

/** The longest time between two arrivals from `from` to `to` (the edges count as arrivals). */
export function maxGap(arrivals: number[], from: number, to: number): number {
  let gap = 0;
  let previous = from;
  for (const at of arrivals) {
    if (at < from) continue;
    if (at > to) break;
    gap = Math.max(gap, at - previous);
    previous = at;
  }
  return Math.max(gap, to - previous);
}

/** A new listener account; its session token. */
export async function signUpListener(instance: Instance): Promise<string> {
  const signup = await fetch(`${instance.base}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `fault-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`,
      password: 'listener-password',
      display_name: 'Fault Listener',
    }),
  });
  expect(signup.status).toBe(201);
  return ((await signup.json()) as { token: string }).token;
}

/** The running order in the database: every started slot started once and in order, none planned before it skipped, one play each. */
export async function expectRunningOrder(databaseUrl: string): Promise<{ started: number }> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const slots = (await db.query<{ id: string; status: string; started_at: Date | null }>('select id, status, started_at from radio_slots order by id')).rows;
    const plays = (await db.query<{ track_id: string; started_at: Date }>('select track_id, started_at from station_plays order by started_at')).rows;
    const started = slots.filter((s) => s.started_at !== null);
    const lastStarted = Number(started.at(-1)!.id);
    const skipped = slots.filter((s) => Number(s.id) < lastStarted && s.started_at === null && s.status !== 'replaced');
    expect(skipped).toEqual([]);
    expect(plays.length).toBe(started.length);
    expect(new Set(plays.map((p) => `${p.track_id}@${p.started_at.getTime()}`)).size).toBe(plays.length);
    return { started: started.length };
  } finally {
    await db.end();
  }
}

const PG_BIN = '/usr/lib/postgresql/15/bin';

/**
 * A private PostgreSQL cluster on `port` (never the shared one on 5432), in a temporary directory owned by the
 * `postgres` user (PostgreSQL refuses to run as root, which the suite is), trusting loopback connections. Its
 * one database, `station`, is a TestDatabase for FaultStation (not migrated: seed() migrates). stop() is a fast
 * shutdown (sessions cut, the server gone), start() brings it back on the same data and port.
 */
export class PrivatePostgres {
  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async create(port: number): Promise<PrivatePostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'station-fault-pg-'));
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
    const cluster = new PrivatePostgres(port, dir);
    await cluster.asPostgres('initdb', ['-D', cluster.data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
    await cluster.start();
    const admin = new pg.Client({ connectionString: cluster.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE station');
    await admin.end();
    return cluster;
  }

  private get data(): string {
    return join(this.dir, 'data');
  }

  /** Runs a PostgreSQL tool as the postgres user (asynchronously: the instances' load goes on meanwhile). */
  private async asPostgres(tool: string, args: string[]): Promise<void> {
    await promisify(execFile)('runuser', ['-u', 'postgres', '--', join(PG_BIN, tool), ...args], { timeout: 60_000 });
  }

  url(database = 'station'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Starts the server and waits until it accepts connections. */
  async start(): Promise<void> {
    const options = `-p ${this.port} -c listen_addresses=127.0.0.1 -k ${this.dir} -c fsync=off -c max_connections=50`;
    await this.asPostgres('pg_ctl', ['-D', this.data, '-l', join(this.dir, 'log'), '-o', options, '-w', '-t', '60', 'start']);
  }

  /** Fast shutdown: every session is cut and the server exits. */
  async stop(): Promise<void> {
    await this.asPostgres('pg_ctl', ['-D', this.data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  }

  /** The station's TestDatabase on this cluster (drop() is close(): the whole cluster goes). */
  database(): TestDatabase {
    return { url: this.url(), dataDir: null, open: () => openDatabase({ url: this.url(), dataDir: null, poolSize: 4 }), drop: async () => undefined };
  }

  async close(): Promise<void> {
    await this.asPostgres('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined); // unless stopped already
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface Answer {
  path: string;
  instance: string;
  /** When it was sent. */
  at: number;
  status: number;
  ms: number;
  envelope: boolean;
}

/**
 * The answers of a load() run counted by status, with the slowest; every answer but a 200 is written out with
 * `label` (when it was sent, counted from `t0`), so a failed run shows what the clients saw.
 */
export function tally(answers: Answer[], label: string, t0: number): { counts: Map<number, number>; slowest: number } {
  const counts = new Map<number, number>();
  for (const answer of answers) counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
  for (const answer of answers.filter((x) => x.status !== 200))
    process.stdout.write(
      `${label}: ${answer.instance} ${answer.path} ${answer.status} in ${answer.ms} ms, sent at ${((answer.at - t0) / 1000).toFixed(1)} s\n`,
    );
  return { counts, slowest: Math.max(...answers.map((answer) => answer.ms)) };
}

/** GETs `paths` on every instance every 500 ms until stopped; each request bounded by 10 s (0: no answer). */
export function load(instances: Instance[], paths: string[]) {
  const answers: Answer[] = [];
  let running = true;
  const loops = instances.flatMap((instance) =>
    paths.map(async (path) => {
      while (running) {
        const started = Date.now();
        const answer = await fetch(`${instance.base}${path}`, { headers: serviceHeaders, signal: AbortSignal.timeout(10_000) })
          .then(async (response) => {
            const body = (await response.json().catch(() => null)) as { error?: { code?: string } } | null;
            return { status: response.status, envelope: typeof body?.error?.code === 'string' };
          })
          .catch(() => ({ status: 0, envelope: false }));
        answers.push({ path, ...answer, ms: Date.now() - started, at: started, instance: instance.name });
        await sleep(500);
      }
    }),
  );
  return {
    answers,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

export const readyz = (instance: Instance) =>
  fetch(`${instance.base}/readyz`, { signal: AbortSignal.timeout(5_000) })
    .then((r) => r.status)
    .catch(() => 0);
