/**
 * The live stream: CPU of the server process with many listeners on one broadcaster, crossfades on.
 *   npx tsx bench/stream-listeners.ts [listeners=1000] [seconds=20] [kbps=128] [tickMs=400] [stream|hls]
 * `hls`: the same timeline cut into 4 s HLS segments by the station's segmenter (written to a filesystem blob
 * store, as DATA_DIR/blobs) and served by the station's HLS routes; each listener reloads the playlist every
 * 2 s, as a player does, and fetches every segment it has not had yet. A listener is then in pace when it got
 * every segment published during the window and never a failed request.
 * The broadcaster (playout: decode, normalise, crossfade, limit, encode once; fan-out) and the Fastify route
 * run here; the tracks are 10 s tones at alternating levels, crossfaded by 3 s, so the playout spends 60 % of
 * the time mixing two decoders. The listeners (plain http.get clients on loopback) run in a child process, so
 * process.cpuUsage() below counts only the server. First the playout runs alone for a few seconds (its own
 * cost, no listener), then it is measured once every listener is connected. A listener is in pace when it receives bitrate-rate bytes (±10 %) over the window, its player
 * buffer (bytes received as audio time, minus wall time since its first byte) never runs dry nor holds more
 * than the lead plus 0.5 s, and no two chunks arrive more than a tick plus 200 ms apart. (These real-time figures used
 * to be asserted by test/station/stream/stream-http.test.ts, which now checks the pacing logic on a
 * hand-driven clock.) Exits 1 when a target is missed.
 */
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { createMp3Encoder } from 'wasm-media-encoders';
import { analyseTrack } from '../src/engine/audio/track-analysis.js';
import { DEFAULT_TICK_MS, StreamBroadcaster, type SourceTrack, type StreamTimers } from '../src/station/stream/broadcaster.js';
import { streamRoute } from '../src/station/stream/stream-route.js';
import { HlsSegmenter } from '../src/station/stream/hls-segmenter.js';
import { hlsRoutes } from '../src/station/stream/hls-route.js';
import { FileBlobStore } from '../src/infra/blobs/blob-store.js';

const listeners = Number(process.argv[2] ?? 1000);
const seconds = Number(process.argv[3] ?? 20);
const kbps = Number(process.argv[4] ?? 128) as 128 | 192 | 320;
const tickMs = Number(process.argv[5] ?? DEFAULT_TICK_MS);
const hls = process.argv[6] === 'hls';
const PATH = hls ? '/radio/hls/live.m3u8' : '/radio/stream';

async function tone(frequencyHz: number, durationSec: number, amplitude: number): Promise<Buffer> {
  const encoder = await createMp3Encoder();
  encoder.configure({ sampleRate: 44100, channels: 2, bitrate: kbps });
  const samples = Math.round(durationSec * 44100);
  const channel = new Float32Array(samples);
  for (let i = 0; i < samples; i++) channel[i] = amplitude * Math.sin((2 * Math.PI * frequencyHz * i) / 44100);
  return Buffer.concat([encoder.encode([channel, channel]).slice(), encoder.finalize().slice()]);
}

const CLIENT = `
import http from 'node:http';
const [port, count, seconds, path, bytesPerSec, leadSec, tickMs] = process.argv.slice(1).map((v, i) => (i === 3 ? v : Number(v)));
const agent = new http.Agent({ maxSockets: Infinity });
const all = [];
const connect = () => new Promise((resolve, reject) => {
  const request = http.get({ host: '127.0.0.1', port, path, agent }, (response) => {
    const l = { bytes: 0, first: 0, last: performance.now(), maxGap: 0, minAheadSec: Infinity, maxAheadSec: -Infinity, measuring: false, request };
    response.on('data', (chunk) => {
      const now = performance.now();
      if (l.bytes === 0) l.first = now;
      l.maxGap = Math.max(l.maxGap, now - l.last);
      l.last = now;
      // Buffer just before this chunk: audio received so far minus time played since the first byte.
      if (l.measuring) l.minAheadSec = Math.min(l.minAheadSec, l.bytes / bytesPerSec - (now - l.first) / 1000);
      l.bytes += chunk.length;
      if (l.measuring) l.maxAheadSec = Math.max(l.maxAheadSec, l.bytes / bytesPerSec - (now - l.first) / 1000);
    });
    all.push(l);
    resolve();
  });
  request.on('error', reject);
});
for (let i = 0; i < count; i += 100) await Promise.all(Array.from({ length: Math.min(100, count - i) }, connect));
await new Promise((r) => setTimeout(r, 1000));
const start = performance.now();
for (const l of all) { l.from = l.bytes; l.maxGap = 0; l.last = start; l.measuring = true; }
const cpuStart = process.cpuUsage();
process.send({ type: 'measuring' });
await new Promise((r) => setTimeout(r, seconds * 1000));
const windowSec = (performance.now() - start) / 1000;
const rates = all.map((l) => (l.bytes - l.from) / windowSec / bytesPerSec);
const gaps = all.map((l) => Math.max(l.maxGap, performance.now() - l.last));
const inPace = all.filter((l, i) => Math.abs(rates[i] - 1) <= 0.1 && l.minAheadSec > 0 && l.maxAheadSec <= leadSec + 0.5 && gaps[i] < tickMs + 200).length;
const cpu = process.cpuUsage(cpuStart);
process.send({ type: 'report', connected: all.length, inPace, minRate: Math.min(...rates), maxRate: Math.max(...rates),
  maxGapMs: Math.max(...gaps), minAheadSec: Math.min(...all.map((l) => l.minAheadSec)), maxAheadSec: Math.max(...all.map((l) => l.maxAheadSec)), windowSec,
  clientCpuPercent: ((cpu.user + cpu.system) / 1000 / (windowSec * 1000)) * 100 });
for (const l of all) l.request.destroy();
setTimeout(() => process.exit(0), 200);
`;

const HLS_CLIENT = `
import http from 'node:http';
const [port, count, seconds, path] = process.argv.slice(1).map((v, i) => (i === 3 ? v : Number(v)));
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const get = (url) => new Promise((resolve, reject) => {
  http.get({ host: '127.0.0.1', port, path: url, agent }, (response) => {
    const chunks = [];
    response.on('data', (chunk) => chunks.push(chunk));
    response.on('end', () => resolve({ status: response.statusCode, body: Buffer.concat(chunks) }));
  }).on('error', reject);
});
const base = path.slice(0, path.lastIndexOf('/') + 1);
let measuring = false;
const all = Array.from({ length: count }, () => ({ seen: new Set(), segments: 0, failures: 0, requests: 0 }));
const published = new Set();
let stop = false;
// Each listener reloads the playlist every 2 s (players reload about once per target duration), staggered.
const loop = async (l, i) => {
  await new Promise((r) => setTimeout(r, (i / count) * 2000));
  while (!stop) {
    const next = new Promise((r) => setTimeout(r, 2000));
    try {
      const playlist = await get(path);
      l.requests++;
      if (playlist.status !== 200) { if (measuring) l.failures++; }
      else {
        const names = playlist.body.toString().split('\\n').filter((line) => line && !line.startsWith('#'));
        // On the first load a player starts near the live edge: only the newest segment.
        const wanted = l.seen.size === 0 ? names.slice(-1) : names.filter((name) => !l.seen.has(name));
        for (const name of wanted) {
          l.seen.add(name);
          const segment = await get(base + name);
          l.requests++;
          if (segment.status !== 200 || segment.body.length === 0) { if (measuring) l.failures++; continue; }
          if (measuring) { l.segments++; published.add(name.split('?')[0]); }
        }
      }
    } catch { if (measuring) l.failures++; }
    await next;
  }
};
const loops = all.map(loop);
await new Promise((r) => setTimeout(r, 10000));
const start = performance.now();
measuring = true;
const cpuStart = process.cpuUsage();
process.send({ type: 'measuring' });
await new Promise((r) => setTimeout(r, seconds * 1000));
measuring = false;
const windowSec = (performance.now() - start) / 1000;
const cpu = process.cpuUsage(cpuStart);
stop = true;
// Segments fetched during the window, against those anyone saw published: a listener may miss at most the one at each edge.
const expected = published.size;
const inPace = all.filter((l) => l.failures === 0 && l.segments >= expected - 2).length;
process.send({ type: 'report', connected: all.filter((l) => l.requests > 0).length, inPace, segmentsPublished: expected,
  minSegments: Math.min(...all.map((l) => l.segments)), failures: all.reduce((s, l) => s + l.failures, 0),
  requests: all.reduce((s, l) => s + l.requests, 0), windowSec, clientCpuPercent: ((cpu.user + cpu.system) / 1000 / (windowSec * 1000)) * 100 });
setTimeout(() => process.exit(0), 200);
`;

const tracks = await Promise.all([220, 330, 440].map((frequency, i) => tone(frequency, 10, i % 2 ? 0.1 : 0.3)));
// Measured once, as the station caches them (playout_analyses): the run measures playing, not analysing.
const analyses = await Promise.all(tracks.map((file) => analyseTrack(file, 'mp3')));
let next = 0;
// The real clock, with a record of how late each tick fired (a starved server shows here first).
let lastTick = 0;
let maxTickGapMs = 0;
const timers: StreamTimers = {
  now: () => Date.now(),
  setInterval: (callback, ms) =>
    setInterval(() => {
      const now = performance.now();
      if (lastTick > 0) maxTickGapMs = Math.max(maxTickGapMs, now - lastTick);
      lastTick = now;
      callback();
    }, ms),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};
const broadcaster = new StreamBroadcaster(
  {
    async next(): Promise<SourceTrack> {
      const index = next++ % tracks.length;
      return { id: `tone-${next}`, bitrateKbps: kbps, crossfadeSec: 3, read: async () => tracks[index], analysis: async () => analyses[index] };
    },
  },
  { timers, tickMs },
);
let crossfades = 0;
broadcaster.onTrackStart(() => crossfades++);
const app = Fastify();
const { mkdtempSync, rmSync } = await import('node:fs');
const { tmpdir } = await import('node:os');
const { join } = await import('node:path');
const blobDir = mkdtempSync(join(tmpdir(), 'stream-listeners-'));
if (hls) {
  const blobs = new FileBlobStore(blobDir);
  const segmenter = new HlsSegmenter({ blobs, prefix: 'hls/live', leadMs: broadcaster.leadMs, onError: (error) => console.error(error) });
  broadcaster.onChunk((chunk) => void segmenter.push(chunk));
  await app.register(hlsRoutes(blobs, { basePath: '/radio/hls', prefix: 'hls/live', authorize: async () => undefined }));
} else await app.register(streamRoute(broadcaster, { path: PATH, name: 'bench' }));
await app.listen({ port: 0, host: '127.0.0.1' });
await broadcaster.start();
// The playout alone, no listener: what rendering and encoding the timeline costs.
const aloneSec = 8;
await new Promise((resolve) => setTimeout(resolve, 1000));
const aloneCpuStart = process.cpuUsage();
const aloneWallStart = performance.now();
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();
await new Promise((resolve) => setTimeout(resolve, aloneSec * 1000));
loopDelay.disable();
const aloneCpu = process.cpuUsage(aloneCpuStart);
const playoutAloneCpuPercent = ((aloneCpu.user + aloneCpu.system) / 1000 / (performance.now() - aloneWallStart)) * 100;
const port = (app.server.address() as AddressInfo).port;

const child = spawn(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    hls ? HLS_CLIENT : CLIENT,
    String(port),
    String(listeners),
    String(seconds),
    PATH,
    String((kbps * 1000) / 8),
    String(broadcaster.leadMs / 1000),
    String(tickMs),
  ],
  {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  },
);
let cpuAtStart = process.cpuUsage();
let wallAtStart = performance.now();
let eluAtStart = performance.eventLoopUtilization();
let peakListeners = 0;
broadcaster.onListenerCountChange((count) => (peakListeners = Math.max(peakListeners, count)));

const report = await new Promise<Record<string, number>>((resolve, reject) => {
  child.on('message', (message: { type: string } & Record<string, number>) => {
    if (message.type === 'measuring') {
      cpuAtStart = process.cpuUsage();
      wallAtStart = performance.now();
      eluAtStart = performance.eventLoopUtilization();
      maxTickGapMs = 0;
    } else if (message.type === 'report') resolve(message);
  });
  child.on('exit', (code) => reject(new Error(`client process exited with ${code}`)));
});
const cpu = process.cpuUsage(cpuAtStart);
const wallMs = performance.now() - wallAtStart;
const elu = performance.eventLoopUtilization(eluAtStart);
const cpuPercent = ((cpu.user + cpu.system) / 1000 / wallMs) * 100;

console.log(
  JSON.stringify(
    {
      listeners,
      mode: hls ? 'hls' : 'stream',
      kbps,
      tickMs,
      measuredSec: Number((wallMs / 1000).toFixed(1)),
      serverCpuPercentOfOneCore: Number(cpuPercent.toFixed(1)),
      playoutAloneCpuPercent: Number(playoutAloneCpuPercent.toFixed(1)),
      playoutAloneEventLoopDelayMs: { p99: Number((loopDelay.percentile(99) / 1e6).toFixed(1)), max: Number((loopDelay.max / 1e6).toFixed(1)) },
      trackChangesDuringRun: crossfades,
      serverCpuUserMs: Math.round(cpu.user / 1000),
      serverCpuSystemMs: Math.round(cpu.system / 1000),
      eventLoopUtilization: Number(elu.utilization.toFixed(3)),
      peakListeners,
      clientsConnected: report.connected,
      clientsInPace: report.inPace,
      ...(hls
        ? {
            segmentsPublished: report.segmentsPublished,
            minSegmentsPerListener: report.minSegments,
            failedRequests: report.failures,
            requests: report.requests,
          }
        : {}),
      ...(hls
        ? {}
        : {
            rateVsBitrate: [Number(report.minRate.toFixed(3)), Number(report.maxRate.toFixed(3))],
            clientMinBufferAheadSec: Number(report.minAheadSec.toFixed(2)),
            clientMaxBufferAheadSec: Number(report.maxAheadSec.toFixed(2)),
            leadSec: broadcaster.leadMs / 1000,
            clientMaxGapMs: Math.round(report.maxGapMs),
          }),
      serverMaxTickGapMs: Math.round(maxTickGapMs),
      clientProcessCpuPercent: Number(report.clientCpuPercent.toFixed(1)),
      rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
      target: 'server under 10 % of one core with crossfades on; every listener in pace',
    },
    null,
    2,
  ),
);
broadcaster.stop();
await app.close();
rmSync(blobDir, { recursive: true, force: true });
const missed = [
  ...(cpuPercent >= 10 ? [`server CPU ${cpuPercent.toFixed(1)} % of one core`] : []),
  ...(report.inPace < listeners ? [`${listeners - report.inPace} of ${listeners} listeners out of pace`] : []),
];
if (missed.length > 0) {
  console.error(`target missed: ${missed.join('; ')}`);
  process.exitCode = 1;
}
