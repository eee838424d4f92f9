import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiResponseError, readPage } from "../../provider/src/client";
import { apiError, caught, json, makeClient, type Call } from "../helpers/scripted-client";

const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i }));
const pageOf = (c: Call) => [c.query.get("limit"), c.query.get("offset")];

describe("listAll", () => {
  it("follows next_offset through three wrapped pages", async () => {
    const { client, calls } = makeClient([
      json(200, { data: rows(0, 2), paging: { limit: 2, offset: 0, count: 2, next_offset: 2 } }),
      json(200, { data: rows(2, 2), paging: { limit: 2, offset: 2, count: 2, next_offset: 4 } }),
      json(200, { data: rows(4, 1), paging: { limit: 2, offset: 4, count: 1, next_offset: null } }),
    ]);
    const all = await client.listAll("/dns/zones", { pageSize: 2, query: { service_id: 3 } });
    expect(all.map((r) => (r as { id: number }).id)).toEqual([0, 1, 2, 3, 4]);
    expect(calls.map(pageOf)).toEqual([
      ["2", "0"],
      ["2", "2"],
      ["2", "4"],
    ]);
    expect(calls.every((c) => c.query.get("service_id") === "3" && c.path === "/dns/zones")).toBe(true);
  });

  it("sends limit=500 by default", async () => {
    const { client, calls } = makeClient([json(200, { data: [], paging: { next_offset: null } })]);
    await client.listAll("/x");
    expect(pageOf(calls[0]!)).toEqual(["500", "0"]);
  });

  it("accepts a bare array and stops at the first short page", async () => {
    const { client, calls } = makeClient([json(200, rows(0, 3)), json(200, rows(3, 1))]);
    await expect(client.listAll("/x", { pageSize: 3 })).resolves.toHaveLength(4);
    expect(calls.map(pageOf)).toEqual([
      ["3", "0"],
      ["3", "3"],
    ]);
  });

  it("a bare array whose length is an exact multiple of the page costs one empty page", async () => {
    const { client, calls } = makeClient([json(200, rows(0, 2)), json(200, rows(2, 2)), json(200, [])]);
    await expect(client.listAll("/x", { pageSize: 2 })).resolves.toHaveLength(4);
    expect(calls).toHaveLength(3);
  });

  it("reads paging fields at top level, and the items/results keys", async () => {
    const { client, calls } = makeClient([
      json(200, { items: rows(0, 2), next_offset: 2 }),
      json(200, { results: rows(2, 2), limit: 2, offset: 2, count: 2, next_offset: null }),
    ]);
    await expect(client.listAll("/x", { pageSize: 2 })).resolves.toHaveLength(4);
    expect(calls).toHaveLength(2);
  });

  it("without next_offset, uses the server's clamped limit for the short-page rule", async () => {
    const { client, calls } = makeClient([
      json(200, { data: rows(0, 100), paging: { limit: 100, offset: 0, count: 100 } }),
      json(200, { data: rows(100, 7), paging: { limit: 100, offset: 100, count: 7 } }),
    ]);
    await expect(client.listAll("/x")).resolves.toHaveLength(107);
    expect(calls.map(pageOf)).toEqual([
      ["500", "0"],
      ["500", "100"],
    ]);
  });

  it("stops with an error when the server repeats an offset", async () => {
    const { client, calls } = makeClient([json(200, { data: rows(0, 2), paging: { next_offset: 0 } })]);
    const err = await caught(client.listAll("/dns/zones", { pageSize: 2 }));
    expect(err).toBeInstanceOf(ApiResponseError);
    expect((err as Error).message).toMatch(
      /^GET \/dns\/zones: invalid_response: .*next_offset 0.*does not move forward/,
    );
    expect(calls).toHaveLength(1);

    const later = makeClient([
      json(200, { data: rows(0, 2), paging: { next_offset: 2 } }),
      json(200, { data: rows(2, 2), paging: { next_offset: 2 } }),
    ]);
    await expect(later.client.listAll("/x", { pageSize: 2 })).rejects.toBeInstanceOf(ApiResponseError);
    expect(later.calls).toHaveLength(2);
  });

  it("rejects a body that is not a list", async () => {
    const { client } = makeClient([json(200, { zones: [] })]);
    const err = await caught(client.listAll("/dns/zones"));
    expect((err as Error).message).toBe(
      "GET /dns/zones: invalid_response: list page at offset 0: expected an array under data, items or " +
        "results; the object has keys: zones",
    );
    const bad = makeClient([json(200, { data: [], paging: { next_offset: "2" } })]);
    await expect(bad.client.listAll("/x")).rejects.toThrow(/next_offset is not a non-negative integer/);
  });

  it("validates each item and names the first bad one", async () => {
    const Item = z.object({ id: z.number() });
    const { client } = makeClient([
      json(200, { data: rows(0, 2), paging: { next_offset: 2 } }),
      json(200, { data: [{ id: 2 }, { id: "three" }], paging: { next_offset: null } }),
    ]);
    const err = await caught(client.listAll("/x", { pageSize: 2, itemSchema: Item }));
    expect(err).toBeInstanceOf(ApiResponseError);
    expect((err as Error).message).toMatch(/list item 3 does not have the expected shape: id: /);

    const ok = makeClient([json(200, [{ id: 1, extra: "kept out" }])]);
    await expect(ok.client.listAll("/x", { itemSchema: Item })).resolves.toEqual([{ id: 1 }]);
  });

  it("retries a failed page without restarting the list", async () => {
    const { client, calls } = makeClient([
      json(200, { data: rows(0, 2), paging: { next_offset: 2 } }),
      apiError(503, "upstream_error", "x"),
      json(200, { data: rows(2, 1), paging: { next_offset: null } }),
    ]);
    await expect(client.listAll("/x", { pageSize: 2 })).resolves.toHaveLength(3);
    expect(calls.map((c) => c.query.get("offset"))).toEqual(["0", "2", "2"]);
  });
});

describe("paginate", () => {
  it("yields pages lazily; breaking early sends no more requests", async () => {
    const { client, calls } = makeClient([
      json(200, { data: rows(0, 2), paging: { next_offset: 2 } }),
      json(200, { data: rows(2, 2), paging: { next_offset: 4 } }),
    ]);
    const pages: unknown[][] = [];
    for await (const page of client.paginate("/x", { pageSize: 2 })) {
      pages.push(page);
      break;
    }
    expect(pages).toEqual([rows(0, 2)]);
    expect(calls).toHaveLength(1);
  });

  it("rejects a nonsensical page size", async () => {
    const { client } = makeClient([json(200, [])]);
    await expect(client.listAll("/x", { pageSize: 0 })).rejects.toBeInstanceOf(RangeError);
  });
});

describe("readPage", () => {
  it("treats a missing next_offset on an empty page as the end", () => {
    expect(readPage({ data: [] }, { limit: 10, offset: 0 })).toEqual({ ok: true, items: [], nextOffset: null });
    expect(readPage({ data: [1], paging: { next_offset: null } }, { limit: 1, offset: 0 })).toEqual({
      ok: true,
      items: [1],
      nextOffset: null,
    });
    expect(readPage("nope", { limit: 1, offset: 0 }).ok).toBe(false);
  });
});
