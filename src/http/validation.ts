/**
 * Request validation. Query strings and path parameters arrive as text, so they are coerced to the
 * schema's types; JSON bodies are not: a number where a string belongs is a client error, not a value
 * to convert. Fastify's default validator coerces every part, hence two Ajv instances here.
 */
import { Ajv, type Options } from 'ajv';
import * as formats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { Errors } from '../errors.js';
import type { SchemaCompileCache } from './compile-cache.js';

const COMMON: Options = { removeAdditional: false, useDefaults: true, allErrors: false, strict: false };

function createAjv(coerce: boolean) {
  const ajv = new Ajv({ ...COMMON, coerceTypes: coerce ? 'array' : false });
  // ajv-formats is CommonJS; Node hands its exported function over as the namespace's default.
  (formats.default as unknown as (instance: Ajv) => Ajv)(ajv);
  return ajv;
}

/** `cache`: validators compiled by an earlier server of this process, reused (src/http/compile-cache.ts). */
export function registerValidation(app: FastifyInstance, cache?: SchemaCompileCache): void {
  const strict = createAjv(false);
  const coercing = createAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const kind = httpPart === 'body' ? 'strict' : 'coercing';
    const compile = () => (kind === 'strict' ? strict : coercing).compile(schema);
    return cache ? cache.get(`validator ${kind} ${JSON.stringify(schema)}`, compile) : compile();
  });
}

/** Where in a parsed request a NUL character sits ("path parameter id", "body field tags[2]"), or null. */
export function findNul(value: unknown, where: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? where : null;
  if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findNul(item, `${where}[${index}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const found = findNul(key, where, depth + 1) ?? findNul(item, `${where}${depth === 0 ? ' ' : '.'}${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * PostgreSQL's text cannot hold U+0000, so a NUL in an id, a query value or a JSON string reached the database
 * as a driver error (a 500). No text of this API means anything with one, so it is refused as the client's
 * error before any handler runs, and nothing is written.
 */
export function registerNulGuard(app: FastifyInstance): void {
  // The callback form: it runs on every request, and an async hook costs a promise and a microtask each.
  app.addHook('preValidation', (request, _reply, done) => {
    const where = findNul(request.params, 'path parameter') ?? findNul(request.query, 'query parameter') ?? findNul(request.body, 'body field');
    done(where ? Errors.validation(`${where} contains a NUL character (U+0000), which no text of this API accepts`) : undefined);
  });
}
