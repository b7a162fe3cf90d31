/**
 * The process's one logger, made before anything that logs: modules receive it at construction, and the
 * HTTP server logs through it too (Fastify adds its request serializers on a child of it).
 */
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { pino, type DestinationStream, type LoggerOptions } from 'pino';

export interface AppLogger {
  /** What the modules log to. */
  log: FastifyBaseLogger;
  /** What the HTTP server logs to; null when logging is off (Fastify then skips per-request loggers). */
  http: FastifyBaseLogger | null;
}

/** As Fastify's `logger` option: pino's options, with where to write (`stream` or `file`) beside them. */
export type LoggerConfig = boolean | (LoggerOptions & { stream?: DestinationStream; file?: string });

/** `false` turns logging off (the tests), `true` logs at info, an object is pino's options (as Fastify's `logger`). */
export function createAppLogger(config: LoggerConfig): AppLogger {
  if (config === false) return { log: pino({ enabled: false }), http: null };
  const { stream, file, ...options } = config === true ? {} : config;
  const destination = stream ?? (file ? pino.destination(file) : undefined);
  const log = pino({ level: 'info', ...options, serializers: { req: requestForLog, ...options.serializers } }, destination);
  return { log, http: log };
}

/**
 * A request as its log line shows it: Fastify's fields, with every query value replaced. Some credentials can
 * only travel in the query (a WebSocket's `?token=<JWT>`, the mailed reset and verify-email links, signed media
 * and sandbox pages), and a log is no place for them; the names stay, to tell requests apart.
 */
export function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: urlForLog(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

export function urlForLog(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const names = url
    .slice(at + 1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => `${pair.split('=')[0]}=[redacted]`);
  return `${url.slice(0, at)}?${names.join('&')}`;
}
