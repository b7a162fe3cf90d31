/**
 * The API's shapes, read from the client library's generated types (clients/js/src/schema.d.ts, made from the
 * server's /openapi.json by `npm run client:generate`), so the pages never keep hand-written copies that drift.
 * Type-only: nothing of the client library reaches a bundle.
 */
import type { paths } from '../../../clients/js/src/schema';

export type { paths };

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** The JSON a successful call answers (its 200, 201 or 202). */
export type Answer<P extends keyof paths, M extends Method> = paths[P][M] extends { responses: infer R }
  ? R extends { 200: { content: { 'application/json': infer T } } }
    ? T
    : R extends { 201: { content: { 'application/json': infer T } } }
      ? T
      : R extends { 202: { content: { 'application/json': infer T } } }
        ? T
        : never
  : never;

/** The JSON body a call takes. */
export type BodyOf<P extends keyof paths, M extends Method> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** One item of a paginated list answer. */
export type ItemOf<P extends keyof paths> = Answer<P, 'get'> extends { data: Array<infer T> } ? T : never;
