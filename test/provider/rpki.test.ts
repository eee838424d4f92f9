// nsp:rpki:Ca, nsp:rpki:Roa and the RPKI functions, through the built plugin binary over gRPC
// against a live emulator.
import { describe, expect, it } from "vitest";
import type * as grpc from "@grpc/grpc-js";
import { initFailure } from "../helpers/plugin";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const CA = "nsp:rpki:Ca";
const ROA = "nsp:rpki:Roa";
const NS = "http://www.hactrn.net/uris/rpki/rpki-setup/";

const provider = useProvider({ account: "rpki" });
const { control, plugin } = provider;

function parentResponse(parentHandle = "ripe-ncc"): string {
  return [
    `<parent_response xmlns="${NS}" version="1" ` +
      `service_uri="https://rpki.ripe.example/up-down/${parentHandle}" child_handle="acme" parent_handle="${parentHandle}">`,
    "  <parent_bpki_ta>R29kIGlzIHJlYWwgcHJvb2YgdGhhdCBtYW4gaXMgbm90IGhpc3RvcnkuCg==</parent_bpki_ta>",
    "</parent_response>",
  ].join("\n");
}

async function apiCa(handle: string, asns: number[] = []): Promise<string> {
  return String((await control.post<{ id: number }>("/rpki/cas", { handle, asns })).id);
}

let walkCas = 0;
const OWN_BAD_TEST =
  "in the test of its own below, which also checks that Check names only that property, and its reason";
lifecycle(provider, [
  {
    type: CA,
    create: { handle: "acme", parentRir: " ripe ", asns: [64501, 64500], note: "mine" },
    checkedAs: { handle: "acme", parentRir: "RIPE", asns: [64500, 64501], note: "mine", forceDestroy: false },
    unknownOutput: ["state", "childRequestXml", "createdAt"],
    idPattern: /^\d+$/,
    outputs: {
      state: "awaiting_parent",
      parentHandle: null,
      childRequestXml: expect.stringContaining(`<child_request xmlns="${NS}" version="1" child_handle="acme">`),
    },
    absentOutputs: ["roas"],
    stableReads: true,
    keptOutputs: ["childRequestXml"],
    update: [
      // asns and note patch in place; the parent response is posted and activates the CA. The API
      // never returns the parent response: a refresh keeps it, and nothing shows as changed.
      {
        inputs: { asns: [64502], note: "main CA", parentResponseXml: parentResponse() },
        outputs: {
          state: "active",
          parentHandle: "ripe-ncc",
          serviceUri: "https://rpki.ripe.example/up-down/ripe-ncc",
          parentResponseXml: parentResponse(),
        },
      },
      // A new parent response is posted again.
      { inputs: { parentResponseXml: parentResponse("ripe-2") }, outputs: { parentHandle: "ripe-2" } },
      // Dropping the note clears it.
      { inputs: { note: undefined }, outputs: { note: null } },
    ],
    // handle and parentRir cannot be patched; keeping the handle means deleting first.
    replace: [
      { inputs: { handle: "acme-2" }, deleteBeforeReplace: false },
      { inputs: { parentRir: "ARIN" }, deleteBeforeReplace: true },
    ],
    // The inputs leave out defaults and what the API never returns.
    imported: { handle: "acme", parentRir: "RIPE", asns: [64502] },
    writeOnly: ["parentResponseXml"],
    importedOutputs: { state: "active" },
    badImportIds: () => [["1/2", /"1\/2" is not a CA id; a CA is known by its numeric id \(<caId>, such as 42\)/]],
    apiPath: (_inputs, id) => `/rpki/cas/${id}`,
    drift: {
      body: { asns: [64500, 64999], note: "theirs" },
      inputs: { asns: [64500, 64999], note: "theirs" },
      repaired: { asns: [64500, 64501], note: "mine" },
    },
    skip: { bad: OWN_BAD_TEST },
  },
  {
    type: ROA,
    create: async () => ({
      caId: await apiCa(`roa-walk-${++walkCas}`, [64500]),
      asn: 64500,
      prefix: "2001:0DB8:0:0::/48",
    }),
    checkedAs: (given) => ({ ...given, prefix: "2001:db8::/48", maxLength: 48 }),
    // A program that leaves maxLength out means the prefix length: no change either.
    equivalent: { prefix: "2001:db8::/48" },
    unknownOutput: "createdAt",
    idPattern: /^\d+$/,
    outputs: { comment: null },
    stableReads: true,
    // A new comment keeps origin, prefix and maxLength, which the API refuses twice: delete first.
    replace: [
      { inputs: { comment: "anycast" }, deleteBeforeReplace: true },
      { inputs: { maxLength: 56 }, deleteBeforeReplace: false },
      { inputs: { asn: 64501 } },
      { inputs: { prefix: "2001:db8:1::/48" } },
      { inputs: { caId: "999999" } },
    ],
    importId: (inputs, id) => `${inputs.caId}/${id}`,
    imported: (inputs) => ({ caId: inputs.caId, asn: 64500, prefix: "2001:db8::/48", maxLength: 48 }),
    // Import takes `<caId>/<roaId>`; a bare or malformed id is refused without a request.
    badImportIds: (inputs, id) =>
      [id, "abc", `${inputs.caId}/x`, `${inputs.caId}/${id}/1`].map((bad) => [
        bad,
        /is known by its id \(<caId>\/<roaId>/,
      ]),
    apiPath: (inputs, id) => `/rpki/cas/${inputs.caId}/roas/${id}`,
    parentPath: (inputs) => `/rpki/cas/${inputs.caId}`,
    exists: async (inputs, id) =>
      (await control.list<{ id: number }>(`/rpki/cas/${inputs.caId}/roas`)).some((r) => String(r.id) === id),
    skip: { update: "every change replaces a ROA", "drift edit": "the API has no edit of a ROA", bad: OWN_BAD_TEST },
  },
  {
    // The replacement the engine runs for a new comment: the delete, then a create with it.
    type: ROA,
    create: async () => ({
      caId: await apiCa(`roa-comment-${++walkCas}`, [64500]),
      asn: 64500,
      prefix: "2001:db8::/48",
      comment: "anycast",
    }),
    outputs: { comment: "anycast", maxLength: 48 },
    importId: (inputs, id) => `${inputs.caId}/${id}`,
    imported: (inputs) => ({
      caId: inputs.caId,
      asn: 64500,
      prefix: "2001:db8::/48",
      maxLength: 48,
      comment: "anycast",
    }),
    apiPath: (inputs, id) => `/rpki/cas/${inputs.caId}/roas/${id}`,
    exists: async (inputs, id) =>
      (await control.list<{ id: number }>(`/rpki/cas/${inputs.caId}/roas`)).some((r) => String(r.id) === id),
    skip: {
      update: "every change replaces a ROA",
      replace: "the row above",
      drift: "the row above",
      bad: OWN_BAD_TEST,
    },
  },
]);

describe("nsp:rpki:Ca over gRPC", () => {
  it("sets the note and the parent response at create, and keeps a half-made CA for the next up to finish", async () => {
    const bad = (
      await plugin.check(CA, "bad", {
        handle: "halfmade",
        parentResponseXml: "<parent_response><parent_bpki_ta>QUJD</parent_bpki_ta></parent_response>",
      })
    ).inputs;
    const err = (await plugin.create(CA, "bad", bad).then(
      () => undefined,
      (e: grpc.ServiceError) => e,
    ))!;
    expect(err.message).toMatch(/validation_error.*xml: parent_response must be in the namespace/s);
    const partial = initFailure(err);
    expect(partial.properties).toMatchObject({ handle: "halfmade", state: "awaiting_parent" });
    expect((await control.list<{ handle: string }>("/rpki/cas")).filter((c) => c.handle === "halfmade")).toHaveLength(
      1,
    );

    // The next up, with the program fixed: the engine updates the half-made CA.
    const good = (
      await plugin.check(CA, "bad", { handle: "halfmade", note: "activated", parentResponseXml: parentResponse() })
    ).inputs;
    const finished = await plugin.update(CA, "bad", partial.id, partial.properties, good, false, bad);
    expect(finished).toMatchObject({
      handle: "halfmade",
      note: "activated",
      state: "active",
      parentResponseXml: parentResponse(),
    });
    expect((await control.list<{ handle: string }>("/rpki/cas")).filter((c) => c.handle === "halfmade")).toHaveLength(
      1,
    );
    await plugin.delete(CA, "bad", partial.id, finished);
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
      expect(
        failures.map((f) => f.property),
        JSON.stringify(news),
      ).toEqual([property]);
      for (const f of failures) expect(f.reason.length).toBeGreaterThan(3);
    }
    expect((await control.stats()).total).toBe(0);
  });
});

describe("nsp:rpki:Roa over gRPC", () => {
  it("finds a ROA on a later page of its CA's list", async () => {
    const caId = await apiCa("many-roas");
    let last = 0;
    for (let i = 0; i < 520; i++) {
      last = (
        await control.post<{ id: number }>(`/rpki/cas/${caId}/roas`, {
          asn: 64500,
          prefix: `10.${i >> 8}.${i & 255}.0/24`,
        })
      ).id;
    }
    await control.resetStats();
    const read = await plugin.read(ROA, "late", `${caId}/${last}`);
    expect(read.properties).toMatchObject({ prefix: "10.2.7.0/24", maxLength: 24 });
    expect((await control.stats()).byRoute["GET /rpki/cas/:id/roas"]).toBe(2);
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
      expect(
        failures.map((f) => f.property),
        JSON.stringify(news),
      ).toEqual([property]);
      expect(failures[0]!.reason).toMatch(reason);
    }
    // 10.0.0.0/8 passes; 10.0.0.1/8 does not pass silently as the same ROA.
    expect((await plugin.check(ROA, "ok", { ...base, prefix: "10.0.0.0/8" })).inputs).toMatchObject({
      prefix: "10.0.0.0/8",
      maxLength: 8,
    });
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
        {
          asn: 64500,
          prefix: "10.251.244.0/24",
          covered: true,
          validity: "valid",
          roaId: String(roa.id),
          suggestedRoa: null,
        },
        {
          asn: 64500,
          prefix: "2001:db8:fbf4::/48",
          covered: false,
          validity: "not_found",
          roaId: null,
          suggestedRoa: { asn: 64500, prefix: "2001:db8:fbf4::/48", maxLength: 48 },
        },
        {
          asn: 64500,
          prefix: "2001:db8:fbf4:100::/56",
          covered: false,
          validity: "not_found",
          roaId: null,
          suggestedRoa: { asn: 64500, prefix: "2001:db8:fbf4:100::/56", maxLength: 56 },
        },
      ],
    });
    expect(
      (await plugin.invoke("nsp:rpki:getRpkiSuggestions", { caId: "abc" })).failures.map((f) => f.property),
    ).toEqual(["caId"]);
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
