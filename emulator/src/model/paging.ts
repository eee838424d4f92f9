// limit/offset paging shared by every list endpoint. The paging object sits next to the rows:
// `{"data":[...],"paging":{"limit","offset","count","next_offset"}}`.
import { z } from "zod";
import { queryInt } from "../pipeline/validation";

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 500;

/** Spread into a route's query schema: `z.strictObject({ ...pagingQuery, service_id: ... })`. */
export const pagingQuery = {
  // Larger limits are clamped rather than refused, so a client asking for "everything" still works.
  limit: queryInt(1).optional(),
  offset: queryInt(0).optional(),
};

export const pagingOnlyQuery = z.strictObject(pagingQuery);

export interface Paging {
  limit: number;
  offset: number;
  count: number;
  next_offset: number | null;
}

export interface Page<T> {
  data: T[];
  paging: Paging;
}

export function paginate<T, R = T>(
  rows: readonly T[],
  q: { limit?: number | undefined; offset?: number | undefined },
  view?: (row: T) => R,
): Page<R> {
  const limit = Math.min(q.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  const offset = q.offset ?? 0;
  const slice = rows.slice(offset, offset + limit);
  const next = offset + slice.length;
  return {
    data: view ? slice.map(view) : (slice as unknown as R[]),
    paging: { limit, offset, count: slice.length, next_offset: next < rows.length ? next : null },
  };
}
