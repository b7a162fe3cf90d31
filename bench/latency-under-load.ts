/**
 * API latency while the station works: starts a fresh demo station (its own temporary DATA_DIR,
 * STATION_DEMO=true) in a child process and, while it seeds the catalog, renders the masters, extracts
 * their features and trains the first models, sends a steady, modest stream of requests and records the
 * latency percentiles per route and per seeding phase, plus the station's event-loop delay (scraped from
 * its /metrics every second: prom-client's monitorEventLoopDelay histogram, reset on each scrape).
 *
 *   npx tsx bench/latency-under-load.ts [--track-sec 30] [--max-sec 900] [--tail-sec 30]
 *       [--login-rate 2] [--read-rate 3] [--login-burst 0] [--cpu-prof DIR] [--station-dir DIR]
 *
 * Routes: wrong-password staff logins (argon2id verify of the real admin hash), and as listeners
 * GET /station/v1/radio/now-playing, GET /v1/tracks/{id}, GET /station/v1/radio/stream-info and a cover
 * image through its signed /media link (a file read on libuv's pool). --login-burst N adds N logins at
 * once every 10 s (each from its own address), as a credential-stuffing wave would. The load
 * is open-loop (requests leave on a fixed schedule whether or not earlier ones have answered), so a stall
 * shows as the latency of every request caught in it, not as fewer requests. The login route allows 5
 * attempts per 15 minutes per client address, so each login leaves from its own loopback address
 * (127.1.x.y; Linux routes all of 127.0.0.0/8 to the loopback interface).
 *
 * Phases are taken from the station's own log: each "demo ..." milestone starts a new phase. The run
 * ends --tail-sec after the last model is deployed (or at --max-sec). On Linux the CPU time of the
 * station's main thread and of its other threads (engine workers, libuv's pool, GC helpers) is read from
 * /proc every second. Target: p99 < 1 s for each route over the whole run; exits 1 otherwise. With
 * DATABASE_URL set, the station runs on a fresh database of that server (dropped afterwards) instead of
 * PGlite. --station-dir runs the station from another checkout (to compare two versions on one machine).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { report, type CpuSample, type LagSample, type Sample } from './latency-report.js';
import { scratchDatabase } from './support/scratch-database.js';

const TARGET_P99_MS = 1000;
const REQUEST_TIMEOUT_MS = 60_000;
const LISTENERS = 12;
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password', totp: 'JBSWY3DPEHPK3PXPJBSWY3DP' };
const LAST_MILESTONE = /style_embedding model trained/;
/** Sent with each /metrics scrape, for a station that protects /metrics with METRICS_TOKEN. */
const METRICS_TOKEN = randomUUID();

const { values: args } = parseArgs({
  options: {
    'track-sec': { type: 'string', default: '30' },
    'max-sec': { type: 'string', default: '900' },
    'tail-sec': { type: 'string', default: '30' },
    'login-rate': { type: 'string', default: '2' },
    'read-rate': { type: 'string', default: '3' },
    'login-burst': { type: 'string', default: '0' },
    'cpu-prof': { type: 'string' },
    'station-dir': { type: 'string', default: process.cwd() },
  },
});

const samples: Sample[] = [];
const lags: LagSample[] = [];
const cpu: CpuSample[] = [];
const t0 = performance.now();
let phase = 'startup';
let finishedAt: number | null = null;

function setPhase(name: string): void {
  phase = name;
  console.log(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${name}`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function startStation(port: number, dataDir: string, databaseUrl: string | undefined): ChildProcess {
  const nodeArgs = ['--import', 'tsx'];
  if (args['cpu-prof']) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    STATION_DEMO: 'true',
    STATION_DEMO_TRACK_SEC: args['track-sec'],
    STATION_ADMIN_EMAIL: ADMIN.email,
    STATION_ADMIN_PASSWORD: ADMIN.password,
    STATION_ADMIN_TOTP_SECRET: ADMIN.totp,
    LOG_LEVEL: 'info',
    METRICS_TOKEN,
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const child = spawn(process.execPath, [...nodeArgs, 'src/main.ts'], { env, cwd: args['station-dir'], stdio: ['ignore', 'pipe', 'inherit'] });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let entry: { msg?: string; level?: number; err?: { message?: string } };
    try {
      entry = JSON.parse(line);
    } catch {
      return;
    }
    if (entry.level !== undefined && entry.level >= 50) console.log(`station error: ${entry.msg} ${entry.err?.message ?? ''}`);
    if (typeof entry.msg === 'string' && entry.msg.startsWith('demo ')) {
      setPhase(`after "${entry.msg}"`);
      if (LAST_MILESTONE.test(entry.msg)) finishedAt = performance.now();
    }
  });
  return child;
}

interface Call {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  localAddress?: string;
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 64 });

function call(port: number, c: Call): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = c.body === undefined ? undefined : JSON.stringify(c.body);
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: c.method,
        path: c.path,
        // A login gets its own connection from its own address; reads share keep-alive connections.
        ...(c.localAddress ? { localAddress: c.localAddress, agent: false } : { agent: keepAlive }),
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...c.headers },
        timeout: REQUEST_TIMEOUT_MS,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', reject);
    request.end(payload);
  });
}

async function timed(port: number, route: string, c: Call, expected: number[]): Promise<void> {
  const sentAt = performance.now();
  const phaseAtSend = phase;
  let status: number;
  try {
    status = (await call(port, c)).status;
  } catch {
    status = 0;
  }
  const ms = performance.now() - sentAt;
  samples.push({ route, phase: phaseAtSend, sentAt: sentAt - t0, ms, status: expected.includes(status) ? status : -status });
}

async function waitForHealth(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`station exited with code ${child.exitCode}`);
    try {
      if ((await call(port, { method: 'GET', path: '/healthz' })).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('station did not answer /healthz within 120 s');
}

async function signUpListeners(port: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < LISTENERS; i++) {
    const answer = await call(port, {
      method: 'POST',
      path: '/v1/auth/signup',
      body: { email: `listener-${i}@example.com`, password: 'listener-password', display_name: `Listener ${i}` },
      localAddress: `127.2.0.${i + 1}`,
    });
    if (answer.status !== 201) throw new Error(`signup answered ${answer.status}: ${answer.body}`);
    tokens.push(JSON.parse(answer.body).token);
  }
  return tokens;
}

async function firstTrackId(port: number, token: string): Promise<string> {
  const answer = await call(port, { method: 'GET', path: '/v1/tracks?limit=1', headers: { authorization: `Bearer ${token}` } });
  if (answer.status !== 200) throw new Error(`GET /v1/tracks answered ${answer.status}: ${answer.body}`);
  return JSON.parse(answer.body).data[0].id;
}

function metricValue(text: string, name: string): number {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text);
  return match ? Number(match[1]) * 1000 : NaN;
}

let stationPid = 0;
let lastCpu: { at: number; main: number; other: number } | null = null;

/** CPU ticks of the station's main thread and of all its other threads (Linux /proc; elsewhere nothing). */
function threadTicks(): { main: number; other: number } | null {
  try {
    let main = 0;
    let other = 0;
    for (const tid of readdirSync(`/proc/${stationPid}/task`)) {
      const fields = readFileSync(`/proc/${stationPid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
      if (Number(tid) === stationPid) main += ticks;
      else other += ticks;
    }
    return { main, other };
  } catch {
    return null;
  }
}

function sampleCpu(phaseNow: string): void {
  const ticks = threadTicks();
  if (!ticks) return;
  const at = performance.now();
  // Linux counts CPU time in clock ticks of 10 ms (USER_HZ = 100).
  if (lastCpu) {
    const seconds = (at - lastCpu.at) / 1000;
    cpu.push({ phase: phaseNow, mainPct: (ticks.main - lastCpu.main) / seconds, otherPct: (ticks.other - lastCpu.other) / seconds });
  }
  lastCpu = { at, ...ticks };
}

/** Sends each route's requests on a fixed schedule until stop() is called. */
function startLoad(port: number, tokens: string[], trackId: string): () => Promise<void> {
  const inFlight = new Set<Promise<void>>();
  const fire = (p: Promise<void>) => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  let loginCount = 0;
  let coverPath: string | null = null;
  // Each route cycles through every listener on its own, so no listener exceeds now-playing's 1 request/s.
  const readers = new Map<string, number>();
  const nextReader = (route: string) => {
    const n = readers.get(route) ?? 0;
    readers.set(route, n + 1);
    return { authorization: `Bearer ${tokens[n % tokens.length]}` };
  };
  const every = (perSec: number, send: () => void) => setInterval(send, 1000 / perSec);
  const loginRate = Number(args['login-rate']);
  const readRate = Number(args['read-rate']);
  const burst = Number(args['login-burst']);
  const login = (route: string) => {
    const n = loginCount++;
    // 5 attempts per 15 minutes per address: a fresh address for every login.
    const localAddress = `127.1.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
    fire(
      timed(
        port,
        route,
        {
          method: 'POST',
          path: '/api/auth/admin/login',
          body: { email: ADMIN.email, password: 'not-the-password', totp_code: '000000' },
          localAddress,
        },
        [401],
      ),
    );
  };
  // Covers exist once the first masters are rendered; until then the media route waits.
  const findCover = async () => {
    const answer = await call(port, { method: 'GET', path: '/v1/tracks?limit=50', headers: nextReader('media') }).catch(() => null);
    if (answer?.status !== 200) return;
    const url = (JSON.parse(answer.body).data as { cover_art_url: string | null }[]).find((t) => t.cover_art_url)?.cover_art_url;
    if (url) coverPath = new URL(url).pathname + new URL(url).search;
  };
  const timers = [
    every(loginRate, () => login('POST /api/auth/admin/login (wrong password)')),
    ...(burst > 0 ? [setInterval(() => Array.from({ length: burst }, () => login('POST /api/auth/admin/login (burst)')), 10_000)] : []),
    every(readRate, () => {
      if (coverPath) fire(timed(port, 'GET /media/{cover} (file read)', { method: 'GET', path: coverPath, headers: nextReader('media') }, [200]));
      else fire(findCover());
    }),
    every(readRate, () =>
      fire(
        timed(
          port,
          'GET /station/v1/radio/now-playing',
          { method: 'GET', path: '/station/v1/radio/now-playing', headers: nextReader('now-playing') },
          [200, 404],
        ),
      ),
    ),
    every(readRate, () => fire(timed(port, 'GET /v1/tracks/{id}', { method: 'GET', path: `/v1/tracks/${trackId}`, headers: nextReader('track') }, [200]))),
    every(readRate, () =>
      fire(
        timed(port, 'GET /station/v1/radio/stream-info', { method: 'GET', path: '/station/v1/radio/stream-info', headers: nextReader('stream-info') }, [200]),
      ),
    ),
    // The scrape is on the same open-loop schedule; its own latency is not reported.
    setInterval(() => {
      const at = performance.now() - t0;
      const phaseAtSend = phase;
      sampleCpu(phaseAtSend);
      fire(
        call(port, { method: 'GET', path: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
          .then(({ body }) => {
            lags.push({
              at,
              phase: phaseAtSend,
              maxMs: metricValue(body, 'nodejs_eventloop_lag_max_seconds'),
              p99Ms: metricValue(body, 'nodejs_eventloop_lag_p99_seconds'),
            });
          })
          .catch(() => undefined),
      );
    }, 1000),
  ];
  return async () => {
    for (const timer of timers) clearInterval(timer);
    await Promise.all(inFlight);
  };
}

const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'station-load-'));
const database = await scratchDatabase('station_load');
console.log(
  `station on ${database.url ? 'PostgreSQL' : 'PGlite'}, demo tracks of ${args['track-sec']} s; ${args['login-rate']} logins/s, ${args['read-rate']} req/s per listener route`,
);
setPhase('startup');
const child = startStation(port, dataDir, database.url);
let passed: boolean;
try {
  await waitForHealth(port, child);
  const tokens = await signUpListeners(port);
  const trackId = await firstTrackId(port, tokens[0]);
  // The event-loop histogram has run since the station started; this scrape resets it, so start-up does
  // not count as the first window.
  await call(port, { method: 'GET', path: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  stationPid = child.pid ?? 0;
  sampleCpu(phase);
  const stop = startLoad(port, tokens, trackId);
  const maxMs = Number(args['max-sec']) * 1000;
  const tailMs = Number(args['tail-sec']) * 1000;
  while (performance.now() - t0 < maxMs && (finishedAt === null || performance.now() - finishedAt < tailMs)) {
    if (child.exitCode !== null) throw new Error(`station exited with code ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  if (finishedAt === null) console.log(`\nstopped at --max-sec ${args['max-sec']} before the last model was deployed`);
  await stop();
  passed = report({ samples, lags, cpu }, TARGET_P99_MS);
} finally {
  keepAlive.destroy();
  child.kill('SIGTERM');
  await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(`\n${passed ? 'PASS' : 'BELOW TARGET'}: p99 < ${TARGET_P99_MS} ms on every route, no unexpected answers`);
process.exitCode = passed ? 0 : 1;
