import { describe, expect, it } from "vitest";
import { setAnnouncements } from "../../emulator/src/rpki/state";
import { parseXml } from "../../emulator/src/rpki/xml";
import { expectError, ISO_MS, useAccounts } from "../helpers/emulator-http";

const NS = "http://www.hactrn.net/uris/rpki/rpki-setup/";

const h = useAccounts("carol");

let seq = 0;
async function newCa(extra: Record<string, unknown> = {}): Promise<any> {
  const r = await h.api("POST", "/rpki/cas", { handle: `ca-${++seq}`, ...extra });
  if (r.status !== 201) throw new Error(`CA create failed: ${r.status} ${r.text}`);
  return r.body;
}

function parentResponse(
  attrs: Record<string, string> = {},
  inner = "<parent_bpki_ta>R29kIGlzIHJlYWwgcHJvb2Y=</parent_bpki_ta>",
): string {
  const all = {
    xmlns: NS,
    version: "1",
    service_uri: "https://rpki.ripe.example/up-down/abc",
    child_handle: "carol-ca",
    parent_handle: "ripe-ncc",
    ...attrs,
  };
  const text = Object.entries(all)
    .filter(([, v]) => v !== "")
    .map(([k, v]) => `${k}="${v}"`)
    .join(" ");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<parent_response ${text}>\n  ${inner}\n</parent_response>\n`;
}

describe("RPKI CAs", () => {
  it("creates a CA with every field and the defaults", async () => {
    const r = await h.api("POST", "/rpki/cas", { handle: "Carol-Main", asns: [64501, 64500] });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(
      [
        "asns",
        "created_at",
        "handle",
        "id",
        "note",
        "parent_handle",
        "parent_rir",
        "roas",
        "service_uri",
        "state",
        "synced_at",
      ].sort(),
    );
    expect(r.body).toMatchObject({
      handle: "Carol-Main",
      parent_rir: "RIPE",
      asns: [64500, 64501],
      note: null,
      state: "awaiting_parent",
      parent_handle: null,
      service_uri: null,
      synced_at: null,
      roas: [],
    });
    expect(r.body.created_at).toMatch(ISO_MS);
    expect((await h.api("GET", `/rpki/cas/${r.body.id}`)).body).toEqual(r.body);
    const ca = await newCa({ parent_rir: "ARIN" });
    expect(ca).toMatchObject({ parent_rir: "ARIN", asns: [] });
  });

  it("validates handle, parent_rir and asns", async () => {
    const cases: [unknown, string][] = [
      [{}, "handle: is required"],
      [{ handle: "" }, "handle: must be 1 to 64 letters, digits, '-' or '_', starting with a letter or digit"],
      [{ handle: "-x" }, "handle: must be 1 to 64 letters, digits, '-' or '_', starting with a letter or digit"],
      [{ handle: "a b" }, "handle: must be 1 to 64 letters, digits, '-' or '_', starting with a letter or digit"],
      [
        { handle: "x".repeat(65) },
        "handle: must be 1 to 64 letters, digits, '-' or '_', starting with a letter or digit",
      ],
      [{ handle: "ok", parent_rir: "ripe" }, "parent_rir: must be one of AFRINIC, APNIC, ARIN, LACNIC, RIPE"],
      [{ handle: "ok", asns: [0] }, "asns[0]: must be between 1 and 4294967295"],
      [{ handle: "ok", asns: [4294967296] }, "asns[0]: must be between 1 and 4294967295"],
      [{ handle: "ok", asns: ["64500"] }, "asns[0]: must be an integer"],
      [{ handle: "ok", asns: [64500, 64501, 64500] }, "asns[2]: duplicate of asns[0]"],
      [{ handle: "ok", asns: Array.from({ length: 65 }, (_, i) => i + 1) }, "asns: must have at most 64 items"],
      [{ handle: "ok", note: "x" }, "note: unknown field"],
    ];
    for (const [body, message] of cases)
      expectError(await h.api("POST", "/rpki/cas", body), 400, "validation_error", message);
    expect((await h.api("POST", "/rpki/cas", { handle: "x".repeat(64), asns: [1, 4294967295] })).status).toBe(201);
  });

  it("refuses a second CA with the same handle in one account, ignoring case", async () => {
    await h.api("POST", "/rpki/cas", { handle: "dup-handle" });
    expectError(
      await h.api("POST", "/rpki/cas", { handle: "DUP-handle" }),
      409,
      "conflict",
      /^handle: a CA with handle dup-handle already exists/,
    );
    // Another account has its own namespace.
    expect((await h.api("POST", "/rpki/cas", { handle: "dup-handle" }, { token: h.tokens.other })).status).toBe(201);
  });

  it("patches asns and note, and nothing else", async () => {
    const ca = await newCa({ asns: [64500] });
    const p = await h.api("PATCH", `/rpki/cas/${ca.id}`, { asns: [65551, 64499], note: "primary" });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ asns: [64499, 65551], note: "primary", handle: ca.handle });
    expect((await h.api("PATCH", `/rpki/cas/${ca.id}`, { note: null })).body.note).toBeNull();
    expect((await h.api("PATCH", `/rpki/cas/${ca.id}`, {})).body.asns).toEqual([64499, 65551]);
    expectError(
      await h.api("PATCH", `/rpki/cas/${ca.id}`, { handle: "renamed" }),
      400,
      "validation_error",
      "handle: unknown field",
    );
    expectError(
      await h.api("PATCH", `/rpki/cas/${ca.id}`, { parent_rir: "ARIN" }),
      400,
      "validation_error",
      "parent_rir: unknown field",
    );
    expectError(
      await h.api("PATCH", `/rpki/cas/${ca.id}`, { asns: [1, 1] }),
      400,
      "validation_error",
      "asns[1]: duplicate of asns[0]",
    );
  });

  it("lists CAs paged, each with its ROAs", async () => {
    const ca = await newCa({ asns: [64500] });
    await h.api("POST", `/rpki/cas/${ca.id}/roas`, { asn: 64500, prefix: "192.0.2.0/24" });
    const all = await h.api("GET", "/rpki/cas?limit=500");
    expect(all.status).toBe(200);
    const row = all.body.data.find((c: any) => c.id === ca.id);
    expect(row.roas).toHaveLength(1);
    expect(row.roas[0]).toMatchObject({ ca_id: ca.id, asn: 64500, prefix: "192.0.2.0/24" });
    const page = await h.api("GET", "/rpki/cas?limit=1&offset=0");
    expect(page.body.paging).toEqual({ limit: 1, offset: 0, count: 1, next_offset: 1 });
  });

  it("keeps accounts apart and enforces scopes", async () => {
    const ca = await newCa();
    expectError(await h.api("GET", `/rpki/cas/${ca.id}`, undefined, { token: h.tokens.other }), 404, "not_found");
    expectError(
      await h.api("POST", `/rpki/cas/${ca.id}/roas`, { asn: 1, prefix: "192.0.2.0/24" }, { token: h.tokens.other }),
      404,
      "not_found",
    );
    const others = await h.api("GET", "/rpki/cas", undefined, { token: h.tokens.other });
    expect(others.body.data.map((c: any) => c.id)).not.toContain(ca.id);
    expect((await h.api("GET", `/rpki/cas/${ca.id}/child-request`, undefined, { token: h.tokens.read })).status).toBe(
      200,
    );
    for (const [method, path, body] of [
      ["POST", "/rpki/cas", { handle: "nope" }],
      ["PATCH", `/rpki/cas/${ca.id}`, { note: "x" }],
      ["DELETE", `/rpki/cas/${ca.id}`, undefined],
      ["POST", `/rpki/cas/${ca.id}/parent-response`, { xml: parentResponse() }],
      ["POST", `/rpki/cas/${ca.id}/sync`, undefined],
      ["POST", `/rpki/cas/${ca.id}/roas`, { asn: 1, prefix: "192.0.2.0/24" }],
      ["DELETE", `/rpki/cas/${ca.id}/roas/1`, undefined],
    ] as const) {
      expectError(await h.api(method, path, body, { token: h.tokens.read }), 403, "forbidden");
    }
  });

  it("deletes a CA with its ROAs", async () => {
    const ca = await newCa();
    const roa = (await h.api("POST", `/rpki/cas/${ca.id}/roas`, { asn: 64500, prefix: "198.51.100.0/24" })).body;
    const d = await h.api("DELETE", `/rpki/cas/${ca.id}`);
    expect(d.status).toBe(204);
    expect(d.text).toBe("");
    expectError(await h.api("GET", `/rpki/cas/${ca.id}`), 404, "not_found");
    expectError(await h.api("GET", `/rpki/cas/${ca.id}/roas`), 404, "not_found");
    expectError(await h.api("DELETE", `/rpki/cas/${ca.id}/roas/${roa.id}`), 404, "not_found");
    expectError(await h.api("DELETE", `/rpki/cas/${ca.id}`), 404, "not_found");
  });
});

describe("RFC 8183 setup", () => {
  it("hands out a child request naming the CA, stable across calls", async () => {
    const ca = await newCa();
    const r = await h.api("GET", `/rpki/cas/${ca.id}/child-request`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["ca_id", "handle", "xml"]);
    expect(r.body).toMatchObject({ ca_id: ca.id, handle: ca.handle });
    const doc = parseXml(r.body.xml);
    expect(doc.name).toBe("child_request");
    expect(doc.attrs).toEqual({ xmlns: NS, version: "1", child_handle: ca.handle });
    const ta = doc.children.find((c) => c.name === "child_bpki_ta")!;
    const der = Buffer.from(ta.text.replace(/\s+/g, ""), "base64");
    expect(der[0]).toBe(0x30);
    expect(der.length).toBeGreaterThan(500);
    expect((await h.api("GET", `/rpki/cas/${ca.id}/child-request`)).body.xml).toBe(r.body.xml);
    const other = await newCa();
    expect((await h.api("GET", `/rpki/cas/${other.id}/child-request`)).body.xml).not.toBe(r.body.xml);
  });

  it("accepts a parent response and moves the CA to active", async () => {
    const ca = await newCa();
    expectError(await h.api("POST", `/rpki/cas/${ca.id}/sync`), 409, "conflict", /has no parent yet/);
    const r = await h.api("POST", `/rpki/cas/${ca.id}/parent-response`, { xml: parentResponse() });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: ca.id,
      state: "active",
      parent_handle: "ripe-ncc",
      service_uri: "https://rpki.ripe.example/up-down/abc",
    });
    expect(r.body).not.toHaveProperty("xml");
    // A new response (the parent rotated its key or moved) replaces the old one.
    const again = await h.api("POST", `/rpki/cas/${ca.id}/parent-response`, {
      xml: parentResponse({ parent_handle: "ripe-2", service_uri: "https://rpki2.example/ud" }),
    });
    expect(again.body).toMatchObject({
      state: "active",
      parent_handle: "ripe-2",
      service_uri: "https://rpki2.example/ud",
    });
    const synced = await h.api("POST", `/rpki/cas/${ca.id}/sync`);
    expect(synced.status).toBe(200);
    expect(synced.body.synced_at).toMatch(ISO_MS);
    expect(synced.body.state).toBe("active");
  });

  it("accepts prefixed namespaces, comments and CDATA", async () => {
    const ca = await newCa();
    const xml =
      `<!-- from the RIR --><r:parent_response xmlns:r="${NS}" version='1' ` +
      `service_uri="https://p.example/x?a=1&amp;b=2" child_handle="c" parent_handle="p"><r:parent_bpki_ta><![CDATA[QUJD]]></r:parent_bpki_ta><r:offer/></r:parent_response>`;
    const r = await h.api("POST", `/rpki/cas/${ca.id}/parent-response`, { xml });
    expect(r.status, r.text).toBe(200);
    expect(r.body.service_uri).toBe("https://p.example/x?a=1&b=2");
  });

  it("refuses what is not an RFC 8183 parent response, and leaves the CA as it was", async () => {
    const ca = await newCa();
    const cases: [unknown, string | RegExp][] = [
      [{}, "xml: is required"],
      [{ xml: "" }, "xml: must not be empty"],
      [{ xml: "just text" }, /^xml: not well-formed XML: expected the root element/],
      [{ xml: "<parent_response><x></parent_response>" }, /^xml: not well-formed XML: <\/parent_response> closes <x>/],
      [{ xml: `${parentResponse()}<extra/>` }, /^xml: not well-formed XML: content after the root element/],
      [
        { xml: `<!DOCTYPE x [<!ENTITY a "b">]>${parentResponse()}` },
        /^xml: not well-formed XML: a DOCTYPE is not allowed/,
      ],
      [
        { xml: parentResponse().replace("ripe-ncc", "a &bogus; b") },
        /^xml: not well-formed XML: unknown entity &bogus;/,
      ],
      [
        {
          xml: `<child_request xmlns="${NS}" version="1" child_handle="x"><child_bpki_ta>QUJD</child_bpki_ta></child_request>`,
        },
        "xml: the root element must be parent_response, not child_request",
      ],
      [{ xml: parentResponse({ xmlns: "urn:other" }) }, `xml: parent_response must be in the namespace ${NS}`],
      [{ xml: parentResponse({ version: "2" }) }, 'xml: parent_response must have version="1"'],
      [{ xml: parentResponse({ service_uri: "" }) }, "xml: parent_response has no service_uri attribute"],
      [{ xml: parentResponse({ service_uri: "rsync://x/y" }) }, "xml: service_uri must be an http or https URI"],
      [{ xml: parentResponse({ parent_handle: "" }) }, "xml: parent_response has no parent_handle attribute"],
      [
        { xml: parentResponse({ child_handle: "a b" }) },
        "xml: child_handle must be 1 to 255 letters, digits, '-', '_' or '/'",
      ],
      [{ xml: parentResponse({}, "") }, "xml: parent_response has no parent_bpki_ta element"],
      [
        { xml: parentResponse({}, "<parent_bpki_ta>not base64!</parent_bpki_ta>") },
        "xml: parent_bpki_ta must be a base64 certificate",
      ],
    ];
    for (const [body, message] of cases)
      expectError(await h.api("POST", `/rpki/cas/${ca.id}/parent-response`, body), 400, "validation_error", message);
    expect((await h.api("GET", `/rpki/cas/${ca.id}`)).body.state).toBe("awaiting_parent");
  });
});

describe("ROAs", () => {
  it("creates a ROA with every field, defaulting max_length to the prefix length", async () => {
    const ca = await newCa({ asns: [64500] });
    const r = await h.api("POST", `/rpki/cas/${ca.id}/roas`, { asn: 64500, prefix: "192.0.2.0/24" });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(["asn", "ca_id", "comment", "created_at", "id", "max_length", "prefix"]);
    expect(r.body).toMatchObject({ ca_id: ca.id, asn: 64500, prefix: "192.0.2.0/24", max_length: 24, comment: null });
    expect(r.body.created_at).toMatch(ISO_MS);
    const full = await h.api("POST", `/rpki/cas/${ca.id}/roas`, {
      asn: 64500,
      prefix: "198.51.100.0/22",
      max_length: 24,
      comment: "anycast",
    });
    expect(full.body).toMatchObject({ max_length: 24, comment: "anycast" });
    const list = await h.api("GET", `/rpki/cas/${ca.id}/roas`);
    expect(list.body.data.map((x: any) => x.id)).toEqual([r.body.id, full.body.id]);
    expect(list.body.paging).toEqual({ limit: 100, offset: 0, count: 2, next_offset: null });
    const page = await h.api("GET", `/rpki/cas/${ca.id}/roas?limit=1&offset=1`);
    expect(page.body).toEqual({ data: [full.body], paging: { limit: 1, offset: 1, count: 1, next_offset: null } });
  });

  it("stores IPv6 prefixes compressed and lower-case, and refuses host bits", async () => {
    const ca = await newCa();
    const r = await h.api("POST", `/rpki/cas/${ca.id}/roas`, { asn: 64500, prefix: " 2001:0DB8:0000:0000::/48 " });
    expect(r.body).toMatchObject({ prefix: "2001:db8::/48", max_length: 48 });
    expectError(
      await h.api("POST", `/rpki/cas/${ca.id}/roas`, { asn: 64500, prefix: "10.0.0.1/8" }),
      400,
      "validation_error",
      "prefix: host bits must be zero; did you mean 10.0.0.0/8?",
    );
    expectError(
      await h.api("POST", `/rpki/cas/${ca.id}/roas`, { asn: 64500, prefix: "2001:db8::1/32" }),
      400,
      "validation_error",
      "prefix: host bits must be zero; did you mean 2001:db8::/32?",
    );
    for (const prefix of ["192.0.2.0", "192.0.2.0/", "192.0.2.0/33", "example.com/24", "2001:db8::/129"]) {
      const res = await h.api("POST", `/rpki/cas/${ca.id}/roas`, { asn: 64500, prefix });
      expect(res.status, prefix).toBe(400);
      expect(res.body.error.message).toMatch(/^prefix: /);
    }
  });

  it("enforces max_length between the prefix length and the family limit", async () => {
    const ca = await newCa();
    const post = (prefix: string, max_length: unknown) =>
      h.api("POST", `/rpki/cas/${ca.id}/roas`, { asn: 64500, prefix, max_length });
    expect((await post("203.0.113.0/24", 32)).status).toBe(201);
    expect((await post("2001:db8:1::/48", 128)).status).toBe(201);
    expectError(await post("203.0.113.0/24", 23), 400, "validation_error", "max_length: must be between 24 and 32");
    expectError(await post("203.0.113.0/24", 33), 400, "validation_error", "max_length: must be between 24 and 32");
    expectError(await post("2001:db8:2::/48", 129), 400, "validation_error", "max_length: must be between 48 and 128");
    expectError(await post("203.0.113.0/24", 24.5), 400, "validation_error", "max_length: must be an integer");
  });

  it("validates asn and comment; allows AS0", async () => {
    const ca = await newCa();
    const post = (body: unknown) => h.api("POST", `/rpki/cas/${ca.id}/roas`, body);
    expectError(await post({ prefix: "192.0.2.0/24" }), 400, "validation_error", "asn: is required");
    expectError(await post({ asn: 64500 }), 400, "validation_error", "prefix: is required");
    expectError(
      await post({ asn: -1, prefix: "192.0.2.0/24" }),
      400,
      "validation_error",
      "asn: must be between 0 and 4294967295",
    );
    expectError(
      await post({ asn: 4294967296, prefix: "192.0.2.0/24" }),
      400,
      "validation_error",
      "asn: must be between 0 and 4294967295",
    );
    expectError(
      await post({ asn: 1, prefix: "192.0.2.0/24", comment: "x".repeat(1025) }),
      400,
      "validation_error",
      "comment: must be at most 1024 characters",
    );
    expectError(
      await post({ asn: 1, prefix: "192.0.2.0/24", colour: "red" }),
      400,
      "validation_error",
      "colour: unknown field",
    );
    // The ROA's ASN need not be one of the CA's: an upstream may originate the customer's prefix.
    expect((await post({ asn: 0, prefix: "192.0.2.0/24" })).body.asn).toBe(0);
    expect((await post({ asn: 4294967295, prefix: "192.0.2.0/24" })).status).toBe(201);
  });

  it("refuses a duplicate (asn, prefix, max_length) in one CA as a conflict", async () => {
    const ca = await newCa();
    const first = await h.api("POST", `/rpki/cas/${ca.id}/roas`, { asn: 64500, prefix: "192.0.2.0/24", comment: "a" });
    const dup = await h.api("POST", `/rpki/cas/${ca.id}/roas`, {
      asn: 64500,
      prefix: "192.0.2.0/24",
      max_length: 24,
      comment: "b",
    });
    expectError(
      dup,
      409,
      "conflict",
      `a ROA for AS64500 192.0.2.0/24 max_length 24 already exists in this CA (id ${first.body.id})`,
    );
    expect(
      (await h.api("POST", `/rpki/cas/${ca.id}/roas`, { asn: 64500, prefix: "192.0.2.0/24", max_length: 25 })).status,
    ).toBe(201);
    expect((await h.api("POST", `/rpki/cas/${ca.id}/roas`, { asn: 64501, prefix: "192.0.2.0/24" })).status).toBe(201);
    const other = await newCa();
    expect((await h.api("POST", `/rpki/cas/${other.id}/roas`, { asn: 64500, prefix: "192.0.2.0/24" })).status).toBe(
      201,
    );
  });

  it("deletes a ROA only through its own CA; there is no GET of one ROA", async () => {
    const a = await newCa();
    const b = await newCa();
    const roa = (await h.api("POST", `/rpki/cas/${a.id}/roas`, { asn: 64500, prefix: "192.0.2.0/24" })).body;
    expectError(await h.api("DELETE", `/rpki/cas/${b.id}/roas/${roa.id}`), 404, "not_found");
    expectError(await h.api("GET", `/rpki/cas/${a.id}/roas/${roa.id}`), 405, "method_not_allowed");
    expect((await h.api("DELETE", `/rpki/cas/${a.id}/roas/${roa.id}`)).status).toBe(204);
    expectError(await h.api("DELETE", `/rpki/cas/${a.id}/roas/${roa.id}`), 404, "not_found");
    expect((await h.api("GET", `/rpki/cas/${a.id}`)).body.roas).toEqual([]);
  });
});

describe("suggestions and RPSL", () => {
  it("judges the seeded announcements of the CA's ASNs against its ROAs", async () => {
    // AS64500 = 0xFBF4: 10.251.244.0/24, 2001:db8:fbf4::/48 and 2001:db8:fbf4:100::/56.
    const ca = await newCa({ asns: [64500] });
    const first = await h.api("GET", `/rpki/cas/${ca.id}/suggestions`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      ca_id: ca.id,
      suggestions: [
        {
          asn: 64500,
          prefix: "10.251.244.0/24",
          covered: false,
          validity: "not_found",
          roa_id: null,
          suggested_roa: { asn: 64500, prefix: "10.251.244.0/24", max_length: 24 },
        },
        {
          asn: 64500,
          prefix: "2001:db8:fbf4::/48",
          covered: false,
          validity: "not_found",
          roa_id: null,
          suggested_roa: { asn: 64500, prefix: "2001:db8:fbf4::/48", max_length: 48 },
        },
        {
          asn: 64500,
          prefix: "2001:db8:fbf4:100::/56",
          covered: false,
          validity: "not_found",
          roa_id: null,
          suggested_roa: { asn: 64500, prefix: "2001:db8:fbf4:100::/56", max_length: 56 },
        },
      ],
    });
    const v4 = (await h.api("POST", `/rpki/cas/${ca.id}/roas`, { asn: 64500, prefix: "10.251.244.0/24" })).body;
    // Covers the /48 exactly; the /56 is covered by the prefix but too specific: invalid.
    const v6 = (await h.api("POST", `/rpki/cas/${ca.id}/roas`, { asn: 64500, prefix: "2001:db8:fbf4::/48" })).body;
    const second = (await h.api("GET", `/rpki/cas/${ca.id}/suggestions`)).body.suggestions;
    expect(second.map((s: any) => [s.prefix, s.covered, s.validity, s.roa_id])).toEqual([
      ["10.251.244.0/24", true, "valid", v4.id],
      ["2001:db8:fbf4::/48", true, "valid", v6.id],
      ["2001:db8:fbf4:100::/56", false, "invalid", null],
    ]);
    expect(second[0].suggested_roa).toBeNull();
  });

  it("uses announcements replaced in-process, and ASN changes of the CA", async () => {
    const ca = await newCa({ asns: [64496] });
    setAnnouncements(h.emu.app.store, 64496, ["192.0.2.0/24", "2001:DB8:AB::/48"]);
    setAnnouncements(h.emu.app.store, 64497, ["198.51.100.0/24"]);
    await h.api("POST", `/rpki/cas/${ca.id}/roas`, { asn: 64496, prefix: "192.0.2.0/23", max_length: 24 });
    // A ROA for another origin covers the prefix but does not validate it.
    await h.api("POST", `/rpki/cas/${ca.id}/roas`, { asn: 64511, prefix: "198.51.100.0/24" });
    await h.api("PATCH", `/rpki/cas/${ca.id}`, { asns: [64496, 64497] });
    const s = (await h.api("GET", `/rpki/cas/${ca.id}/suggestions`)).body.suggestions;
    expect(s.map((x: any) => [x.asn, x.prefix, x.validity])).toEqual([
      [64496, "192.0.2.0/24", "valid"],
      [64496, "2001:db8:ab::/48", "not_found"],
      [64497, "198.51.100.0/24", "invalid"],
    ]);
    expect(() => setAnnouncements(h.emu.app.store, 64496, ["10.0.0.1/8"])).toThrow(
      /prefixes\[0\]: host bits must be zero/,
    );
    setAnnouncements(h.emu.app.store, 64496, null);
    expect((await h.api("GET", `/rpki/cas/${ca.id}/suggestions`)).body.suggestions[0].prefix).toBe("10.251.240.0/24");
  });

  it("renders ROAs as RPSL route and route6 objects", async () => {
    const ca = await newCa({ asns: [64500] });
    expect((await h.api("GET", `/rpki/cas/${ca.id}/rpsl`)).body).toEqual({ ca_id: ca.id, text: "" });
    const a = (
      await h.api("POST", `/rpki/cas/${ca.id}/roas`, { asn: 64500, prefix: "192.0.2.0/24", comment: "web\nfront" })
    ).body;
    const b = (await h.api("POST", `/rpki/cas/${ca.id}/roas`, { asn: 64501, prefix: "2001:db8::/32", max_length: 48 }))
      .body;
    const r = await h.api("GET", `/rpki/cas/${ca.id}/rpsl`);
    expect(r.status).toBe(200);
    expect(r.body.text).toBe(
      [
        "route:          192.0.2.0/24",
        "descr:          web front",
        "origin:         AS64500",
        `remarks:        ROA ${a.id} of RPKI CA ${ca.handle}, max-length 24`,
        "source:         NSP-RPKI",
        "",
        "route6:         2001:db8::/32",
        "origin:         AS64501",
        `remarks:        ROA ${b.id} of RPKI CA ${ca.handle}, max-length 48`,
        "source:         NSP-RPKI",
        "",
      ].join("\n"),
    );
  });

  it("answers not_found for the sub-resources of an unknown CA", async () => {
    for (const sub of ["child-request", "suggestions", "rpsl", "roas"])
      expectError(await h.api("GET", `/rpki/cas/999999/${sub}`), 404, "not_found");
    expectError(await h.api("POST", "/rpki/cas/999999/sync"), 404, "not_found");
    // Body validation comes before the lookup, as everywhere.
    expectError(await h.api("POST", "/rpki/cas/999999/parent-response", {}), 400, "validation_error");
    expectError(await h.api("POST", "/rpki/cas/999999/parent-response", { xml: parentResponse() }), 404, "not_found");
  });
});
