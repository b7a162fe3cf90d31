/**
 * WebSocket fan-out: N clients on the now-playing channel of one or more station instances; a track change is
 * published on the bus and we measure how long until the LAST client has it, the servers' CPU per change,
 * their memory per idle client, and whether all N stay connected.
 *
 *   npx tsx bench/ws-fanout.ts [--clients 10000] [--instances 1] [--changes 10] [--warmup 1] [--procs 2] [--gap-ms 1000] [--ws-clients]
 *
 * Every instance is a child process forked from this file (the coordinator, this process, only publishes and
 * counts). One instance runs on the embedded PGlite in a temp DATA_DIR; `--instances 2` or more need
 * DATABASE_URL and REDIS_URL: the instances then share a scratch database on that server (dropped
 * afterwards), one DATA_DIR (keys) and Redis under a prefix of their own, and a change published on instance 0
 * reaches every instance's clients through Redis pub/sub, as in production. Clients (`ws`, loopback, no
 * per-message deflate) run in `--procs` child processes and are dealt round-robin over the instances. They are
 * minimal RFC 6455 clients on bare TCP sockets (`--ws-clients`: the `ws` library's client instead, which costs
 * the shared machine more CPU per message than the server spends sending it). They do no JSON work: they
 * stamp the arrival time of each frame (performance.timeOrigin + performance.now(), comparable across
 * processes on one machine) and report it with their CPU time.
 *
 * Delivery latency of a change = last client's arrival - the moment before `bus.publish` on instance 0. The
 * first `--warmup` changes are printed but left out of the percentiles: the very first broadcast after start
 * runs cold (unoptimised code, first writes on fresh sockets). Server CPU per change: user + system time of
 * each instance from the broadcast's start until its last batch is written (on loopback the kernel's TCP
 * receive work is charged to the writer). Client CPU per change is reported too: on one machine the clients
 * share the cores with the servers, so when they cost more than the servers they set the latency.
 * Memory per idle client = (RSS after all clients are connected - RSS before) / clients held, per instance,
 * both after a forced GC and a settle.
 * Targets: every client held; p99 of the per-change latency < 100 ms; < 20 KB per idle client. Exit 1 on a miss.
 *
 * File descriptors: each instance needs about its clients + 100, each client process its clients + 100; a
 * soft `ulimit -n` below that is raised here with `prlimit` up to the hard limit (children inherit it).
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const TARGET_P99_MS = 100;
/** Clients per credential: each holds one WebSocket slot (STATION_MAX_WEBSOCKETS_PER_CREDENTIAL) per client. */
const CLIENTS_PER_USER = 2500;
const TARGET_BYTES_PER_CLIENT = 20 * 1024;

interface ClientGroup {
  url: string;
  count: number;
}
type ToChild = { type: 'connect'; groups: ClientGroup[] } | { type: 'report'; id: string } | { type: 'quit' };
type FromChild =
  | { type: 'connected'; open: number; failed: number; firstError: string | null }
  | { type: 'arrivals'; id: string; received: number; last: number; times: number[]; cpuMs: number }
  | { type: 'state'; open: number };

type ToInstance =
  { type: 'signup'; users: number } | { type: 'memory' } | { type: 'publish'; card: Record<string, unknown> } | { type: 'loops' } | { type: 'quit' };
type FromInstance =
  | { type: 'ready'; port: number }
  | { type: 'tokens'; tokens: string[] }
  | { type: 'memory'; rss: number; heapUsed: number; external: number; held: number }
  | { type: 'published'; t0: number }
  | { type: 'loops'; wallMs: number[]; cpuMs: number[]; delayMs: number; held: number; droppedSlow: number; droppedNoPong: number };

// ------------------------------------------------------------------ clients (child process) ----------

interface BenchClient {
  isOpen(): boolean;
  terminate(): void;
}
type OnFrame = (data: Buffer) => void;

/** A `ws` client, as a browser-like library would receive (its parser costs about as much as the server's write). */
async function wsClient(url: string, onFrame: OnFrame): Promise<BenchClient> {
  const { WebSocket } = await import('ws');
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.on('message', onFrame);
    ws.once('open', () => resolve({ isOpen: () => ws.readyState === WebSocket.OPEN, terminate: () => ws.terminate() }));
    ws.once('error', reject);
  });
}

/**
 * A minimal RFC 6455 client on a bare TCP socket: the upgrade by hand, then only the frame headers are read
 * (text frames are stamped, pings answered with a pong). It costs the machine little more than the read
 * system call, so on one machine the measurement is the server's, as it would be with the clients elsewhere.
 */
async function rawClient(url: string, onFrame: OnFrame): Promise<BenchClient> {
  const { connect } = await import('node:net');
  const { randomBytes } = await import('node:crypto');
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname);
    socket.setNoDelay(true);
    let open = false;
    let pending: Buffer | null = null;
    socket.once('connect', () => {
      socket.write(
        `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    socket.on('error', (error) => (open ? undefined : reject(error)));
    socket.on('close', () => (open = false));
    socket.on('data', (chunk: Buffer) => {
      let data = pending ? Buffer.concat([pending, chunk]) : chunk;
      pending = null;
      if (!open) {
        const end = data.indexOf('\r\n\r\n');
        if (end < 0) return void (pending = data);
        const head = data.subarray(0, end).toString('latin1');
        if (!head.startsWith('HTTP/1.1 101')) {
          socket.destroy();
          return reject(new Error(`Unexpected server response: ${head.split('\r\n')[0]}`));
        }
        open = true;
        resolve({ isOpen: () => open, terminate: () => socket.destroy() });
        data = data.subarray(end + 4);
      }
      let at = 0;
      while (data.length - at >= 2) {
        const opcode = data[at] & 0x0f;
        let length = data[at + 1] & 0x7f;
        let header = 2;
        if (length === 126) {
          if (data.length - at < 4) break;
          length = data.readUInt16BE(at + 2);
          header = 4;
        } else if (length === 127) {
          if (data.length - at < 10) break;
          length = Number(data.readBigUInt64BE(at + 2));
          header = 10;
        }
        if (data.length - at < header + length) break;
        const payload = data.subarray(at + header, at + header + length);
        if (opcode === 0x1) onFrame(payload);
        // A pong must be masked (client to server); an all-zero key leaves the payload as it is.
        else if (opcode === 0x9) socket.write(Buffer.concat([Buffer.from([0x8a, 0x80 | payload.length, 0, 0, 0, 0]), payload]));
        else if (opcode === 0x8) socket.end();
        at += header + length;
      }
      if (at < data.length) pending = Buffer.from(data.subarray(at));
    });
  });
}

async function runClients(): Promise<void> {
  const open = process.argv.includes('--client-ws') ? wsClient : rawClient;
  const sockets: BenchClient[] = [];
  /** track id -> arrival times; the id is cut from the raw frame without parsing the JSON. */
  const arrivals = new Map<string, number[]>();
  const ID_KEY = '"station_track_id":"';
  const send = (message: FromChild) => process.send!(message);
  let cpuMark = process.cpuUsage();

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
      const one = (url: string) =>
        open(url, onMessage).then(
          (client) => void sockets.push(client),
          (error: Error) => {
            failed++;
            firstError ??= String(error.message);
          },
        );
      // A bounded number of handshakes in flight keeps the server's accept queue sane.
      for (const group of message.groups) {
        for (let i = 0; i < group.count; i += 100) {
          await Promise.all(Array.from({ length: Math.min(100, group.count - i) }, () => one(group.url)));
        }
      }
      cpuMark = process.cpuUsage();
      send({ type: 'connected', open: sockets.filter((s) => s.isOpen()).length, failed, firstError });
    } else if (message.type === 'report') {
      const times = arrivals.get(message.id) ?? [];
      const used = process.cpuUsage(cpuMark);
      cpuMark = process.cpuUsage();
      send({ type: 'arrivals', id: message.id, received: times.length, last: Math.max(0, ...times), times, cpuMs: (used.user + used.system) / 1000 });
      send({ type: 'state', open: sockets.filter((s) => s.isOpen()).length });
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

async function collectGarbage(): Promise<void> {
  const { setFlagsFromString } = await import('node:v8');
  const { runInNewContext } = await import('node:vm');
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

// ------------------------------------------------------------------ one instance (child process) -----

async function runInstance(): Promise<void> {
  const { createStation } = await import('../src/app.js');
  const { loadConfig } = await import('../src/config.js');
  const { NOW_PLAYING_CHANNEL } = await import('../src/station/events/now-playing.js');
  const send = (message: FromInstance) => process.send!(message);
  const station = await createStation(loadConfig(process.env), { logger: false });
  const hub = station.station.realtime.hub;

  // Wall and CPU time of each broadcast, from its start until its last batch is written (`hub.idle()`).
  const wallMs: number[] = [];
  const cpuMs: number[] = [];
  // The longest the event loop was held between two `loops` reports (one change each: its broadcast, the
  // delivery wait, the gap). Reset there, never inside the broadcast: a reset in a busy turn loses that turn.
  const { monitorEventLoopDelay } = await import('node:perf_hooks');
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  const broadcast = hub.broadcast.bind(hub);
  hub.broadcast = (channel, message) => {
    const start = performance.now();
    const cpu = process.cpuUsage();
    const sent = broadcast(channel, message);
    void hub.idle().then(() => {
      const used = process.cpuUsage(cpu);
      wallMs.push(performance.now() - start);
      cpuMs.push((used.user + used.system) / 1000);
    });
    return sent;
  };

  await station.http.listen({ port: 0, host: '127.0.0.1' });
  process.on('message', async (message: ToInstance) => {
    if (message.type === 'signup') {
      const tokens: string[] = [];
      for (let i = 0; i < message.users; i++) {
        const signup = await station.http.inject({
          method: 'POST',
          url: '/v1/auth/signup',
          remoteAddress: `127.0.${Math.floor(i / 250)}.${(i % 250) + 1}`,
          payload: { email: `bench-${i}@example.com`, password: 'listener-password', display_name: `Bench ${i}` },
        });
        if (signup.statusCode !== 201 && signup.statusCode !== 200) throw new Error(`signup answered ${signup.statusCode}: ${signup.body}`);
        tokens.push(signup.json().token as string);
      }
      send({ type: 'tokens', tokens });
    } else if (message.type === 'memory') {
      await collectGarbage();
      const memory = process.memoryUsage();
      send({ type: 'memory', rss: memory.rss, heapUsed: memory.heapUsed, external: memory.external + memory.arrayBuffers, held: hub.size('now-playing') });
    } else if (message.type === 'publish') {
      const t0 = performance.timeOrigin + performance.now();
      await station.bus.publish(NOW_PLAYING_CHANNEL, message.card);
      send({ type: 'published', t0 });
    } else if (message.type === 'loops') {
      const { droppedSlow, droppedNoPong } = hub.stats;
      const delayMs = loopDelay.max / 1e6;
      loopDelay.reset();
      send({
        type: 'loops',
        wallMs: wallMs.splice(0),
        cpuMs: cpuMs.splice(0),
        delayMs,
        held: hub.size('now-playing'),
        droppedSlow,
        droppedNoPong,
      });
    } else {
      await station.close();
      process.exit(0);
    }
  });
  send({ type: 'ready', port: (station.http.server.address() as { port: number }).port });
}

// ------------------------------------------------------------------ coordinator (this process) -------

/** A child process and the messages it sent that nobody has taken yet. */
class Child<In, Out extends { type: string }> {
  private readonly inbox: Out[] = [];
  private waiters: Array<() => void> = [];
  constructor(readonly process: ChildProcess) {
    process.on('message', (message: Out) => {
      this.inbox.push(message);
      for (const waiter of this.waiters.splice(0)) waiter();
    });
    process.on('exit', (code) => {
      if (code !== 0) {
        this.inbox.push({ type: 'exit', code } as unknown as Out); // surfaces as a failed take()
        for (const waiter of this.waiters.splice(0)) waiter();
      }
    });
  }
  send(message: In): void {
    this.process.send(message as object);
  }
  async take<T extends Out['type']>(type: T): Promise<Extract<Out, { type: T }>> {
    for (;;) {
      if (this.inbox.some((m) => m.type === 'exit')) throw new Error(`child ${this.process.pid} exited`);
      const at = this.inbox.findIndex((m) => m.type === type);
      if (at >= 0) return this.inbox.splice(at, 1)[0] as Extract<Out, { type: T }>;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

async function runServer(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      clients: { type: 'string', default: '10000' },
      instances: { type: 'string', default: '1' },
      changes: { type: 'string', default: '10' },
      procs: { type: 'string', default: '2' },
      'gap-ms': { type: 'string', default: '1000' },
      warmup: { type: 'string', default: '1' },
      'ws-clients': { type: 'boolean', default: false },
    },
  });
  const clients = Number(args.clients);
  const instanceCount = Math.max(1, Number(args.instances));
  const changes = Number(args.changes);
  const procs = Math.max(1, Number(args.procs));
  const gapMs = Number(args['gap-ms']);
  const warmup = Number(args.warmup);
  if (instanceCount > 1 && !(process.env.DATABASE_URL && process.env.REDIS_URL)) throw new Error('--instances > 1 needs DATABASE_URL and REDIS_URL');
  ensureFileLimit(Math.ceil(Math.max(clients / instanceCount, clients / procs)) + 200);

  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir, loadavg, cpus } = await import('node:os');
  const { join } = await import('node:path');
  const { randomUUID } = await import('node:crypto');
  const { scratchDatabase } = await import('./support/scratch-database.js');

  const dataDir = mkdtempSync(join(tmpdir(), 'ws-fanout-'));
  const database = instanceCount > 1 ? await scratchDatabase('ws_fanout') : null;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    STATION_DEMO: 'false',
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: 'http://station.test',
    STATION_MAX_WEBSOCKETS_PER_CREDENTIAL: String(CLIENTS_PER_USER),
    REDIS_PREFIX: `ws-fanout-${randomUUID().slice(0, 8)}`,
  };
  if (database) env.DATABASE_URL = database.url;
  else {
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
  }
  const self = fileURLToPath(import.meta.url);
  const instances: Array<Child<ToInstance, FromInstance>> = [];
  const clientProcs: Array<Child<ToChild, FromChild>> = [];
  try {
    // One after another: the first runs the migrations and writes the keys the others read.
    const ports: number[] = [];
    for (let i = 0; i < instanceCount; i++) {
      const instance = new Child<ToInstance, FromInstance>(fork(self, ['--instance'], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
      instances.push(instance);
      ports.push((await instance.take('ready')).port);
    }
    instances[0].send({ type: 'signup', users: Math.ceil(clients / CLIENTS_PER_USER) });
    const { tokens } = await instances[0].take('tokens');

    const memory = async () => Promise.all(instances.map((instance) => (instance.send({ type: 'memory' }), instance.take('memory'))));
    const before = await memory();

    // Groups of at most CLIENTS_PER_USER clients on one instance with one token, dealt round-robin to the processes.
    const groups: ClientGroup[] = [];
    let left = clients;
    for (let user = 0; left > 0; user++) {
      const count = Math.min(CLIENTS_PER_USER, left);
      const perInstance = Math.ceil(count / instanceCount);
      for (let i = 0; i < instanceCount && left > 0; i++) {
        const n = Math.min(perInstance, left, count - i * perInstance);
        if (n <= 0) break;
        groups.push({ url: `ws://127.0.0.1:${ports[(user + i) % instanceCount]}/station/ws/now-playing?token=${tokens[user]}`, count: n });
        left -= n;
      }
    }
    for (let i = 0; i < procs; i++)
      clientProcs.push(
        new Child<ToChild, FromChild>(
          fork(self, args['ws-clients'] ? ['--client', '--client-ws'] : ['--client'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
        ),
      );
    const connectStart = performance.now();
    clientProcs.forEach((child, i) => child.send({ type: 'connect', groups: groups.filter((_, g) => g % procs === i) }));
    const connected = await Promise.all(clientProcs.map((child) => child.take('connected')));
    const connectSec = (performance.now() - connectStart) / 1000;
    const open = connected.reduce((sum, c) => sum + c.open, 0);
    const failed = connected.reduce((sum, c) => sum + c.failed, 0);

    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = await memory();
    const heldPer = after.map((m) => m.held);
    const held = heldPer.reduce((a, b) => a + b, 0);
    console.log(
      `connected ${open}/${clients} in ${connectSec.toFixed(1)} s (${failed} failed${failed ? `: ${connected.find((c) => c.firstError)?.firstError}` : ''}); instances hold ${heldPer.join(' + ')}`,
    );
    const perClient = (key: 'rss' | 'heapUsed' | 'external') => after.reduce((sum, m, i) => sum + m[key] - before[i][key], 0) / Math.max(1, held);

    const lastLatency: number[] = [];
    const everyClient: number[] = [];
    const serverCpu: number[] = [];
    const serverWall: number[] = [];
    const clientCpu: number[] = [];
    const loopDelays: number[] = [];
    let incomplete = 0;
    const coldLatency: number[] = [];
    for (let change = -warmup; change < changes; change++) {
      const id = randomUUID();
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
        started_at: new Date().toISOString(),
      };
      instances[0].send({ type: 'publish', card });
      const { t0 } = await instances[0].take('published');
      // Wait for delivery (or give up after 10 s), then collect the arrival times.
      const deadline = Date.now() + Math.max(gapMs, 10_000);
      let received = 0;
      let last = 0;
      let times: number[] = [];
      let cpu = 0;
      while (Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(gapMs, 200)));
        clientProcs.forEach((child) => child.send({ type: 'report', id }));
        const reports = await Promise.all(clientProcs.map((child) => child.take('arrivals')));
        await Promise.all(clientProcs.map((child) => child.take('state')));
        received = reports.reduce((sum, r) => sum + r.received, 0);
        last = Math.max(...reports.map((r) => r.last));
        times = reports.flatMap((r) => r.times);
        cpu += reports.reduce((sum, r) => sum + r.cpuMs, 0);
        if (received >= held) break;
      }
      if (received < held) incomplete++;
      const loops = await Promise.all(instances.map((instance) => (instance.send({ type: 'loops' }), instance.take('loops'))));
      const wall = Math.max(...loops.map((l) => l.wallMs.reduce((a, b) => a + b, 0)));
      const loopCpu = loops.reduce((sum, l) => sum + l.cpuMs.reduce((a, b) => a + b, 0), 0);
      const delay = Math.max(...loops.map((l) => l.delayMs));
      const label = change < 0 ? `warm-up ${change + warmup + 1}` : `change ${change + 1}`;
      console.log(
        `${label}: ${received}/${held} clients, last after ${(last - t0).toFixed(1)} ms; servers: broadcast ${wall.toFixed(1)} ms wall (slowest), CPU ${loopCpu.toFixed(1)} ms (all), event loop held up to ${delay.toFixed(0)} ms; clients CPU ${cpu.toFixed(1)} ms`,
      );
      if (change < 0) coldLatency.push(last - t0);
      else {
        lastLatency.push(last - t0);
        for (const time of times) everyClient.push(time - t0);
        serverCpu.push(loopCpu);
        serverWall.push(wall);
        loopDelays.push(delay);
        clientCpu.push(cpu);
      }
      await new Promise((resolve) => setTimeout(resolve, gapMs));
    }

    clientProcs.forEach((child) => child.send({ type: 'report', id: 'none' }));
    await Promise.all(clientProcs.map((child) => child.take('arrivals')));
    const stillOpen = (await Promise.all(clientProcs.map((child) => child.take('state')))).reduce((sum, s) => sum + s.open, 0);
    const final = await Promise.all(instances.map((instance) => (instance.send({ type: 'loops' }), instance.take('loops'))));
    const heldAtEnd = final.reduce((sum, l) => sum + l.held, 0);

    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
    const sortedLast = sorted(lastLatency);
    const sortedAll = sorted(everyClient);
    const p99 = percentile(sortedLast, 99);
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
    console.log('');
    console.log(
      `clients held:            ${heldAtEnd}/${clients} on ${instanceCount} instance(s) at the end (clients see ${stillOpen} open; ${final.reduce((s, l) => s + l.droppedSlow, 0)} slow, ${final.reduce((s, l) => s + l.droppedNoPong, 0)} no-pong drops)`,
    );
    console.log(
      `last-client latency:     p50 ${fmt(percentile(sortedLast, 50))}  p99 ${fmt(p99)}  max ${fmt(sortedLast.at(-1)!)}  over ${changes} changes (${incomplete} incomplete)${coldLatency.length ? `; warm-up ${coldLatency.map(fmt).join(', ')}` : ''}`,
    );
    console.log(`per-client latency:      p50 ${fmt(percentile(sortedAll, 50))}  p99 ${fmt(percentile(sortedAll, 99))}  (${sortedAll.length} deliveries)`);
    console.log(
      `server broadcast:        wall p50 ${fmt(percentile(sorted(serverWall), 50))} (slowest instance); CPU p50 ${fmt(percentile(sorted(serverCpu), 50))} all instances, ${((percentile(sorted(serverCpu), 50) / Math.max(1, held)) * 1000).toFixed(2)} µs per client`,
    );
    console.log(
      `event loop held:         p50 ${fmt(percentile(sorted(loopDelays), 50))}  max ${fmt(sorted(loopDelays).at(-1)!)} (longest stall per change window: broadcast, delivery, gap)`,
    );
    console.log(`client CPU per change:   p50 ${fmt(percentile(sorted(clientCpu), 50))} (${procs} processes; they share the machine with the servers)`);
    console.log(
      `load average:            ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} on ${cpus().length} CPUs (a loaded machine stretches wall time, not CPU time)`,
    );
    const perClientRss = perClient('rss');
    console.log(
      `memory per idle client:  RSS ${(perClientRss / 1024).toFixed(1)} KB  (heap ${(perClient('heapUsed') / 1024).toFixed(1)} KB, external ${(perClient('external') / 1024).toFixed(1)} KB)`,
    );

    const misses: string[] = [];
    if (heldAtEnd < clients || incomplete > 0) misses.push(`held ${heldAtEnd}/${clients}, ${incomplete} incomplete changes`);
    if (!(p99 < TARGET_P99_MS)) misses.push(`p99 ${fmt(p99)} >= ${TARGET_P99_MS} ms`);
    if (!(perClientRss < TARGET_BYTES_PER_CLIENT)) misses.push(`${(perClientRss / 1024).toFixed(1)} KB per client >= 20 KB`);
    console.log(misses.length ? `TARGETS MISSED: ${misses.join('; ')}` : 'all targets met');
    process.exitCode = misses.length ? 1 : 0;
  } finally {
    for (const child of clientProcs) child.send({ type: 'quit' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await Promise.all(
      instances.map(
        (instance) =>
          new Promise<void>((resolve) => {
            if (instance.process.exitCode !== null) return resolve();
            const timer = setTimeout(() => (instance.process.kill('SIGKILL'), resolve()), 10_000);
            instance.process.once('exit', () => (clearTimeout(timer), resolve()));
            instance.send({ type: 'quit' });
          }),
      ),
    );
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--client')) await runClients();
else if (process.argv.includes('--instance')) await runInstance();
else await runServer();
