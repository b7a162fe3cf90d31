/**
 * Time to the first AI track on air: starts the product as `npm start` would (tsx src/main.ts) on a fresh,
 * temporary DATA_DIR and a free PORT, with the demo seed on (STATION_DEMO=true, the default, and the default
 * STATION_DEMO_TRACK_SEC unless --track-sec is given), signs up one listener and polls the public
 * GET /station/v1/radio/now-playing every 1.5 s until the card on air is an AI track (`track_origin`
 * "ai_generated", `is_ai_generated` true). Prints the seconds from spawn to that moment, the station's
 * "demo ..." milestones with their times, the catalog tracks played before it (and any back-to-back
 * repeat among them), and the 1-minute load average sampled every 5 s while it ran.
 *
 *   npx tsx bench/first-ai-track.ts [--max-sec 600] [--track-sec N] [--target-sec 180]
 *
 * Exits 1 when no AI track was on air within --target-sec (default 180 s: "within 3 minutes").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    'max-sec': { type: 'string', default: '600' },
    'target-sec': { type: 'string', default: '180' },
    'track-sec': { type: 'string' },
  },
});

const t0 = performance.now();
const since = () => (performance.now() - t0) / 1000;
const stamp = () => `[${since().toFixed(1).padStart(6)} s]`;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function call(port: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      { host: '127.0.0.1', port, method, path, headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers }, timeout: 30_000 },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', reject);
    request.end(payload);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startStation(port: number, dataDir: string): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, STATION_DEMO: 'true', LOG_LEVEL: 'info' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.STATION_DEMO_TRACK_SEC;
  if (args['track-sec']) env.STATION_DEMO_TRACK_SEC = args['track-sec'];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let entry: { msg?: string; level?: number; err?: { message?: string } } & Record<string, unknown>;
    try {
      entry = JSON.parse(line);
    } catch {
      return;
    }
    if (entry.level !== undefined && entry.level >= 50) console.log(`${stamp()} station error: ${entry.msg} ${entry.err?.message ?? ''}`);
    if (typeof entry.msg === 'string' && entry.msg.startsWith('demo ')) {
      const detail = ['version', 'items', 'seconds', 'rendered']
        .filter((k) => entry[k] !== undefined)
        .map((k) => `${k}=${String(entry[k])}`)
        .join(' ');
      console.log(`${stamp()} ${entry.msg}${detail ? ` (${detail})` : ''}`);
    }
  });
  return child;
}

async function waitForHealth(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`station exited with code ${child.exitCode}`);
    try {
      if ((await call(port, 'GET', '/healthz')).status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error('station did not answer /healthz within 120 s');
}

async function main(): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'station-first-ai-'));
  const port = await freePort();
  const loads: number[] = [];
  const loadTimer = setInterval(() => loads.push(loadavg()[0]), 5_000);
  loads.push(loadavg()[0]);
  const child = startStation(port, dataDir);
  const played: { title: string; origin: string; at: number }[] = [];
  let firstAi: number | null = null;
  try {
    await waitForHealth(port, child);
    console.log(`${stamp()} /healthz answers`);
    const signup = await call(port, 'POST', '/v1/auth/signup', {
      email: 'first-ai@example.com',
      password: 'listener-password',
      display_name: 'Bench listener',
    });
    if (signup.status !== 201) throw new Error(`signup answered ${signup.status}: ${signup.body}`);
    const token = JSON.parse(signup.body).token as string;
    const maxSec = Number(args['max-sec']);
    let lastStart = '';
    while (since() < maxSec) {
      if (child.exitCode !== null) throw new Error(`station exited with code ${child.exitCode}`);
      const answer = await call(port, 'GET', '/station/v1/radio/now-playing', undefined, { authorization: `Bearer ${token}` }).catch(() => null);
      if (answer?.status === 200) {
        const card = JSON.parse(answer.body) as { title: string; track_origin: string; is_ai_generated: boolean; started_at: string } | null;
        if (card && card.started_at !== lastStart) {
          lastStart = card.started_at;
          played.push({ title: card.title, origin: card.track_origin, at: since() });
          console.log(`${stamp()} on air: ${card.track_origin === 'ai_generated' ? 'AI' : 'catalog'} "${card.title}"`);
        }
        if (card && card.track_origin === 'ai_generated' && card.is_ai_generated) {
          firstAi = since();
          break;
        }
      }
      await sleep(1_500);
    }
  } finally {
    clearInterval(loadTimer);
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    rmSync(dataDir, { recursive: true, force: true });
  }
  const repeats = played.filter((p, i) => i > 0 && p.title === played[i - 1].title).length;
  const meanLoad = loads.reduce((a, b) => a + b, 0) / loads.length;
  console.log('');
  console.log(`first AI track on air after: ${firstAi === null ? `none within ${args['max-sec']} s` : `${firstAi.toFixed(1)} s`}`);
  console.log(`tracks on air before it: ${played.filter((p) => p.origin === 'catalog').length}, back-to-back repeats: ${repeats}`);
  console.log(`load average (1 min) while measuring: mean ${meanLoad.toFixed(2)}, max ${Math.max(...loads).toFixed(2)} (${loads.length} samples)`);
  const target = Number(args['target-sec']);
  return firstAi !== null && firstAi <= target ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
