/**
 * Graceful shutdown of the real process: `node --import tsx src/main.ts`, SIGTERM while a request is in
 * flight. The server stops accepting at once, finishes the request, and exits with code 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest, type ClientRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { pollUntil } from '../helpers/poll.js';
import { createTestDatabase, type TestDatabase } from '../helpers/station.js';

const STARTUP_TIMEOUT_MS = 120_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(base: string, child: ChildProcess, output: () => string): Promise<void> {
  // Normally ~8 s (tsx compiles the sources, PGlite runs initdb); a loaded CI machine took over 60 s (a slow VM
  // running both suites side by side). A wait budget for start-up, not a bound on what the test asserts.
  const readyz = async () => {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${output()}`);
    // null: not listening yet
    return fetch(`${base}/readyz`).then(
      (response) => response.status,
      () => null,
    );
  };
  await pollUntil('the server is ready', readyz, (status) => status === 200, STARTUP_TIMEOUT_MS, 100).catch((error: Error) => {
    // An exit is reported as it is (with the output); a timeout gets the output added.
    throw child.exitCode !== null ? error : new Error(`${error.message}: ${output()}`);
  });
}

let child: ChildProcess | undefined;
let dataDir: string | undefined;
let testDb: TestDatabase | undefined;

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await testDb?.drop();
});

it(
  'finishes the in-flight request, refuses new connections and exits 0 on SIGTERM',
  async () => {
    const port = await freePort();
    dataDir = mkdtempSync(join(tmpdir(), 'station-shutdown-'));
    if (process.env.DATABASE_URL) testDb = await createTestDatabase();
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATION_DEMO: 'false',
      LOG_LEVEL: 'info', // the in-flight request is seen arriving in the log (Fastify's "incoming request")
      ...(testDb?.url ? { DATABASE_URL: testDb.url } : {}),
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    };
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child!.on('exit', (code, signal) => resolve({ code, signal })));
    const base = `http://127.0.0.1:${port}`;
    await waitUntilReady(base, child, () => output);

    // A request in flight: headers and half the body sent, the rest only after SIGTERM.
    const body = JSON.stringify({ email: 'in-flight@example.com', password: 'in-flight-password', display_name: 'In Flight' });
    // One keep-alive socket, opened by a complete request first, so the server surely holds the connection
    // before the in-flight request starts on it.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const warm = await new Promise<number>((resolve, reject) =>
      httpRequest(`${base}/healthz`, { agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      })
        .on('error', reject)
        .end(),
    );
    expect(warm).toBe(200);
    let inFlight!: ClientRequest;
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      inFlight = httpRequest(
        `${base}/v1/auth/signup`,
        { agent, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        },
      );
      inFlight.on('error', reject);
    });
    inFlight.write(body.slice(0, 20));
    inFlight.flushHeaders();
    // SIGTERM only once the server is handling the request (headers parsed, body still coming).
    const arrived = () => output.split('\n').some((line) => line.includes('incoming request') && line.includes('/v1/auth/signup'));
    await pollUntil('the server logs the in-flight request', arrived, (seen) => seen, 10_000, 20).catch((error: Error) => {
      throw new Error(`${error.message}: ${output}`);
    });

    child.kill('SIGTERM');

    // No new connections while it drains: the listener closes soon after the signal, the process stays up.
    const connectionRefused = () =>
      fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
        () => false,
        () => true,
      );
    const refused = await pollUntil('the listener refuses new connections', connectionRefused, (no) => no, 10_000, 100).catch(() => false);
    expect(refused).toBe(true);
    expect(child.exitCode, output).toBeNull();

    inFlight.end(body.slice(20));
    const response = await answered;
    expect(response.status, response.body).toBe(201);

    agent.destroy();
    const { code, signal } = await exited;
    expect({ code, signal }, output).toEqual({ code: 0, signal: null });
    await expect(fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
  },
  STARTUP_TIMEOUT_MS + 20_000,
);
