/** Pagination as contract.md fixes it for both APIs: `page` from 1, `limit` default 20, at most 100. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/**
 * The deepest page served. An OFFSET past a million rows costs the database a scan for nothing a client
 * can use; anything beyond is a 400, and deep readers filter by date instead.
 */
export const MAX_PAGE = 10_000;

export interface Page {
  page: number;
  limit: number;
  offset: number;
}

export function pageOf(query: { page?: number; limit?: number }): Page {
  const page = query.page ?? 1;
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  return { page, limit, offset: (page - 1) * limit };
}
