/**
 * WebSocket fan-out: N clients on the now-playing channel of one in-process station; a track change is
 * published on the bus and we measure how long until the LAST client has it, the server's memory per idle
 * client, and whether all N stay connected.
 *
 *   npx tsx bench/ws-fanout.ts [--clients 10000] [--changes 10] [--warmup 1] [--procs 2] [--gap-ms 1000]
 *
 * The station (embedded PGlite in a temp DATA_DIR, logger off) runs in this process; the clients (`ws`,
 * loopback, no per-message deflate) run in `--procs` child processes forked from this same file, so the
 * server process is measured alone. Clients do no JSON work: they stamp the arrival time of each frame
 * (performance.timeOrigin + performance.now(), comparable across processes on one machine) and report.
 *
 * Delivery latency of a change = last client's arrival - the moment before `bus.publish`. The first `--warmup`
 * changes are printed but left out of the percentiles: the very first broadcast after start runs cold
 * (unoptimised code, first writes on 10,000 fresh sockets) and takes about twice as long; a station then
 * changes track every few minutes for days. Memory per idle
 * client = (RSS after all clients are connected - RSS before) / N, both after a forced GC and a settle.
 * Targets: N = 10,000 held; p99 of the per-change latency < 250 ms; < 20 KB per idle client. Exit 1 on a miss.
 *
 * File descriptors: the server needs about N + 100, each client process N/procs + 100; a soft `ulimit -n`
 * below that is raised here with `prlimit` up to the hard limit (children inherit it), or the run stops.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const TARGET_P99_MS = 250;
const TARGET_BYTES_PER_CLIENT = 20 * 1024;

type ToChild = { type: 'connect'; url: string; count: number } | { type: 'report'; id: string } | { type: 'quit' };
type FromChild =
  | { type: 'connected'; open: number; failed: number; firstError: string | null }
  | { type: 'arrivals'; id: string; received: number; last: number; times: number[] }
  | { type: 'state'; open: number };

// ------------------------------------------------------------------ clients (child process) ----------

async function runClients(): Promise<void> {
  const { WebSocket } = await import('ws');
  const sockets: InstanceType<typeof WebSocket>[] = [];
  /** track id -> arrival times; the id is cut from the raw frame without parsing the JSON. */
  const arrivals = new Map<string, number[]>();
  const ID_KEY = '"station_track_id":"';
  const send = (message: FromChild) => process.send!(message);

  const onMessage = (data: Buffer) => {
    const at = performance.timeOrigin + performance.now();
    const text = data.toString('latin1');
    const start = text.indexOf(ID_KEY) + ID_KEY.length;
    const id = text.slice(start, text.indexOf('"', start));
    let times = arrivals.get(id);
    if (!times) arrivals.set(id, (times = []));
    times.push(at);
  };

  process.on('message', async (message: ToChild) => {
    if (message.type === 'connect') {
      let failed = 0;
      let firstError: string | null = null;
      const one = () =>
        new Promise<void>((resolve) => {
          const ws = new WebSocket(message.url, { perMessageDeflate: false });
          ws.on('message', onMessage);
          ws.once('open', () => {
            sockets.push(ws);
            resolve();
          });
          ws.once('error', (error) => {
            failed++;
            firstError ??= String(error.message);
            resolve();
          });
        });
      // A bounded number of handshakes in flight keeps the server's accept queue sane.
      for (let i = 0; i < message.count; i += 100) {
        await Promise.all(Array.from({ length: Math.min(100, message.count - i) }, one));
      }
      send({ type: 'connected', open: sockets.filter((s) => s.readyState === WebSocket.OPEN).length, failed, firstError });
    } else if (message.type === 'report') {
      const times = arrivals.get(message.id) ?? [];
      send({ type: 'arrivals', id: message.id, received: times.length, last: Math.max(0, ...times), times });
      send({ type: 'state', open: sockets.filter((s) => s.readyState === WebSocket.OPEN).length });
    } else {
      for (const ws of sockets) ws.terminate();
      setTimeout(() => process.exit(0), 100);
    }
  });
}

// ------------------------------------------------------------------ server (this process) ------------

function openFileLimit(): { soft: number; hard: number } {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'))!;
  const [soft, hard] = line
    .split(/\s{2,}/)
    .slice(1, 3)
    .map((v) => (v === 'unlimited' ? Infinity : Number(v)));
  return { soft, hard };
}

function ensureFileLimit(needed: number): void {
  const { soft, hard } = openFileLimit();
  if (soft >= needed) return;
  if (hard < needed)
    throw new Error(`ulimit -n: need ${needed} descriptors, the hard limit is ${hard}; raise it (e.g. /etc/security/limits.conf) or run fewer clients`);
  execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${hard === Infinity ? needed : hard}:${hard === Infinity ? 'unlimited' : hard}`]);
  console.log(`raised the open-file limit from ${soft} to ${openFileLimit().soft}`);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function runServer(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      clients: { type: 'string', default: '10000' },
      changes: { type: 'string', default: '10' },
      procs: { type: 'string', default: '2' },
      'gap-ms': { type: 'string', default: '1000' },
      warmup: { type: 'string', default: '1' },
    },
  });
  const clients = Number(args.clients);
  const changes = Number(args.changes);
  const procs = Math.max(1, Number(args.procs));
  const gapMs = Number(args['gap-ms']);
  const warmup = Number(args.warmup);
  ensureFileLimit(clients + 200);

  const { setFlagsFromString } = await import('node:v8');
  const { runInNewContext } = await import('node:vm');
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  };

  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir, loadavg, cpus } = await import('node:os');
  const { join } = await import('node:path');
  const { randomUUID } = await import('node:crypto');
  const { createStation } = await import('../src/app.js');
  const { loadConfig } = await import('../src/config.js');
  const { NOW_PLAYING_CHANNEL } = await import('../src/station/events/now-playing.js');

  const dataDir = mkdtempSync(join(tmpdir(), 'ws-fanout-'));
  const station = await createStation(loadConfig({ DATA_DIR: dataDir, STATION_DEMO: 'false', LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'http://station.test' }), {
    logger: false,
  });
  const children: ChildProcess[] = [];
  try {
    const signup = await station.http.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      payload: { email: 'bench@example.com', password: 'listener-password', display_name: 'Bench' },
    });
    const token = signup.json().token as string;
    await station.http.listen({ port: 0, host: '127.0.0.1' });
    const { port } = station.http.server.address() as { port: number };
    const url = `ws://127.0.0.1:${port}/station/ws/now-playing?token=${token}`;
    const hub = station.station.realtime.hub;

    // The time the server spends in one broadcast loop (serialise once + N sends), on its own.
    // CPU time (user + system: on loopback the kernel's TCP work for both ends is charged to the writer)
    // next to wall time tells work from waiting for a CPU on a loaded machine.
    const loopMs: number[] = [];
    const loopCpuMs: number[] = [];
    const broadcast = hub.broadcast.bind(hub);
    hub.broadcast = (channel, message) => {
      const start = performance.now();
      const cpu = process.cpuUsage();
      const sent = broadcast(channel, message);
      const used = process.cpuUsage(cpu);
      loopMs.push(performance.now() - start);
      loopCpuMs.push((used.user + used.system) / 1000);
      return sent;
    };

    await settle();
    const before = process.memoryUsage();

    const self = fileURLToPath(import.meta.url);
    const inbox: FromChild[][] = [];
    const waiters: Array<() => void> = [];
    for (let i = 0; i < procs; i++) {
      const child = fork(self, ['--client'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      inbox.push([]);
      child.on('message', (message: FromChild) => {
        inbox[i].push(message);
        for (const waiter of waiters.splice(0)) waiter();
      });
      children.push(child);
    }
    const take = async <T extends FromChild['type']>(i: number, type: T): Promise<Extract<FromChild, { type: T }>> => {
      for (;;) {
        const at = inbox[i].findIndex((m) => m.type === type);
        if (at >= 0) return inbox[i].splice(at, 1)[0] as Extract<FromChild, { type: T }>;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    };

    const connectStart = performance.now();
    children.forEach((child, i) => {
      const count = Math.floor(clients / procs) + (i < clients % procs ? 1 : 0);
      child.send({ type: 'connect', url, count } satisfies ToChild);
    });
    const connected = await Promise.all(children.map((_, i) => take(i, 'connected')));
    const connectSec = (performance.now() - connectStart) / 1000;
    const open = connected.reduce((sum, c) => sum + c.open, 0);
    const failed = connected.reduce((sum, c) => sum + c.failed, 0);
    console.log(
      `connected ${open}/${clients} in ${connectSec.toFixed(1)} s (${failed} failed${failed ? `: ${connected.find((c) => c.firstError)?.firstError}` : ''}); hub holds ${hub.size('now-playing')}`,
    );

    await settle();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await settle();
    const after = process.memoryUsage();
    const held = hub.size('now-playing');
    const perClientRss = (after.rss - before.rss) / Math.max(1, held);
    const perClientHeap = (after.heapUsed - before.heapUsed) / Math.max(1, held);
    const perClientExternal = (after.external + after.arrayBuffers - before.external - before.arrayBuffers) / Math.max(1, held);

    const lastLatency: number[] = [];
    const everyClient: number[] = [];
    let incomplete = 0;
    const coldLatency: number[] = [];
    for (let change = -warmup; change < changes; change++) {
      const id = randomUUID();
      const startedAt = new Date().toISOString();
      const card = {
        station_track_id: id,
        title: `Bench track ${change}`,
        artist: 'Station',
        is_ai_generated: true,
        track_origin: 'ai_generated',
        genre: 'synthwave',
        mood: ['calm', 'nocturnal'],
        duration_sec: 180,
        elapsed_sec: 0,
        cover_art_url: `http://station.test/media/covers/${id}.png`,
        waveform_url: `http://station.test/media/waveforms/${id}.json`,
        transparency: { model_version: 'music-v3', influencing_genre: 'synthwave', influencing_mood: ['calm'], lyrics_source: null },
        started_at: startedAt,
      };
      const t0 = performance.timeOrigin + performance.now();
      await station.bus.publish(NOW_PLAYING_CHANNEL, card);
      // Wait for delivery (or give up after 10 s), then collect the arrival times.
      const deadline = Date.now() + Math.max(gapMs, 10_000);
      let received = 0;
      let last = 0;
      let times: number[] = [];
      while (Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(gapMs, 200)));
        children.forEach((child) => child.send({ type: 'report', id } satisfies ToChild));
        const reports = await Promise.all(children.map((_, i) => take(i, 'arrivals')));
        await Promise.all(children.map((_, i) => take(i, 'state')));
        received = reports.reduce((sum, r) => sum + r.received, 0);
        last = Math.max(...reports.map((r) => r.last));
        times = reports.flatMap((r) => r.times);
        if (received >= held) break;
      }
      if (received < held) incomplete++;
      const label = change < 0 ? `warm-up ${change + warmup + 1}` : `change ${change + 1}`;
      console.log(
        `${label}: ${received}/${held} clients, last after ${(last - t0).toFixed(1)} ms, server loop ${loopMs.at(-1)?.toFixed(1)} ms (CPU ${loopCpuMs.at(-1)?.toFixed(1)} ms)`,
      );
      if (change < 0) {
        coldLatency.push(last - t0);
        loopMs.pop();
        loopCpuMs.pop();
      } else {
        lastLatency.push(last - t0);
        for (const time of times) everyClient.push(time - t0);
      }
      await new Promise((resolve) => setTimeout(resolve, gapMs));
    }

    children.forEach((child) => child.send({ type: 'report', id: 'none' } satisfies ToChild));
    await Promise.all(children.map((_, i) => take(i, 'arrivals')));
    const stillOpen = (await Promise.all(children.map((_, i) => take(i, 'state')))).reduce((sum, s) => sum + s.open, 0);
    const heldAtEnd = hub.size('now-playing');

    const sortedLast = [...lastLatency].sort((a, b) => a - b);
    const sortedAll = everyClient.sort((a, b) => a - b);
    const sortedLoop = [...loopMs].sort((a, b) => a - b);
    const sortedCpu = [...loopCpuMs].sort((a, b) => a - b);
    const p99 = percentile(sortedLast, 99);
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
    console.log('');
    console.log(
      `clients held:            ${heldAtEnd}/${clients} at the end (clients see ${stillOpen} open; ${hub.stats.droppedSlow} slow, ${hub.stats.droppedNoPong} no-pong drops)`,
    );
    console.log(
      `last-client latency:     p50 ${fmt(percentile(sortedLast, 50))}  p99 ${fmt(p99)}  max ${fmt(sortedLast.at(-1)!)}  over ${changes} changes (${incomplete} incomplete)${coldLatency.length ? `; warm-up ${coldLatency.map(fmt).join(', ')}` : ''}`,
    );
    console.log(`per-client latency:      p50 ${fmt(percentile(sortedAll, 50))}  p99 ${fmt(percentile(sortedAll, 99))}  (${sortedAll.length} deliveries)`);
    console.log(
      `server broadcast loop:   p50 ${fmt(percentile(sortedLoop, 50))}  max ${fmt(sortedLoop.at(-1)!)} wall; CPU p50 ${fmt(percentile(sortedCpu, 50))}  max ${fmt(sortedCpu.at(-1)!)}  (serialise once + ${held} writes)`,
    );
    console.log(
      `load average:            ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} on ${cpus().length} CPUs (a loaded machine stretches wall time, not CPU time)`,
    );
    console.log(
      `memory per idle client:  RSS ${(perClientRss / 1024).toFixed(1)} KB  (heap ${(perClientHeap / 1024).toFixed(1)} KB, external ${(perClientExternal / 1024).toFixed(1)} KB); RSS ${(before.rss / 2 ** 20).toFixed(0)} -> ${(after.rss / 2 ** 20).toFixed(0)} MiB`,
    );

    const misses: string[] = [];
    if (heldAtEnd < clients || incomplete > 0) misses.push(`held ${heldAtEnd}/${clients}, ${incomplete} incomplete changes`);
    if (!(p99 < TARGET_P99_MS)) misses.push(`p99 ${fmt(p99)} >= ${TARGET_P99_MS} ms`);
    if (!(perClientRss < TARGET_BYTES_PER_CLIENT)) misses.push(`${(perClientRss / 1024).toFixed(1)} KB per client >= 20 KB`);
    console.log(misses.length ? `TARGETS MISSED: ${misses.join('; ')}` : 'all targets met');
    process.exitCode = misses.length ? 1 : 0;
  } finally {
    for (const child of children) child.send({ type: 'quit' } satisfies ToChild);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await station.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--client')) await runClients();
else await runServer();
