/** Shapes shared by many routes. */
import { Type, type Static, type TSchema } from '@sinclair/typebox';

export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: 'Page number, from 1' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, at most 100' })),
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

export function pageOf(query: { page?: number; limit?: number }): { page: number; limit: number; offset: number } {
  const page = query.page ?? 1;
  const limit = query.limit ?? 20;
  return { page, limit, offset: (page - 1) * limit };
}

export const Email = Type.String({ format: 'email', maxLength: 254 });
export const Password = Type.String({ minLength: 8, maxLength: 256 });
export const Uuid = Type.String({ format: 'uuid' });

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
