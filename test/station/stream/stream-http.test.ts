/**
 * End to end, in real time over real HTTP: the stream route on a Fastify server, listeners on loopback.
 * About 5 s of wall time: three 2 s tones in a loop, listeners joining at different moments.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../../../src/http/error-handler.js';
import { StreamBroadcaster } from '../../../src/station/radio/stream/broadcaster.js';
import { parseMp3 } from '../../../src/station/radio/stream/mp3-frames.js';
import { streamRoute } from '../../../src/station/radio/stream/stream-route.js';
import { ListSource, audioBytes, deinterleave, tagged, toneMp3, type TestTrack } from './helpers.js';

const PATH = '/station/v1/radio/stream';
const BYTES_PER_SEC = 128_000 / 8;
const LEAD_MS = 1500;

interface Reception {
  response: http.IncomingMessage;
  connectedAt: number;
  chunks: Buffer[];
  arrivals: { at: number; total: number }[];
  request: http.ClientRequest;
}

let app: FastifyInstance;
let broadcaster: StreamBroadcaster;
let tracks: TestTrack[];
let baseUrl: string;
const counts: number[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function listen(options: { read: boolean; headers?: Record<string, string> }): Promise<Reception> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${baseUrl}${PATH}`, { headers: options.headers }, (response) => {
      const reception: Reception = { response, connectedAt: performance.now(), chunks: [], arrivals: [], request };
      if (options.read) {
        let total = 0;
        response.on('data', (chunk: Buffer) => {
          reception.chunks.push(chunk);
          total += chunk.length;
          reception.arrivals.push({ at: performance.now(), total });
        });
      } else {
        response.pause();
      }
      response.on('error', () => {});
      resolve(reception);
    });
    request.on('error', reject);
  });
}

beforeAll(async () => {
  tracks = [
    { id: 'one', title: 'Tone one', file: tagged(await toneMp3(220, 2), 'one') },
    { id: 'two', title: 'Tone two', file: tagged(await toneMp3(440, 2), 'two') },
    { id: 'three', title: 'Tone three', file: tagged(await toneMp3(660, 2), 'three') },
  ];
  broadcaster = new StreamBroadcaster(new ListSource(tracks, true), { leadMs: LEAD_MS, maxBacklogMs: 3000 });
  broadcaster.onListenerCountChange((count) => counts.push(count));
  app = Fastify();
  registerErrorHandling(app);
  await app.register(streamRoute(broadcaster, { path: PATH, name: 'Station Test', authorize: (request) => request.headers['x-test-listener'] !== 'banned' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  broadcaster.stop();
  await app.close();
});

describe('GET stream (real time, real HTTP)', () => {
  it('refuses a listener that authorize() turns away, with the error envelope', async () => {
    const reply = await app.inject({ method: 'GET', url: PATH, headers: { 'x-test-listener': 'banned' } });
    expect(reply.statusCode).toBe(401);
    expect(reply.json().error.code).toBe('STATION_AUTH_REQUIRED');
    const head = await app.inject({ method: 'HEAD', url: PATH });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('audio/mpeg');
    expect(broadcaster.listenerCount()).toBe(0);
  });

  it('streams paced, gapless, identical MP3 frames to every listener and drops the one that never reads', async () => {
    const startedAt = performance.now();
    await broadcaster.start();
    await sleep(300);
    const a = await listen({ read: true });
    expect(a.response.statusCode).toBe(200);
    expect(a.response.headers['content-type']).toBe('audio/mpeg');
    expect(a.response.headers['cache-control']).toBe('no-cache, no-store');
    expect(a.response.headers['x-content-type-options']).toBe('nosniff');
    expect(a.response.headers['icy-br']).toBe('128');
    expect(a.response.headers['icy-name']).toBe('Station Test');
    expect(a.response.headers['content-length']).toBeUndefined();
    const leadOfA = Math.min(LEAD_MS, a.connectedAt - startedAt) / 1000;

    await sleep(2000); // later than the lead: B starts further into the stream than A
    const b = await listen({ read: true });
    const paused = await listen({ read: false }); // an HTTP client that never reads: the kernel buffers ~4 MB first
    let stuckClosed = false;
    const stuck = new Writable({ highWaterMark: 1024, write: () => {} }); // never acknowledges a write
    stuck.on('close', () => (stuckClosed = true));
    broadcaster.addListener(stuck);
    expect(broadcaster.listenerCount()).toBe(4);

    await sleep(2200);
    const endedAt = performance.now();
    const aBytes = Buffer.concat(a.chunks);
    const bBytes = Buffer.concat(b.chunks);
    for (const reception of [a, b, paused]) reception.request.destroy();

    // The stuck listener was dropped once it held 3 s of audio; the others were never held up.
    expect(stuckClosed).toBe(true);
    expect(stuck.destroyed).toBe(true);

    // Bytes ≈ bitrate × time (plus the lead each got at connect), within 20 %.
    const expectedA = BYTES_PER_SEC * ((endedAt - a.connectedAt) / 1000 + leadOfA);
    expect(Math.abs(aBytes.length - expectedA) / expectedA).toBeLessThan(0.2);
    const expectedB = BYTES_PER_SEC * ((endedAt - b.connectedAt) / 1000 + LEAD_MS / 1000);
    expect(Math.abs(bBytes.length - expectedB) / expectedB).toBeLessThan(0.2);

    // On time throughout: A never falls more than half a second behind real time, and never waits long.
    for (const { at, total } of a.arrivals) {
      const heldSec = total / BYTES_PER_SEC - (at - a.connectedAt) / 1000;
      expect(heldSec).toBeGreaterThan(leadOfA - 0.5);
      expect(heldSec).toBeLessThan(leadOfA + 0.5);
    }
    const gaps = a.arrivals.slice(1).map((arrival, i) => arrival.at - a.arrivals[i].at);
    expect(Math.max(...gaps)).toBeLessThan(600);

    // Every byte is an MPEG-1 Layer III audio frame: no tags, no Info frame, no garbage.
    for (const bytes of [aBytes, bBytes]) {
      const parsed = parseMp3(bytes);
      expect(parsed.skipped).toEqual({ id3v2Bytes: 0, id3v1: false, infoFrame: null, garbageBytes: 0 });
      expect(parsed.frames.every((f) => f.bitrateKbps === 128 && f.sampleRate === 44100)).toBe(true);
    }

    // The stream is the tracks' audio frames back to back: the last frame of "one" is followed by the first of "two".
    const audio = tracks.map((track) => audioBytes(track.file));
    const program = Buffer.concat([...audio, ...audio]);
    const offsetA = program.indexOf(aBytes);
    const offsetB = program.indexOf(bBytes);
    expect(offsetA).toBeGreaterThanOrEqual(0);
    expect(offsetB).toBeGreaterThan(offsetA);
    const boundary = audio[0].length;
    expect(offsetA).toBeLessThan(boundary);
    expect(offsetA + aBytes.length).toBeGreaterThan(boundary + 10_000);
    const oneFrames = parseMp3(audio[0]).frames;
    const lastOfOne = audio[0].subarray(oneFrames.at(-1)!.offset);
    const firstOfTwo = audio[1].subarray(0, parseMp3(audio[1]).frames[0].length);
    expect(aBytes.indexOf(Buffer.concat([lastOfOne, firstOfTwo]))).toBe(boundary - lastOfOne.length - offsetA);

    // Listeners that joined two seconds apart got the same bytes for the same stream positions.
    const overlap = offsetA + aBytes.length - offsetB;
    expect(overlap).toBeGreaterThan(BYTES_PER_SEC * 2);
    expect(bBytes.subarray(0, overlap).equals(aBytes.subarray(offsetB - offsetA))).toBe(true);

    // Counts went up to four and back to zero as clients left.
    for (let waited = 0; broadcaster.listenerCount() > 0 && waited < 2000; waited += 50) await sleep(50);
    expect(broadcaster.listenerCount()).toBe(0);
    expect(counts.slice(0, 4)).toEqual([1, 2, 3, 4]);
    expect(counts.at(-1)).toBe(0);
  });

  it('interleaves ICY metadata (StreamTitle) for a player that sends Icy-MetaData: 1', async () => {
    const reception = await listen({ read: true, headers: { 'Icy-MetaData': '1' } });
    await sleep(600); // the 1.5 s lead alone is 24,000 bytes, past one metaint of 16,000
    reception.request.destroy();
    expect(reception.response.headers['icy-metaint']).toBe('16000');
    const { audio, blocks } = deinterleave(Buffer.concat(reception.chunks), 16_000);
    expect(blocks.length).toBeGreaterThanOrEqual(1);
    expect(blocks[0].text).toMatch(/^StreamTitle='Tone (one|two|three)';$/);
    expect(parseMp3(audio).skipped).toEqual({ id3v2Bytes: 0, id3v1: false, infoFrame: null, garbageBytes: 0 });
  });
});
