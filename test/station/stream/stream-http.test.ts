/**
 * End to end over real HTTP: the stream route on a Fastify server, listeners on loopback, the broadcaster
 * on a hand-driven clock. After every tick each listener holds exactly the program's bytes (what a listener
 * in memory, there from the start, got) from where its lead began to the live edge of stream time: paced
 * (never behind, never ahead) and the same bytes for the same position whoever listens. How it keeps pace on the real clock, with many
 * listeners, is measured by bench/stream-listeners.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../../../src/http/error-handler.js';
import { StreamBroadcaster } from '../../../src/station/stream/broadcaster.js';
import { icyMetadataBlock } from '../../../src/station/stream/icy-metadata.js';
import { parseMp3, type Mp3Frame } from '../../../src/engine/audio/mp3-frames.js';
import { FRAME_MS } from '../../../src/station/stream/fanout.js';
import { streamRoute } from '../../../src/station/stream/stream-route.js';
import { pollUntil } from '../../helpers/poll.js';
import { FakeTimers, ListSource, MemorySink, deinterleave, tagged, toneMp3, type TestTrack } from './helpers.js';

const PATH = '/station/v1/radio/stream';
const LEAD_MS = 1500;
const MAX_BACKLOG_MS = 3000;
const TICK_MS = 200;

interface Reception {
  response: http.IncomingMessage;
  chunks: Buffer[];
  request: http.ClientRequest;
  bytes(): Buffer;
}

let app: FastifyInstance;
let broadcaster: StreamBroadcaster;
let timers: FakeTimers;
let tracks: TestTrack[];
let baseUrl: string;
let reference: MemorySink;
let primed: number;
let startedAt: number;
const counts: number[] = [];

function listen(options: { read: boolean; headers?: Record<string, string> }): Promise<Reception> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${baseUrl}${PATH}`, { headers: options.headers }, (response) => {
      const chunks: Buffer[] = [];
      if (options.read) response.on('data', (chunk: Buffer) => chunks.push(chunk));
      else response.pause();
      response.on('error', () => {});
      resolve({ response, chunks, request, bytes: () => Buffer.concat(chunks) });
    });
    request.on('error', reject);
  });
}

/** Frames the reference listener (attached before start, so it got everything) holds now. */
function sentFrames(): Mp3Frame[] {
  return parseMp3(reference.bytes()).frames;
}

/** The first frame of the lead a listener joining after `sent` frames gets: those ending after edge - lead. */
function leadStart(sent: number): number {
  const edge = sent * FRAME_MS;
  let first = 0;
  while ((first + 1) * FRAME_MS <= edge - LEAD_MS + 1e-6) first++;
  return first;
}

/** What a listener that joined when `joinedAt` frames were sent must hold now. */
function expectedBytes(joinedAt: number): Buffer {
  const frames = sentFrames();
  const program = reference.bytes();
  const first = frames[leadStart(joinedAt)];
  const last = frames[frames.length - 1];
  return program.subarray(first.offset, last.offset + last.length);
}

const streamTime = () => timers.now() - startedAt;

/** One tick of the clock: the stream is paced, and every reading listener holds exactly what it should. */
async function tick(listeners: { reception: Reception; joinedAt: number }[]): Promise<void> {
  await timers.advance(TICK_MS);
  const sent = sentFrames().length;
  const due = primed + Math.floor(streamTime() / FRAME_MS);
  expect(sent).toBeGreaterThanOrEqual(due);
  expect(sent).toBeLessThanOrEqual(due + 1);
  for (const { reception, joinedAt } of listeners) {
    const expected = expectedBytes(joinedAt);
    await pollUntil(
      `a listener holds ${expected.length} bytes`,
      () => reception.chunks.reduce((sum, c) => sum + c.length, 0) >= expected.length,
      (met) => met,
      5000,
      5,
    );
    expect(reception.bytes().equals(expected)).toBe(true);
  }
}

beforeAll(async () => {
  tracks = [
    { id: 'one', title: 'Tone one', file: tagged(await toneMp3(220, 2), 'one') },
    { id: 'two', title: 'Tone two', file: tagged(await toneMp3(440, 2), 'two') },
    { id: 'three', title: 'Tone three', file: tagged(await toneMp3(660, 2), 'three') },
  ];
  timers = new FakeTimers();
  broadcaster = new StreamBroadcaster(new ListSource(tracks, true), { timers, tickMs: TICK_MS, leadMs: LEAD_MS, maxBacklogMs: MAX_BACKLOG_MS });
  timers.settle = () => broadcaster.idle();
  primed = Math.ceil(LEAD_MS / FRAME_MS);
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

describe('GET stream (real HTTP, hand-driven clock)', () => {
  it('refuses a listener that authorize() turns away, with the error envelope', async () => {
    const reply = await app.inject({ method: 'GET', url: PATH, headers: { 'x-test-listener': 'banned' } });
    expect(reply.statusCode).toBe(401);
    expect(reply.json().error.code).toBe('STATION_AUTH_REQUIRED');
    const head = await app.inject({ method: 'HEAD', url: PATH });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('audio/mpeg');
    expect(broadcaster.listenerCount()).toBe(0);
  });

  it('streams paced, identical MP3 frames to every listener and drops the one that never reads', async () => {
    reference = new MemorySink(); // in memory: everything sent, from the first tick
    broadcaster.addListener(reference);
    startedAt = timers.now();
    await broadcaster.start();
    counts.length = 0;
    await timers.advance(TICK_MS);
    const a = await listen({ read: true });
    const joinedA = sentFrames().length;
    expect(a.response.statusCode).toBe(200);
    expect(a.response.headers['content-type']).toBe('audio/mpeg');
    expect(a.response.headers['cache-control']).toBe('no-cache, no-store');
    expect(a.response.headers['x-content-type-options']).toBe('nosniff');
    expect(a.response.headers['icy-br']).toBe('128');
    expect(a.response.headers['icy-name']).toBe('Station Test');
    expect(a.response.headers['content-length']).toBeUndefined();
    // At once: the last 1.5 s (a fresh stream counts its first lead as sent already).
    const lead = expectedBytes(joinedA);
    expect(parseMp3(lead).durationMs).toBeGreaterThanOrEqual(LEAD_MS);
    await pollUntil(
      'A has its lead',
      () => a.bytes().length >= lead.length,
      (met) => met,
      5000,
      5,
    );
    expect(a.bytes().equals(lead)).toBe(true);

    // Past the end of the first track, through the crossfade into the second.
    for (let i = 0; i < 10; i++) await tick([{ reception: a, joinedAt: joinedA }]);

    const b = await listen({ read: true });
    const joinedB = sentFrames().length;
    const joinedBMs = streamTime();
    const paused = await listen({ read: false }); // an HTTP client that never reads: the kernel buffers ~4 MB first
    let stuckClosed = false;
    const stuck = new Writable({ highWaterMark: 1024, write: () => {} }); // never acknowledges a write
    stuck.on('close', () => (stuckClosed = true));
    broadcaster.addListener(stuck);
    expect(broadcaster.listenerCount()).toBe(5); // with the reference
    // B's lead is the full 1.5 s, the end of what A already has, byte for byte.
    const leadOfB = expectedBytes(joinedB);
    expect(parseMp3(leadOfB).durationMs).toBeGreaterThanOrEqual(LEAD_MS);
    await pollUntil(
      'B has its lead',
      () => b.bytes().length >= leadOfB.length,
      (met) => met,
      5000,
      5,
    );
    expect(b.bytes().equals(leadOfB)).toBe(true);
    expect(
      a
        .bytes()
        .subarray(a.bytes().length - leadOfB.length)
        .equals(leadOfB),
    ).toBe(true);

    // The stuck listener is dropped once it holds more than 3 s of audio; nobody else is held up meanwhile.
    const listening = [
      { reception: a, joinedAt: joinedA },
      { reception: b, joinedAt: joinedB },
    ];
    while (!stuckClosed) {
      expect(streamTime() - joinedBMs).toBeLessThan(MAX_BACKLOG_MS); // it held the lead plus what came since
      await tick(listening);
    }
    expect(stuck.destroyed).toBe(true);
    for (let i = 0; i < 2; i++) await tick(listening);

    // Every byte is an MPEG-1 Layer III audio frame: no tags, no Info frame, no garbage.
    for (const bytes of [a.bytes(), b.bytes()]) {
      const parsed = parseMp3(bytes);
      expect(parsed.skipped).toEqual({ id3v2Bytes: 0, id3v1: false, infoFrame: null, garbageBytes: 0, truncatedTail: false });
      expect(parsed.frames.every((f) => f.bitrateKbps === 128 && f.sampleRate === 44100)).toBe(true);
    }
    expect(parseMp3(a.bytes()).durationMs).toBeGreaterThan(4000);

    // Counts went up to five and back to one (the reference) as clients left.
    for (const reception of [a, b, paused]) reception.request.destroy();
    await pollUntil(
      'every listener is gone',
      () => broadcaster.listenerCount() === 1,
      (met) => met,
      5000,
      5,
    );
    expect(counts.slice(0, 4)).toEqual([2, 3, 4, 5]);
    expect(counts.at(-1)).toBe(1);
  });

  it('interleaves ICY metadata (StreamTitle) for a player that sends Icy-MetaData: 1', async () => {
    const reception = await listen({ read: true, headers: { 'Icy-MetaData': '1' } });
    expect(reception.response.headers['icy-metaint']).toBe('16000');
    // The 1.5 s lead alone is 24,000 bytes, past one metaint of 16,000: its first block comes with it.
    const lead = expectedBytes(sentFrames().length);
    const block = icyMetadataBlock(broadcaster.currentTitle()!);
    await pollUntil(
      'the lead and its metadata block arrive',
      () => reception.bytes().length >= lead.length + block.length,
      (met) => met,
      5000,
      5,
    );
    reception.request.destroy();
    const { audio, blocks } = deinterleave(reception.bytes(), 16_000);
    expect(audio.equals(lead)).toBe(true);
    expect(blocks).toHaveLength(1);
    expect(blocks[0].text).toMatch(/^StreamTitle='Tone (one|two|three)';$/);
  });
});
