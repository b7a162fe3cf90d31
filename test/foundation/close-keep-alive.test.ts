/**
 * A keep-alive connection whose response is still being sent when the close begins must not hold the close.
 * Fastify closes the idle keep-alive connections once, at the start of the close; a connection busy then became
 * idle when its response ended and was kept for the keep-alive timeout (72 s): server.close() waited that long
 * (catalog's suite once took 74 s), and in production a SIGTERM hit the 25 s forced exit before the shutdown had
 * released jobs, leases and the database.
 *
 * The server under test is the product's own (`buildHttpServer`) with two routes the test holds open. Its
 * keep-alive timeout is set to an hour, so that a connection left to it makes close() hang past the test's
 * timeout: the assertions are about events (the server closed the socket, close() resolved), not durations.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { buildHttpServer } from '../../src/http/server.js';
import { pollUntil } from '../helpers/poll.js';
import { stationForSuite } from '../helpers/station.js';

const AN_HOUR_MS = 3_600_000;

interface Held {
  app: FastifyInstance;
  base: string;
  /** Resolves once the route is running (and, for /streamed, its headers and first chunk are sent). */
  arrived: Promise<void>;
  /** Lets the held route finish its response. */
  release: () => void;
}

describe('closing the HTTP server with a response in flight', () => {
  const station = stationForSuite({}, { fakeEngine: true });
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function heldServer(): Promise<Held> {
    let arrive!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const app = await buildHttpServer(
      {
        log: null,
        auth: station.auth,
        metrics: new Registry(),
        rateLimitRedis: null,
        rateLimitNamespace: 'close-keep-alive:',
        publicBaseUrl: 'http://station.test',
        trustProxy: station.config.trustProxy,
        isReady: async () => true,
      },
      async (server) => {
        // The whole answer is written after the release: its headers too.
        server.get('/held', { config: { public: true }, schema: { hide: true } }, async () => {
          arrive();
          await released;
          return { done: true };
        });
        // Headers and a first chunk before the release, the end after (a media stream, a download).
        server.get('/streamed', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
          reply.hijack();
          reply.raw.writeHead(200, { 'content-type': 'text/plain' });
          reply.raw.write('first ', () => arrive());
          await released;
          reply.raw.end('last');
        });
      },
    );
    app.server.keepAliveTimeout = AN_HOUR_MS;
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    return { app, base, arrived, release };
  }

  /**
   * Starts the close and waits until the server has stopped listening: Fastify's one pass over the idle
   * connections is over. The close itself is returned wrapped (an async function would wait for it).
   */
  async function beginClose(app: FastifyInstance): Promise<{ closed: Promise<void> }> {
    const closed = app.close();
    await pollUntil(
      'the server stops listening',
      () => app.server.listening,
      (listening) => !listening,
      10_000,
      5,
    );
    return { closed };
  }

  interface Answer {
    status: number;
    headers: IncomingHttpHeaders;
    body: string;
  }

  function get(agent: Agent, url: string, onSocket: (socket: Socket) => void): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(url, { agent }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      });
      request.on('socket', onSocket);
      request.on('error', reject);
      request.end();
    });
  }

  for (const path of ['/held', '/streamed']) {
    it(`closes the connection once the response to ${path} in flight at the close is sent`, async () => {
      const { app, base, arrived, release } = await heldServer();
      cleanups.push(() => app.close());
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      cleanups.push(() => agent.destroy());
      let socket: Socket | undefined;
      const answered = get(agent, `${base}${path}`, (assigned) => (socket = assigned));
      await arrived;
      expect(socket).toBeDefined();
      let serverEnded = false;
      socket!.once('end', () => (serverEnded = true));
      const socketClosed = new Promise<void>((resolve) => socket!.once('close', () => resolve()));

      const { closed } = await beginClose(app);
      release();
      const answer = await answered;
      expect(answer.status).toBe(200);
      expect(answer.body).toBe(path === '/held' ? '{"done":true}' : 'first last');
      // The case under test: the answer promised to keep the connection, so only the server's close ends it.
      expect(answer.headers.connection).toBe('keep-alive');

      await socketClosed;
      // The server ended it (the client's agent keeps sockets until it is destroyed, after the test).
      expect(serverEnded).toBe(true);
      await closed;
      expect(app.server.listening).toBe(false);
    });
  }

  it('answers a request that arrives on the connection after the close began, then ends it', async () => {
    const { app, base, arrived, release } = await heldServer();
    cleanups.push(() => app.close());
    const { hostname, port } = new URL(base);
    const socket = connect({ host: hostname, port: Number(port) });
    cleanups.push(() => socket.destroy());
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    const ended = new Promise<void>((resolve) => socket.once('end', () => resolve()));
    socket.write('GET /held HTTP/1.1\r\nHost: station.test\r\n\r\n');
    await arrived;

    const { closed } = await beginClose(app);
    // Pipelined behind the held request, on the same keep-alive connection, after the close began; /held is
    // released only once the server has read it, so it is surely waiting on the connection when /held ends.
    const secondRead = new Promise<void>((resolve) => app.server.once('request', () => resolve()));
    socket.write('GET /healthz HTTP/1.1\r\nHost: station.test\r\n\r\n');
    await secondRead;
    release();
    await ended;
    await closed;

    const answers = received.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200 /);
    expect(answers[0]).toContain('{"done":true}');
    // Fastify sheds a request that reaches it during the close with 503 and Connection: close.
    expect(answers[1]).toMatch(/^HTTP\/1\.1 503 /);
    expect(answers[1].toLowerCase()).toContain('connection: close');
  });
});
