/**
 * Request validation. Query strings and path parameters arrive as text, so they are coerced to the
 * schema's types; JSON bodies are not: a number where a string belongs is a client error, not a value
 * to convert. Fastify's default validator coerces every part, hence two Ajv instances here.
 */
import { Ajv, type Options } from 'ajv';
import * as formats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

const COMMON: Options = { removeAdditional: false, useDefaults: true, allErrors: false, strict: false };

function createAjv(coerce: boolean) {
  const ajv = new Ajv({ ...COMMON, coerceTypes: coerce ? 'array' : false });
  // ajv-formats is CommonJS; Node hands its exported function over as the namespace's default.
  (formats.default as unknown as (instance: Ajv) => Ajv)(ajv);
  return ajv;
}

export function registerValidation(app: FastifyInstance): void {
  const strict = createAjv(false);
  const coercing = createAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema));
}
