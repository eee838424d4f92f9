import { isRecord } from "./errors";

export const DEFAULT_PAGE_SIZE = 500;

/** Hard stop for a server whose next_offset keeps growing without ever ending. */
export const MAX_PAGES = 100_000;

export type PageRead = { ok: true; items: unknown[]; nextOffset: number | null } | { ok: false; problem: string };

const ITEM_KEYS = ["data", "items", "results"] as const;

/**
 * Reads one list response. Where the API puts the paging object is not documented, so all of
 * these are accepted:
 * - a bare array: the last page is the one shorter than the limit asked for;
 * - `{data|items|results: [...], paging: {limit, offset, count, next_offset}}`;
 * - the same with the paging fields at top level.
 * `next_offset` wins when present (null ends the list). Without it, the short-page rule applies,
 * using the server's reported `limit` when it clamped ours.
 */
export function readPage(body: unknown, asked: { limit: number; offset: number }): PageRead {
  if (Array.isArray(body)) {
    return { ok: true, items: body, nextOffset: body.length < asked.limit ? null : asked.offset + body.length };
  }
  if (!isRecord(body)) {
    return {
      ok: false,
      problem: `expected a list (an array, or an object with a data, items or results array), got ${describe(body)}`,
    };
  }
  let items: unknown[] | undefined;
  for (const key of ITEM_KEYS) {
    const v = body[key];
    if (Array.isArray(v)) {
      items = v;
      break;
    }
  }
  if (items === undefined) {
    const keys = Object.keys(body).slice(0, 10).join(", ");
    return {
      ok: false,
      problem: `expected an array under data, items or results; the object has keys: ${keys || "(none)"}`,
    };
  }

  const paging = isRecord(body.paging) ? body.paging : body;
  if (Object.hasOwn(paging, "next_offset")) {
    const next = paging.next_offset;
    if (next === null || next === undefined) return { ok: true, items, nextOffset: null };
    if (typeof next !== "number" || !Number.isInteger(next) || next < 0) {
      return { ok: false, problem: `next_offset is not a non-negative integer: ${describe(next)}` };
    }
    return { ok: true, items, nextOffset: next };
  }

  const serverLimit = paging.limit;
  const limit =
    typeof serverLimit === "number" && Number.isInteger(serverLimit) && serverLimit > 0
      ? Math.min(serverLimit, asked.limit)
      : asked.limit;
  return {
    ok: true,
    items,
    nextOffset: items.length < limit || items.length === 0 ? null : asked.offset + items.length,
  };
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "string") return `a string (${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)})`;
  return typeof v === "object" ? "an object" : `${typeof v} ${String(v)}`;
}
