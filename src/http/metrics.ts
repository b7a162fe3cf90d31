/**
 * Prometheus metrics at /metrics: request count and latency by route and status, plus domain gauges.
 * Open by default; with METRICS_TOKEN set, only a scraper presenting `Authorization: Bearer <token>` reads them.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { Errors } from '../errors.js';

export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Compares digests, so neither the token's content nor its length shows in the timing. */
export function bearerMatches(request: FastifyRequest, expectedDigest: Buffer): boolean {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match !== null && timingSafeEqual(digest(match[1]), expectedDigest);
}

export function registerHttpMetrics(app: FastifyInstance, registry: Registry, token: string | null = null): void {
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  // The callback form: it runs on every request, and an async hook costs a promise and a microtask each.
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL, keeps label cardinality bounded.
    const labels = {
      method: request.method,
      route: request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched'),
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
    done();
  });
  const tokenDigest = token === null ? null : digest(token);
  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    if (tokenDigest && !bearerMatches(request, tokenDigest)) {
      reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
      throw Errors.authRequired('GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
    }
    reply.type(registry.contentType);
    return registry.metrics();
  });
}
