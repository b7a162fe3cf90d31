/** Shapes shared by many routes. */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE } from '../pagination.js';

export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: `Page number, from 1 to ${MAX_PAGE}` })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: `Page size, at most ${MAX_PAGE_SIZE}` })),
});

export function Paginated<T extends TSchema>(item: T, title: string) {
  return Type.Object(
    {
      data: Type.Array(item),
      total: Type.Integer(),
      page: Type.Integer(),
      limit: Type.Integer(),
    },
    { title },
  );
}

export const Email = Type.String({ format: 'email', maxLength: 254 });
export const Password = Type.String({ minLength: 8, maxLength: 256 });
/**
 * An id in a path or a reference in a body. Ids are opaque strings (contract.md): no shape is promised, so
 * none is validated; an id that names nothing answers 404 from the lookup, whatever it looks like.
 */
export const OpaqueId = Type.String({ minLength: 1, description: 'Opaque id' });

/** Path parameters made of opaque ids: `IdParams('job_id')`. */
export function IdParams<const K extends string>(...names: K[]) {
  return Type.Object(Object.fromEntries(names.map((name) => [name, OpaqueId])) as Record<K, typeof OpaqueId>);
}

/** A string enum that types as the union of its values and documents as `enum` in OpenAPI. */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * A nullable primitive as `type: [T, "null"]` rather than `anyOf`: fast-json-stringify serialises the
 * former directly, while an `anyOf` makes it validate every branch of every value it writes.
 */
export function Nullable<T extends TSchema & { type: string }>(schema: T) {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] });
}
