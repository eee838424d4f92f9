// nsp:rpki:Ca, nsp:rpki:Roa and the RPKI functions, through the built plugin binary over gRPC
// against a live emulator.
import { beforeAll, describe, expect, it } from "vitest";
import type * as grpc from "@grpc/grpc-js";
import { initFailure, UNKNOWN } from "../helpers/plugin";
import { lifecycle } from "../helpers/lifecycle";
import { useProvider } from "../helpers/use-provider";

const CA = "nsp:rpki:Ca";
const ROA = "nsp:rpki:Roa";
const NS = "http://www.hactrn.net/uris/rpki/rpki-setup/";

const token = `svc_${"cd34".repeat(8)}`;
const provider = useProvider({ emulator: { accounts: [{ name: "rpki", token }] } });
const { control, plugin } = provider;

beforeAll(async () => {
  // No server-side rate limit: one test fills a CA with more ROAs than a page holds.
});

function parentResponse(parentHandle = "ripe-ncc"): string {
  return [
    `<parent_response xmlns="${NS}" version="1" service_uri="https://rpki.ripe.example/up-down/${parentHandle}" child_handle="acme" parent_handle="${parentHandle}">`,
    "  <parent_bpki_ta>R29kIGlzIHJlYWwgcHJvb2YgdGhhdCBtYW4gaXMgbm90IGhpc3RvcnkuCg==</parent_bpki_ta>",
    "</parent_response>",
  ].join("\n");
}

async function apiCa(handle: string, asns: number[] = []): Promise<string> {
  return String((await control.post<{ id: number }>("/rpki/cas", { handle, asns })).id);
}

let walkCas = 0;
const OWN_BAD_TEST = "in the test of its own below, which also checks that Check names only that property, and its reason";
lifecycle(provider, [
  {
    type: CA,
    create: { handle: "walk", parentRir: " ripe ", asns: [64501, 64500], note: "mine" },
    unknownOutput: "createdAt",
    update: { asns: [64502], note: "main CA" },
    replace: { handle: "walk-2" },
    apiPath: (_inputs, id) => `/rpki/cas/${id}`,
    drift: { body: { asns: [64500, 64999], note: "theirs" }, inputs: { asns: [64500, 64999], note: "theirs" } },
    skip: { bad: OWN_BAD_TEST },
  },
  {
    type: ROA,
    create: async () => ({ caId: await apiCa(`roa-walk-${++walkCas}`, [64500]), asn: 64500, prefix: "2001:0DB8:0:0::/48" }),
    unknownOutput: "createdAt",
    replace: { asn: 64501 },
    importId: (inputs, id) => `${inputs.caId}/${id}`,
    apiPath: (inputs, id) => `/rpki/cas/${inputs.caId}/roas/${id}`,
    exists: async (inputs, id) => (await control.list<{ id: number }>(`/rpki/cas/${inputs.caId}/roas`)).some((r) => String(r.id) === id),
    skip: { update: "every change replaces a ROA", "drift edit": "the API has no edit of a ROA", bad: OWN_BAD_TEST },
  },
]);

describe("nsp:rpki:Ca over gRPC", () => {
  it("walks a CA through its lifecycle", async () => {
    const checked = await plugin.check(CA, "ca", { handle: "acme", parentRir: " ripe ", asns: [64501, 64500] });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toEqual({ handle: "acme", parentRir: "RIPE", asns: [64500, 64501] });

    await control.resetStats();
    const preview = await plugin.create(CA, "ca", checked.inputs, true);
    expect(preview.id).toBe("");
    expect(preview.properties).toMatchObject({ handle: "acme", state: UNKNOWN, childRequestXml: UNKNOWN, createdAt: UNKNOWN });
    expect((await control.stats()).total).toBe(0);

    const created = await plugin.create(CA, "ca", checked.inputs);
    expect(created.id).toMatch(/^\d+$/);
    expect(created.properties).toMatchObject({ handle: "acme", parentRir: "RIPE", asns: [64500, 64501], state: "awaiting_parent", parentHandle: null });
    expect(created.properties.childRequestXml).toContain(`<child_request xmlns="${NS}" version="1" child_handle="acme">`);
    expect(created.properties).not.toHaveProperty("roas");

    const read = await plugin.read(CA, "ca", created.id, created.properties, checked.inputs);
    expect(read.properties).toEqual(created.properties);
    expect(read.inputs).toEqual(checked.inputs);
    expect((await plugin.diff(CA, "ca", created.id, read.properties, checked.inputs, checked.inputs)).changes).toBe(false);

    // asns and note patch in place; the parent response is posted and activates the CA.
    const next = (await plugin.check(CA, "ca", { ...checked.inputs, asns: [64502], note: "main CA", parentResponseXml: parentResponse() })).inputs;
    const d = await plugin.diff(CA, "ca", created.id, read.properties, next, checked.inputs);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    expect(d.diffs.sort()).toEqual(["asns", "note", "parentResponseXml"]);
    await control.resetStats();
    expect(await plugin.update(CA, "ca", created.id, read.properties, next, true)).toMatchObject({ note: "main CA" });
    expect((await control.stats()).total).toBe(0);
    const updated = await plugin.update(CA, "ca", created.id, read.properties, next, false, checked.inputs);
    expect(updated).toMatchObject({ asns: [64502], note: "main CA", state: "active", parentHandle: "ripe-ncc", serviceUri: "https://rpki.ripe.example/up-down/ripe-ncc" });
    expect(updated.parentResponseXml).toBe(parentResponse());
    expect(updated.childRequestXml).toBe(created.properties.childRequestXml);

    // The API never returns the parent response: refresh keeps it, and nothing shows as changed.
    const reread = await plugin.read(CA, "ca", created.id, updated, next);
    expect(reread.properties).toEqual(updated);
    expect(reread.inputs).toEqual(next);
    expect((await plugin.diff(CA, "ca", created.id, reread.properties, next, reread.inputs)).changes).toBe(false);

    // A new parent response is posted again.
    const rotated = (await plugin.check(CA, "ca", { ...next, parentResponseXml: parentResponse("ripe-2") })).inputs;
    expect((await plugin.diff(CA, "ca", created.id, reread.properties, rotated, next)).diffs).toEqual(["parentResponseXml"]);
    expect(await plugin.update(CA, "ca", created.id, reread.properties, rotated, false, next)).toMatchObject({ parentHandle: "ripe-2" });

    // Dropping the note clears it.
    const { note: _note, ...withoutNote } = rotated;
    const cleared = await plugin.update(CA, "ca", created.id, { ...reread.properties, parentHandle: "ripe-2" }, withoutNote, false, rotated);
    expect(cleared.note).toBeNull();

    // handle and parentRir cannot be patched; keeping the handle means deleting first.
    const renamed = await plugin.diff(CA, "ca", created.id, reread.properties, { ...next, handle: "acme-2" }, next);
    expect(renamed).toMatchObject({ changes: true, replaces: ["handle"], deleteBeforeReplace: false });
    const moved = await plugin.diff(CA, "ca", created.id, reread.properties, { ...next, parentRir: "ARIN" }, next);
    expect(moved).toMatchObject({ changes: true, replaces: ["parentRir"], deleteBeforeReplace: true });

    // Import with only the id: the inputs leave out defaults and what the API never returns.
    const imported = await plugin.read(CA, "imp", created.id);
    expect(imported.id).toBe(created.id);
    expect(imported.inputs).toEqual({ handle: "acme", parentRir: "RIPE", asns: [64502] });
    expect(imported.properties).toMatchObject({ state: "active", childRequestXml: created.properties.childRequestXml });
    const importCheck = await plugin.check(CA, "imp", imported.inputs);
    expect((await plugin.diff(CA, "imp", imported.id, imported.properties, importCheck.inputs, imported.inputs)).changes).toBe(false);
    await expect(plugin.read(CA, "imp", "1/2")).rejects.toThrow(/import a CA by its numeric id/);

    await plugin.delete(CA, "ca", created.id, cleared);
    expect((await plugin.read(CA, "ca", created.id, cleared, withoutNote)).id).toBe("");
    await plugin.delete(CA, "ca", created.id, cleared);
  });

  it("sets the note and the parent response at create, and keeps a half-made CA for the next up to finish", async () => {
    const bad = (await plugin.check(CA, "bad", { handle: "halfmade", parentResponseXml: "<parent_response><parent_bpki_ta>QUJD</parent_bpki_ta></parent_response>" })).inputs;
    const err = (await plugin.create(CA, "bad", bad).then(() => undefined, (e: grpc.ServiceError) => e))!;
    expect(err.message).toMatch(/validation_error.*xml: parent_response must be in the namespace/s);
    const partial = initFailure(err);
    expect(partial.properties).toMatchObject({ handle: "halfmade", state: "awaiting_parent" });
    expect((await control.list<{ handle: string }>("/rpki/cas")).filter((c) => c.handle === "halfmade")).toHaveLength(1);

    // The next up, with the program fixed: the engine updates the half-made CA.
    const good = (await plugin.check(CA, "bad", { handle: "halfmade", note: "activated", parentResponseXml: parentResponse() })).inputs;
    const finished = await plugin.update(CA, "bad", partial.id, partial.properties, good, false, bad);
    expect(finished).toMatchObject({ handle: "halfmade", note: "activated", state: "active", parentResponseXml: parentResponse() });
    expect((await control.list<{ handle: string }>("/rpki/cas")).filter((c) => c.handle === "halfmade")).toHaveLength(1);
    await plugin.delete(CA, "bad", partial.id, finished);
  });

  it("sees drift made through the API on Read", async () => {
    const inputs = (await plugin.check(CA, "drift", { handle: "drift", asns: [64500], note: "mine" })).inputs;
    const created = await plugin.create(CA, "drift", inputs);
    await control.patch(`/rpki/cas/${created.id}`, { asns: [64500, 64999], note: "theirs" });
    const refreshed = await plugin.read(CA, "drift", created.id, created.properties, inputs);
    expect(refreshed.properties).toMatchObject({ asns: [64500, 64999], note: "theirs" });
    const d = await plugin.diff(CA, "drift", created.id, refreshed.properties, inputs, refreshed.inputs);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    expect(d.diffs.sort()).toEqual(["asns", "note"]);
    const repaired = await plugin.update(CA, "drift", created.id, refreshed.properties, inputs, false, refreshed.inputs);
    expect(repaired).toMatchObject({ asns: [64500], note: "mine" });

    await control.delete(`/rpki/cas/${created.id}`);
    expect((await plugin.read(CA, "drift", created.id, repaired, inputs)).id).toBe("");
  });

  it("rejects bad input in Check, naming the property, before any request", async () => {
    await control.resetStats();
    const cases: [Record<string, unknown>, string][] = [
      [{ handle: "my ca" }, "handle"],
      [{}, "handle"],
      [{ handle: "ok", parentRir: "IANA" }, "parentRir"],
      [{ handle: "ok", asns: [0] }, "asns[0]"],
      [{ handle: "ok", asns: [4294967296] }, "asns[0]"],
      [{ handle: "ok", asns: [64500, 64501, 64500] }, "asns[2]"],
      [{ handle: "ok", note: "x".repeat(1025) }, "note"],
      [{ handle: "ok", parentResponseXml: "<child_request/>" }, "parentResponseXml"],
      [{ handle: "ok", colour: "red" }, "colour"],
    ];
    for (const [news, property] of cases) {
      const { failures } = await plugin.check(CA, "bad", news);
      expect(failures.map((f) => f.property), JSON.stringify(news)).toEqual([property]);
      for (const f of failures) expect(f.reason.length).toBeGreaterThan(3);
    }
    expect((await control.stats()).total).toBe(0);
  });
});

describe("nsp:rpki:Roa over gRPC", () => {
  it("walks a ROA through its lifecycle; every change replaces", async () => {
    const caId = await apiCa("roa-life", [64500]);
    const checked = await plugin.check(ROA, "r", { caId, asn: 64500, prefix: "2001:0DB8:0:0::/48" });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toEqual({ caId, asn: 64500, prefix: "2001:db8::/48", maxLength: 48 });

    await control.resetStats();
    const preview = await plugin.create(ROA, "r", checked.inputs, true);
    expect(preview).toMatchObject({ id: "", properties: { prefix: "2001:db8::/48", createdAt: UNKNOWN } });
    expect((await control.stats()).total).toBe(0);

    const created = await plugin.create(ROA, "r", checked.inputs);
    expect(created.id).toMatch(/^\d+$/);
    expect(created.properties).toMatchObject({ caId, asn: 64500, prefix: "2001:db8::/48", maxLength: 48, comment: null });
    const read = await plugin.read(ROA, "r", created.id, created.properties, checked.inputs);
    expect(read.properties).toEqual(created.properties);
    expect((await plugin.diff(ROA, "r", created.id, read.properties, checked.inputs, checked.inputs)).changes).toBe(false);
    // A program that leaves maxLength out means the prefix length: no change either.
    const implicit = (await plugin.check(ROA, "r", { caId, asn: 64500, prefix: "2001:db8::/48" })).inputs;
    expect((await plugin.diff(ROA, "r", created.id, read.properties, implicit, checked.inputs)).changes).toBe(false);

    // A new comment keeps origin, prefix and maxLength, which the API refuses twice: delete first.
    const commented = (await plugin.check(ROA, "r", { ...checked.inputs, comment: "anycast" })).inputs;
    expect(await plugin.diff(ROA, "r", created.id, read.properties, commented, checked.inputs)).toMatchObject({ changes: true, replaces: ["comment"], deleteBeforeReplace: true });
    const wider = (await plugin.check(ROA, "r", { ...checked.inputs, maxLength: 56 })).inputs;
    expect(await plugin.diff(ROA, "r", created.id, read.properties, wider, checked.inputs)).toMatchObject({ changes: true, replaces: ["maxLength"], deleteBeforeReplace: false });
    for (const change of [{ asn: 64501 }, { prefix: "2001:db8:1::/48" }, { caId: "999999" }]) {
      const news = (await plugin.check(ROA, "r", { ...checked.inputs, ...change })).inputs;
      expect((await plugin.diff(ROA, "r", created.id, read.properties, news, checked.inputs)).replaces).toEqual(Object.keys(change));
    }

    // The replacement the engine runs for the comment: delete, then create.
    await plugin.delete(ROA, "r", created.id, read.properties);
    const replaced = await plugin.create(ROA, "r", commented);
    expect(replaced.properties).toMatchObject({ comment: "anycast", maxLength: 48 });

    // Import with `<caId>/<roaId>`; a bare or malformed id is refused without a request.
    const imported = await plugin.read(ROA, "imp", `${caId}/${replaced.id}`);
    expect(imported.id).toBe(replaced.id);
    expect(imported.inputs).toEqual({ caId, asn: 64500, prefix: "2001:db8::/48", maxLength: 48, comment: "anycast" });
    const importCheck = await plugin.check(ROA, "imp", imported.inputs);
    expect((await plugin.diff(ROA, "imp", imported.id, imported.properties, importCheck.inputs, imported.inputs)).changes).toBe(false);
    await control.resetStats();
    for (const id of [replaced.id, "abc", `${caId}/x`, `${caId}/${replaced.id}/1`]) {
      await expect(plugin.read(ROA, "imp", id)).rejects.toThrow(/must have the form <caId>\/<roaId>/);
    }
    expect((await control.stats()).total).toBe(0);

    await plugin.delete(ROA, "r", replaced.id, replaced.properties);
    expect((await plugin.read(ROA, "r", replaced.id, replaced.properties, commented)).id).toBe("");
    await plugin.delete(ROA, "r", replaced.id, replaced.properties);
  });

  it("finds a ROA on a later page of its CA's list", async () => {
    const caId = await apiCa("many-roas");
    let last = 0;
    for (let i = 0; i < 520; i++) {
      last = (await control.post<{ id: number }>(`/rpki/cas/${caId}/roas`, { asn: 64500, prefix: `10.${i >> 8}.${i & 255}.0/24` })).id;
    }
    await control.resetStats();
    const read = await plugin.read(ROA, "late", `${caId}/${last}`);
    expect(read.properties).toMatchObject({ prefix: "10.2.7.0/24", maxLength: 24 });
    expect((await control.stats()).byRoute["GET /rpki/cas/:id/roas"]).toBe(2);
  });

  it("sees a ROA deleted through the API, or with its CA, on Read", async () => {
    const caId = await apiCa("roa-drift");
    const inputs = (await plugin.check(ROA, "d", { caId, asn: 64500, prefix: "192.0.2.0/24" })).inputs;
    const first = await plugin.create(ROA, "d", inputs);
    await control.delete(`/rpki/cas/${caId}/roas/${first.id}`);
    expect((await plugin.read(ROA, "d", first.id, first.properties, inputs)).id).toBe("");

    const second = await plugin.create(ROA, "d", inputs);
    await control.delete(`/rpki/cas/${caId}`);
    expect((await plugin.read(ROA, "d", second.id, second.properties, inputs)).id).toBe("");
  });

  it("rejects bad input in Check, naming the property, before any request", async () => {
    await control.resetStats();
    const base = { caId: "1", asn: 64500, prefix: "192.0.2.0/24" };
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ ...base, prefix: "10.0.0.1/8" }, "prefix", /host bits set; did you mean 10\.0\.0\.0\/8\?/],
      [{ ...base, prefix: "2001:db8::1/32" }, "prefix", /did you mean 2001:db8::\/32\?/],
      [{ ...base, prefix: "192.0.2.0" }, "prefix", /must be an IPv4 or IPv6 prefix/],
      [{ ...base, prefix: "192.0.2.0/33" }, "prefix", /at most 32/],
      [{ ...base, prefix: "2001:db8::/129" }, "prefix", /at most 128/],
      [{ caId: "1", asn: 64500 }, "prefix", /is required/],
      [{ ...base, maxLength: 23 }, "maxLength", /between 24 \(the length of 192\.0\.2\.0\/24\) and 32/],
      [{ ...base, maxLength: 33 }, "maxLength", /between 24 .* and 32 for an IPv4 prefix, got 33/],
      [{ ...base, prefix: "2001:db8::/32", maxLength: 129 }, "maxLength", /at most 128/],
      [{ ...base, prefix: "2001:db8::/32", maxLength: 31 }, "maxLength", /between 32 .* and 128/],
      [{ ...base, asn: -1 }, "asn", /at least 0/],
      [{ ...base, asn: 4294967296 }, "asn", /at most 4294967295/],
      [{ ...base, asn: 1.5 }, "asn", /./],
      [{ ...base, caId: "ca-1" }, "caId", /numeric id/],
      [{ ...base, comment: "x".repeat(1025) }, "comment", /./],
    ];
    for (const [news, property, reason] of cases) {
      const { failures } = await plugin.check(ROA, "bad", news);
      expect(failures.map((f) => f.property), JSON.stringify(news)).toEqual([property]);
      expect(failures[0]!.reason).toMatch(reason);
    }
    // 10.0.0.0/8 passes; 10.0.0.1/8 does not pass silently as the same ROA.
    expect((await plugin.check(ROA, "ok", { ...base, prefix: "10.0.0.0/8" })).inputs).toMatchObject({ prefix: "10.0.0.0/8", maxLength: 8 });
    expect((await plugin.check(ROA, "ok", { ...base, prefix: "192.0.2.0/24", maxLength: 32 })).failures).toEqual([]);
    expect((await plugin.check(ROA, "ok", { ...base, asn: 0 })).failures).toEqual([]);
    // IPv6 in the API's spelling (RFC 5952): the longest zero run compressed, lower-case.
    for (const [given, canonical] of [
      ["2001:DB8:0:0:1:0:0:0/96", "2001:db8:0:0:1::/96"],
      ["2001:0db8:0000::/32", "2001:db8::/32"],
      ["::/0", "::/0"],
    ]) {
      expect((await plugin.check(ROA, "ok", { ...base, prefix: given })).inputs.prefix).toBe(canonical);
    }
    expect((await control.stats()).total).toBe(0);
  });
});

describe("RPKI functions", () => {
  it("lists suggestions with nsp:rpki:getRpkiSuggestions", async () => {
    // AS64500 announces 10.251.244.0/24, 2001:db8:fbf4::/48 and 2001:db8:fbf4:100::/56 (seeded).
    const caId = await apiCa("suggest", [64500]);
    const roa = await control.post<{ id: number }>(`/rpki/cas/${caId}/roas`, { asn: 64500, prefix: "10.251.244.0/24" });
    const res = await plugin.invoke("nsp:rpki:getRpkiSuggestions", { caId });
    expect(res.failures).toEqual([]);
    expect(res.result).toEqual({
      suggestions: [
        { asn: 64500, prefix: "10.251.244.0/24", covered: true, validity: "valid", roaId: String(roa.id), suggestedRoa: null },
        { asn: 64500, prefix: "2001:db8:fbf4::/48", covered: false, validity: "not_found", roaId: null, suggestedRoa: { asn: 64500, prefix: "2001:db8:fbf4::/48", maxLength: 48 } },
        { asn: 64500, prefix: "2001:db8:fbf4:100::/56", covered: false, validity: "not_found", roaId: null, suggestedRoa: { asn: 64500, prefix: "2001:db8:fbf4:100::/56", maxLength: 56 } },
      ],
    });
    expect((await plugin.invoke("nsp:rpki:getRpkiSuggestions", { caId: "abc" })).failures.map((f) => f.property)).toEqual(["caId"]);
    await expect(plugin.invoke("nsp:rpki:getRpkiSuggestions", { caId: "999999" })).rejects.toThrow(/not_found/);
  });

  it("renders RPSL with nsp:rpki:getRpsl", async () => {
    const caId = await apiCa("rpsl", [64500]);
    expect((await plugin.invoke("nsp:rpki:getRpsl", { caId })).result).toEqual({ text: "" });
    await control.post(`/rpki/cas/${caId}/roas`, { asn: 64500, prefix: "192.0.2.0/24" });
    await control.post(`/rpki/cas/${caId}/roas`, { asn: 64500, prefix: "2001:db8::/32", max_length: 48 });
    const { result, failures } = await plugin.invoke("nsp:rpki:getRpsl", { caId });
    expect(failures).toEqual([]);
    const text = String(result.text);
    expect(text).toMatch(/^route: +192\.0\.2\.0\/24\norigin: +AS64500\n/);
    expect(text).toMatch(/\n\nroute6: +2001:db8::\/32\norigin: +AS64500\n/);
    expect((await plugin.invoke("nsp:rpki:getRpsl", {})).failures.map((f) => f.property)).toEqual(["caId"]);
  });
});
