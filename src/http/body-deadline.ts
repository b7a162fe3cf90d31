/**
 * A deadline on each request's body: it must have arrived whole within `requestTimeoutMs` of the request's
 * start (a route may give itself a longer `bodyTimeoutMs`, as uploads do), or the server answers 408
 * REQUEST_TIMEOUT and closes the connection. A client that sends one byte every few seconds would
 * otherwise hold a socket, a parser and a spool file for as long as it likes: the socket's idle timeout
 * never fires while bytes trickle in, and Node's own `requestTimeout` is one limit for every route (it is
 * set to the longest, as a backstop, in server.ts).
 */
import type { FastifyInstance } from 'fastify';
import { sendError } from './error-handler.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's own limit for its body to arrive (uploads); the server's request timeout otherwise. */
    bodyTimeoutMs?: number;
  }
}

export function registerBodyDeadline(app: FastifyInstance, requestTimeoutMs: number): void {
  // The callback form: it runs on every request, and an async hook costs a promise and a microtask each.
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    if (raw.complete) return done(); // no body, or all of it is here already
    const limitMs = request.routeOptions.config?.bodyTimeoutMs ?? requestTimeoutMs;
    const timer = setTimeout(() => {
      if (raw.complete || reply.sent || raw.destroyed) return;
      request.log.info({ limit_ms: limitMs }, 'request body too slow: 408 and close');
      // The rest of the body will never be read: the connection cannot be reused, so it is closed after the answer.
      reply.header('Connection', 'close');
      reply.raw.once('finish', () => raw.socket?.destroy());
      void sendError(request, reply, {
        status: 408,
        code: 'REQUEST_TIMEOUT',
        message: 'The request body did not arrive in time',
        detail: `the whole body must arrive within ${Math.round(limitMs / 1000)} s`,
        retryAfter: null,
      });
    }, limitMs);
    timer.unref();
    const clear = () => clearTimeout(timer);
    raw.once('end', clear);
    raw.once('close', clear);
    reply.raw.once('finish', clear);
    done();
  });
}
