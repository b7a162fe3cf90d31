/**
 * Compiled request validators and response serializers, kept across HTTP servers built in one process. A
 * station compiles one of each per route schema (Ajv and fast-json-stringify generate and compile code), about
 * half of the CPU time of building a station. A production process builds one server, so it passes none and
 * compiles as before; the test suites build a station per suite, hundreds per worker process, from the same
 * schemas, and hand every build one cache (test/helpers/station.ts).
 *
 * A compiled function depends on nothing but what its key holds: the schema's JSON (TypeBox's symbol keys are
 * not read by Ajv or fast-json-stringify), which validator (strict or coercing), and for serializers the
 * shared schemas ($ref targets) and options the server passes. It keeps no state between calls.
 */
import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

type Compiled = (...args: never[]) => unknown;

export class SchemaCompileCache {
  private readonly compiled = new Map<string, Compiled>();

  /** The function compiled for `key`, compiling it the first time. */
  get<F extends Compiled>(key: string, compile: () => F): F {
    const found = this.compiled.get(key);
    if (found) return found as F;
    const made = compile();
    this.compiled.set(key, made);
    return made;
  }

  get size(): number {
    return this.compiled.size;
  }
}

/**
 * Fastify's own serializer factory (fast-json-stringify, as fastify builds it when given none), memoised in
 * `cache`: for Fastify's `schemaController.compilersFactory.buildSerializer`.
 */
export function cachedSerializerFactory(cache: SchemaCompileCache): SerializerFactory {
  const fastifyDefault = SerializerSelector();
  return (externalSchemas, serializerOptions) => {
    const compile = fastifyDefault(externalSchemas, serializerOptions);
    const context = JSON.stringify([externalSchemas, serializerOptions ?? null]);
    return (route) => cache.get(`serializer ${context} ${JSON.stringify(route.schema)}`, () => compile(route));
  };
}
