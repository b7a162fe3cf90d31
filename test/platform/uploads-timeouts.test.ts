/**
 * Security issue #16, item 9: a request body that trickles in (one byte every few seconds) is cut off at
 * STATION_REQUEST_TIMEOUT_SEC with 408; an upload gets its own, longer STATION_UPLOAD_TIMEOUT_SEC. Real
 * sockets: the limits are the server's, not inject()'s.
 */
import { connect, type Socket } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { stationForSuite } from '../helpers/station.js';
import { loginAs, type Login } from './accounts-support.js';
import { artistFor, form, silentWav } from './uploads-support.js';

describe('request body timeouts', () => {
  let owner: Login;
  let port: number;

  // The shortest limits the configuration takes that still keep the upload's limit a few times the request's:
  // every second of them is waited for in real time. The FakeEngine: the accepted upload's renditions are not
  // what this suite is about (the engine only extracts an upload's style features).
  const station = stationForSuite({ STATION_REQUEST_TIMEOUT_SEC: '1', STATION_UPLOAD_TIMEOUT_SEC: '3' }, { fakeEngine: true });
  beforeAll(async () => {
    owner = await loginAs(station, 'artist');
    await artistFor(station, owner.userId);
    const address = await station.http.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(address).port);
  });

  /** Sends the head, then the body a piece every `everyMs`, until the server answers or closes. */
  async function trickle(head: string, body: Buffer, pieces: number, everyMs: number) {
    const socket: Socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    const started = Date.now();
    let answer = '';
    let closed = false;
    socket.on('data', (chunk) => (answer += chunk.toString()));
    const done = new Promise<void>((resolve) => socket.once('close', () => ((closed = true), resolve())));
    socket.write(head);
    const size = Math.ceil(body.length / pieces);
    for (let offset = 0; offset < body.length && !closed && answer === ''; offset += size) {
      socket.write(body.subarray(offset, offset + size));
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    // Then the answer (an upload is checked before it is answered), or the server closing.
    const answered = new Promise<void>((resolve) => socket.on('data', () => answer.includes('\r\n\r\n') && resolve()));
    if (answer === '' && !closed) await Promise.race([done, answered, new Promise((resolve) => setTimeout(resolve, 20_000))]);
    socket.destroy();
    return { answer, seconds: (Date.now() - started) / 1000 };
  }

  it('cuts off a login whose body arrives a byte at a time with 408, within the request limit', async () => {
    const body = Buffer.from(JSON.stringify({ email: 'slow@example.com', password: 'x'.repeat(40) }));
    const head = `POST /v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    // One byte every 500 ms would take 30 s; the limit is 1 s.
    const { answer, seconds } = await trickle(head, body, body.length, 500);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('REQUEST_TIMEOUT');
    expect(seconds).toBeLessThan(3);
  }, 30_000);

  it('gives an upload its longer limit: a body sent over 1.5 s is accepted, one that trickles past 3 s is cut off', async () => {
    const upload = form({ title: 'Slow link', genre: 'Test' }, { data: silentWav(1.5), contentType: 'audio/wav' });
    const head = (length: number) =>
      [
        'POST /v1/tracks HTTP/1.1',
        'Host: 127.0.0.1',
        `Authorization: Bearer ${owner.token}`,
        `X-CSRF-Token: ${owner.csrf}`,
        `Content-Type: ${upload.headers['content-type']}`,
        `Content-Length: ${length}`,
        '',
        '',
      ].join('\r\n');
    // Longer than the request limit (1 s), within the upload's (3 s).
    const accepted = await trickle(head(upload.payload.length), upload.payload, 10, 150);
    expect(accepted.answer).toMatch(/^HTTP\/1\.1 202/);

    const cut = await trickle(head(upload.payload.length), upload.payload, 100, 250);
    expect(cut.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(cut.seconds).toBeGreaterThan(2.5);
    expect(cut.seconds).toBeLessThan(5);
  }, 60_000);
});
