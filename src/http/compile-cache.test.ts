import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { cachedSerializerFactory, SchemaCompileCache } from './compile-cache.js';
import { registerValidation } from './validation.js';

const Shared = Type.Object({ code: Type.String() }, { $id: 'Shared' });

/** A server as buildHttpServer makes one with a cache: the cached serializer factory, the two validators, a shared schema. */
function server(cache: SchemaCompileCache, maximum = 10): FastifyInstance {
  const app = Fastify({ schemaController: { compilersFactory: { buildSerializer: cachedSerializerFactory(cache) } } });
  registerValidation(app, cache);
  app.addSchema(Shared);
  app.post(
    '/echo',
    {
      schema: {
        querystring: Type.Object({ n: Type.Integer({ maximum }) }),
        body: Type.Object({ name: Type.String() }),
        response: { 200: Type.Object({ name: Type.String(), n: Type.Integer() }), 400: Type.Ref('Shared') },
      },
    },
    async (request) => ({ ...(request.body as object), n: (request.query as { n: number }).n, secret: 'never serialized' }),
  );
  return app;
}

describe('SchemaCompileCache', () => {
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  const ready = async (app: FastifyInstance) => {
    apps.push(app);
    await app.ready();
    return app;
  };

  it('compiles a route schema once for every server that shares it, and they validate and serialize alike', async () => {
    const cache = new SchemaCompileCache();
    const first = await ready(server(cache));
    const compiled = cache.size;
    expect(compiled).toBeGreaterThanOrEqual(3); // body, querystring, the 200 response (and the $ref'd 400)
    const second = await ready(server(cache));
    expect(cache.size).toBe(compiled);

    for (const app of [first, second]) {
      const ok = await app.inject({ method: 'POST', url: '/echo?n=3', payload: { name: 'a' } });
      expect(ok.statusCode).toBe(200);
      // The response schema's serializer drops what it does not name; the query string was coerced to a number.
      expect(ok.body).toBe('{"name":"a","n":3}');
      expect((await app.inject({ method: 'POST', url: '/echo?n=3', payload: { name: 5 } })).statusCode).toBe(400); // bodies are not coerced
      expect((await app.inject({ method: 'POST', url: '/echo?n=11', payload: { name: 'a' } })).statusCode).toBe(400);
    }
  });

  it('compiles a schema that differs anew: another server keeps its own rule', async () => {
    const cache = new SchemaCompileCache();
    await ready(server(cache, 10));
    const compiled = cache.size;
    const wider = await ready(server(cache, 100));
    expect(cache.size).toBe(compiled + 1); // the query string's maximum changed, nothing else
    expect((await wider.inject({ method: 'POST', url: '/echo?n=50', payload: { name: 'a' } })).statusCode).toBe(200);
  });
});
