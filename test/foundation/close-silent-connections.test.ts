/**
 * A connection that is open but has sent no request (a browser's preconnect, a health checker's half-open
 * socket) must not hold the station's close(). Node counts such a socket as busy until its headers timeout
 * (60 s), so a SIGTERM waited that long and was then cut short by the forced exit, skipping the rest of the
 * shutdown (jobs, leases, the database). That a request in flight still finishes is test/foundation/shutdown.test.ts's.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { buildTestStation } from '../helpers/station.js';

const HEADERS_TIMEOUT_MS = 60_000;

function openSilent(address: string): Promise<Socket> {
  const { hostname, port } = new URL(address);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('closing the HTTP server', () => {
  it(
    'closes connections that never sent a request instead of waiting for their headers timeout',
    async () => {
      const station = await buildTestStation({}, { fakeEngine: true });
      const address = await station.http.listen({ port: 0, host: '127.0.0.1' });
      const silent = await openSilent(address);
      // The server ends the silent socket (its FIN reaches the client), the client never closes it itself.
      let endedByServer = false;
      silent.once('end', () => {
        endedByServer = true;
      });
      const closedByServer = new Promise<void>((resolve) => silent.once('close', () => resolve()));
      // A connection with a request answered, then idle (keep-alive): Fastify already closes those.
      const answered = await fetch(`${address}/healthz`);
      expect(answered.status).toBe(200);

      await station.destroy();
      await closedByServer;
      expect(silent.destroyed).toBe(true);
      expect(endedByServer).toBe(true);
    },
    // Without the fix the close waits for the headers timeout, so the test fails by its own timeout first.
    HEADERS_TIMEOUT_MS / 2,
  );
});
