/**
 * Security issue #16, item 4: an upload cut off by its client leaves no spooled file behind. The `.part`
 * file under DATA_DIR/tmp/uploads goes as soon as the socket closes; an hourly sweep removes what a crash
 * left; and a user's uploads in flight may not spool more than their share of the disk.
 */
import { connect, type Socket } from 'node:net';
import { mkdir, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { systemTimers, type IntervalTimers } from '../../src/infra/clock/timers.js';
import { pollUntil } from '../helpers/poll.js';
import { stationForSuite } from '../helpers/station.js';
import { loginAs, type Login } from './accounts-support.js';
import { artistFor, silentWav, stored, upload } from './uploads-support.js';

const HOUR = 3600_000;

describe('upload spool', () => {
  let owner: Login;
  let port: number;
  // Real timers, with a record of the intervals set: the test runs the hourly one itself rather than
  // advance every other module's timers by an hour.
  const intervals: { callback: () => void; ms: number }[] = [];
  const timers: IntervalTimers = {
    setInterval: (callback, ms) => (intervals.push({ callback, ms }), systemTimers.setInterval(callback, ms)),
    clearInterval: (handle) => systemTimers.clearInterval(handle),
  };

  const station = stationForSuite({ STATION_UPLOAD_MAX_MB: '30' }, { timers });
  beforeAll(async () => {
    owner = await loginAs(station, 'artist');
    await artistFor(station, owner.userId);
    const address = await station.http.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(address).port);
  });

  /** Starts a multipart upload declaring `declared` bytes of file and sends the first `sent` of them. */
  async function partialUpload(declared: number, sent: number): Promise<Socket> {
    const boundary = '----station-spool-test';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nCut off\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="genre"\r\n\r\nTest\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      [
        'POST /v1/tracks HTTP/1.1',
        'Host: 127.0.0.1',
        `Authorization: Bearer ${owner.token}`,
        `X-CSRF-Token: ${owner.csrf}`,
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        `Content-Length: ${head.length + declared + tail.length}`,
        '',
        '',
      ].join('\r\n'),
    );
    socket.write(head);
    const wav = silentWav(declared / 176_400).subarray(0, sent);
    await new Promise<void>((resolve) => socket.write(wav, () => resolve()));
    return socket;
  }

  it('removes the .part file of an upload whose client sent 5 MB of 20 MB and closed the socket', async () => {
    const socket = await partialUpload(20 * 1024 * 1024, 5 * 1024 * 1024);
    const spoolDir = join(station.config.dataDir, 'tmp', 'uploads');
    await pollUntil(
      '5 MB spooled',
      async () => (await stored(station)).spooled,
      (n) => n === 1,
      10_000,
    );
    expect((await readdir(spoolDir))[0]).toMatch(/\.part$/);
    socket.destroy();
    await pollUntil(
      'the spooled file removed on abort',
      async () => (await stored(station)).spooled,
      (n) => n === 0,
      5_000,
    );
    // The server is none the worse: the next upload works.
    const answer = await upload(station, owner, { title: 'After', genre: 'Test' }, { data: silentWav(2), contentType: 'audio/wav' });
    expect(answer.statusCode, answer.body).toBe(202);
  }, 60_000);

  it('sweeps the spool every hour: files older than an hour go, recent ones stay', async () => {
    const spoolDir = join(station.config.dataDir, 'tmp', 'uploads');
    await mkdir(spoolDir, { recursive: true });
    const old = join(spoolDir, 'left-by-a-crash.part');
    const fresh = join(spoolDir, 'in-flight.part');
    await writeFile(old, 'x');
    await writeFile(fresh, 'y');
    const twoHoursAgo = new Date(Date.now() - 2 * HOUR);
    await utimes(old, twoHoursAgo, twoHoursAgo);
    const hourly = intervals.filter((interval) => interval.ms === HOUR);
    expect(hourly.length).toBeGreaterThan(0);
    for (const interval of hourly) interval.callback();
    await pollUntil(
      'the old file swept',
      () => readdir(spoolDir),
      (names) => !names.includes('left-by-a-crash.part'),
      5_000,
    );
    expect(await readdir(spoolDir)).toContain('in-flight.part');
    await rm(fresh);
  });

  it("refuses (429) an upload that would take a user's spool past their share, declared by Content-Length", async () => {
    // Each declares 25 MB of a 30 MB limit; the user's share is two full files (60 MB).
    const sockets = [await partialUpload(25 * 1024 * 1024, 1024 * 1024)];
    await pollUntil(
      'first upload spooling',
      async () => (await stored(station)).spooled,
      (n) => n >= 1,
      10_000,
    );
    const second = await partialUpload(25 * 1024 * 1024, 1024 * 1024);
    sockets.push(second);
    const third = await partialUpload(25 * 1024 * 1024, 1024);
    sockets.push(third);
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      third.on('data', (chunk) => {
        text += chunk.toString();
        if (text.includes('}}')) resolve(text);
      });
      third.on('close', () => resolve(text));
      third.on('end', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 429/);
    expect(answer).toMatch(/retry-after: \d+/i);
    expect(answer).toContain('PLATFORM_RATE_LIMITED');
    for (const socket of sockets) socket.destroy();
    await pollUntil(
      'spool empty',
      async () => (await stored(station)).spooled,
      (n) => n === 0,
      5_000,
    );
  }, 60_000);
});
