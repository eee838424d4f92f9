import type { z } from "zod";
import { isNotFound, type ApiClient } from "../../client";

/** What a list of a parent that no longer exists holds: the API answered its list with `not_found`. */
const PARENT_GONE = Symbol("parent gone");

interface Entry {
  items: Promise<Map<string, unknown> | typeof PARENT_GONE>;
  usedAt: number;
}

/**
 * Serves the Reads of many children of one parent (the records of a zone, the ROAs of a CA,
 * ...) from one paged list of that parent, fetched once and shared by every concurrent Read.
 * A refresh of a 1,000-record zone then costs two list pages instead of 1,000 GETs.
 *
 * Freshness: any write in the parent's API area drops its list, so a Read never returns data older than
 * this provider's own last write. Otherwise a list lives as long as it is used, and is dropped
 * once `idleMs` pass without a Read from it (one plugin process serves one pulumi command, so a
 * list is a snapshot taken within that command, as a Read of each child would be). The time
 * counts from the last use, not from the fetch: an import whose engine spends minutes between
 * the first and the last Read of a zone (a self-managed backend writes the whole state after
 * every step) listed the zone again every `idleMs` that way, 157 requests for 5,000 records
 * where one list of each zone takes 10. A child missing from the list is confirmed with its own GET before it is reported gone,
 * because a list can race with changes made meanwhile.
 *
 * A parent deleted out of band (or an API that lost it) answers its list with the typed `not_found`:
 * its children went with it, so every one of them is reported gone from that one answer, which is
 * kept like any list (a deleted 1,000-record zone costs one request, not 1,000). Any other failure
 * of the list (5xx, 429, network, a 404 without the API's error body) stays an error: a child is
 * never dropped from the state because its parent could not be read.
 */
export class ListCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;

  constructor(
    private readonly client: ApiClient,
    readonly enabled: boolean,
    private readonly idleMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Called for every write the client sends (before and after), so lists never outlive it. A
   * write drops every list of its API area (`/dns`, `/mail`, ...): objects are often written at
   * one path and listed under another (`/mail/mailboxes/{id}` vs `/mail/domains/{id}/mailboxes`).
   */
  invalidate(writePath: string): void {
    this.generation++;
    const area = areaOf(writePath);
    for (const key of this.entries.keys()) if (areaOf(key) === area) this.entries.delete(key);
  }

  /** The child with this id, from the shared list when batching is on, else from `single`. */
  async find<T extends { id: number | string }>(
    listPath: string,
    id: string,
    schema: z.ZodType<T>,
    signal: AbortSignal,
    single: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    if (!this.enabled) return single();
    const items = await this.items(listPath, schema, signal);
    if (items === PARENT_GONE) return undefined;
    return (items.get(id) as T | undefined) ?? single();
  }

  /**
   * Whether the list holds the id, from the shared list whatever `enabled` says (that governs
   * refreshes only); false when the parent is gone.
   */
  async holds(
    listPath: string,
    id: string,
    schema: z.ZodType<{ id: number | string }>,
    signal: AbortSignal,
  ): Promise<boolean> {
    const items = await this.items(listPath, schema, signal);
    return items !== PARENT_GONE && items.has(id);
  }

  private items(listPath: string, schema: z.ZodType<{ id: number | string }>, signal: AbortSignal): Entry["items"] {
    const cached = this.entries.get(listPath);
    if (cached && this.now() - cached.usedAt < this.idleMs) {
      cached.usedAt = this.now();
      return cached.items;
    }
    const startedAt = this.generation;
    const items: Entry["items"] = this.client
      .listAll(listPath, { itemSchema: schema, signal })
      .then<Map<string, unknown>, typeof PARENT_GONE>(
        (list) => {
          // A write that happened while the pages came in may not be in them: serve, but do not keep.
          if (this.generation !== startedAt && this.entries.get(listPath)?.items === items)
            this.entries.delete(listPath);
          return new Map<string, unknown>(list.map((item) => [String(item.id), item]));
        },
        (e: unknown) => {
          if (isNotFound(e)) return PARENT_GONE;
          throw e;
        },
      );
    items.catch(() => this.entries.get(listPath)?.items === items && this.entries.delete(listPath));
    const entry: Entry = { items, usedAt: this.now() };
    this.entries.set(listPath, entry);
    this.dropWhenIdle(listPath, entry, this.idleMs);
    return items;
  }

  /**
   * Once its refresh is over nobody asks for the list again: let it go rather than hold a large
   * zone's records for the rest of the process. Timer-driven, so it works without more calls.
   */
  private dropWhenIdle(listPath: string, entry: Entry, delayMs: number): void {
    setTimeout(() => {
      if (this.entries.get(listPath) !== entry) return;
      const idle = this.now() - entry.usedAt;
      if (idle >= this.idleMs) this.entries.delete(listPath);
      else this.dropWhenIdle(listPath, entry, this.idleMs - idle);
    }, delayMs).unref();
  }
}

function areaOf(path: string): string {
  return path.split("/")[1] ?? "";
}
