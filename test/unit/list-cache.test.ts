// ListCache: a list kept while Reads use it, and dropped once idle; and when the parent's list fails,
// only the API's typed not_found means the parent (and so every child) is gone; any other failure,
// a bare 404 included, stays an error.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorFromResponse, type ApiClient } from "../../provider/src/client";
import { ListCache } from "../../provider/src/framework/context/list-cache";

const item = z.object({ id: z.number() });
const signal = new AbortController().signal;

/** A client whose list of any parent answers with this HTTP response, counting the calls. */
function failingClient(status: number, body: string) {
  const calls = { list: 0 };
  const client = {
    listAll: async (path: string) => {
      calls.list++;
      throw errorFromResponse({ method: "GET", path, status, body });
    },
  } as unknown as ApiClient;
  return { client, calls };
}

describe("ListCache.find with a failing parent list", () => {
  it("reports every child gone from one not_found answer, without their own GETs", async () => {
    const { client, calls } = failingClient(
      404,
      JSON.stringify({ error: { code: "not_found", message: "zone not found" } }),
    );
    const cache = new ListCache(client, true);
    let singles = 0;
    const single = async () => {
      singles++;
      return { id: 1 };
    };
    const found = await Promise.all(
      ["1", "2", "3"].map((id) => cache.find("/dns/zones/5/records", id, item, signal, single)),
    );
    expect(found).toEqual([undefined, undefined, undefined]);
    expect(await cache.find("/dns/zones/5/records", "4", item, signal, single)).toBeUndefined();
    expect(calls.list).toBe(1);
    expect(singles).toBe(0);
  });

  it.each([
    ["a 404 without the API's error body", 404, "<html>Not Found</html>", /http_404/],
    ["a 5xx", 503, JSON.stringify({ error: { code: "upstream_error", message: "down" } }), /upstream_error/],
    ["a 429", 429, JSON.stringify({ error: { code: "rate_limited", message: "slow down" } }), /rate_limited/],
  ])("keeps %s an error, and does not keep it", async (_name, status, body, message) => {
    const { client, calls } = failingClient(status, body);
    const cache = new ListCache(client, true);
    const single = async () => ({ id: 1 });
    await expect(cache.find("/dns/zones/5/records", "1", item, signal, single)).rejects.toThrow(message);
    await expect(cache.find("/dns/zones/5/records", "1", item, signal, single)).rejects.toThrow(message);
    expect(calls.list).toBe(2);
  });
});

describe("ListCache: how long a list is kept", () => {
  /** A client that lists two children of any parent, counting the lists. */
  function countingClient() {
    const calls = { list: 0 };
    const client = {
      listAll: async () => {
        calls.list++;
        return [{ id: 1 }, { id: 2 }];
      },
    } as unknown as ApiClient;
    return { client, calls };
  }
  const noSingle = async () => {
    throw new Error("a child in the list is never read on its own");
  };

  it("serves every Read from one list for as long as Reads keep coming, however long that is", async () => {
    const { client, calls } = countingClient();
    let now = 0;
    const cache = new ListCache(client, true, 30_000, () => now);
    // Ten minutes of Reads, 20 s apart: each within the idle time of the one before.
    for (; now <= 600_000; now += 20_000)
      expect(await cache.find("/dns/zones/5/records", "1", item, signal, noSingle)).toEqual({ id: 1 });
    expect(calls.list).toBe(1);
  });

  it("lists again after the idle time without a Read", async () => {
    const { client, calls } = countingClient();
    let now = 0;
    const cache = new ListCache(client, true, 30_000, () => now);
    await cache.find("/dns/zones/5/records", "1", item, signal, noSingle);
    now = 29_999;
    await cache.find("/dns/zones/5/records", "2", item, signal, noSingle);
    expect(calls.list).toBe(1);
    now += 30_000;
    await cache.find("/dns/zones/5/records", "2", item, signal, noSingle);
    expect(calls.list).toBe(2);
  });
});
