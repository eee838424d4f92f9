import { beforeAll, describe, expect, it } from "vitest";
import { type Api, createZone, expectError, ISO_MS, makeApi, useAccounts } from "../helpers/emulator-http";

const LINK = "svc_4e610000000000000000000000000003";
const SECRET = "s3cret-key-material-0001";

const h = useAccounts("isp", { accounts: [{ name: "isp", token: LINK, scope: "link" }] });
const { ro, other } = h;
let linkTok: Api;
beforeAll(() => {
  linkTok = makeApi(h.emu.baseUrl, LINK);
});

describe("registry link", () => {
  it("is absent at first, and every other registry endpoint needs it", async () => {
    expect((await h.api("GET", "/registry/link")).body).toEqual({
      linked: false,
      key_id: null,
      mntner: null,
      verified_at: null,
      synced_at: null,
      created_at: null,
    });
    const msg = "no registry link for this account; PUT /registry/link first";
    expectError(await h.api("GET", "/registry/resources"), 409, "conflict", msg);
    expectError(await h.api("GET", "/registry/domains"), 409, "conflict", msg);
    expectError(await h.api("GET", "/registry/rpki/plan"), 409, "conflict", msg);
    expectError(await h.api("POST", "/registry/sync"), 409, "conflict", msg);
    expectError(await h.api("PUT", "/registry/domains/2.0.192.in-addr.arpa", { nserver: [] }), 409, "conflict", msg);
    expectError(await h.api("DELETE", "/registry/link"), 404, "not_found", "registry link not found");
  });

  it("verifies the key against the maintainer: a deterministic set is accepted", async () => {
    expectError(
      await h.api("PUT", "/registry/link", { key_id: "k1", key_secret: SECRET, mntner: "NOSUCH-MNT" }),
      400,
      "validation_error",
      "mntner: no maintainer NOSUCH-MNT in the registry database",
    );
    expectError(
      await h.api("PUT", "/registry/link", { key_id: "k1", key_secret: "short", mntner: "EXAMPLE-MNT" }),
      400,
      "validation_error",
      "key_secret: the registry database refused key k1 for maintainer EXAMPLE-MNT",
    );
    expectError(
      await h.api("PUT", "/registry/link", {
        key_id: "k1",
        key_secret: "wrong-but-long-enough",
        mntner: "EXAMPLE-MNT",
      }),
      400,
      "validation_error",
      /^key_secret: the registry database refused/,
    );
    expectError(
      await h.api("PUT", "/registry/link", { key_id: "k1", key_secret: SECRET, mntner: "EXAMPLE" }),
      400,
      "validation_error",
      /^mntner: must be a maintainer name ending in -MNT/,
    );
    expectError(
      await h.api("PUT", "/registry/link", { key_id: "k1", mntner: "EXAMPLE-MNT" }),
      400,
      "validation_error",
      "key_secret: is required",
    );
    expectError(
      await h.api("PUT", "/registry/link", { key_id: "bad id", key_secret: SECRET, mntner: "EXAMPLE-MNT" }),
      400,
      "validation_error",
      /^key_id:/,
    );
    expectError(
      await ro("PUT", "/registry/link", { key_id: "k1", key_secret: SECRET, mntner: "EXAMPLE-MNT" }),
      403,
      "forbidden",
    );

    // A link-scope token may write the registry endpoints (and nothing else).
    const r = await linkTok("PUT", "/registry/link", { key_id: "k1", key_secret: SECRET, mntner: " example-mnt " });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      linked: true,
      key_id: "k1",
      mntner: "EXAMPLE-MNT",
      verified_at: expect.stringMatching(ISO_MS),
      synced_at: null,
      created_at: expect.stringMatching(ISO_MS),
    });
    expect(JSON.stringify((await h.api("GET", "/registry/link")).body)).not.toContain(SECRET);
    expectError(await linkTok("POST", "/partner/subjects", { external_ref: "x" }), 403, "forbidden");
    expect((await other("GET", "/registry/link")).body.linked).toBe(false);
  });

  it("discovers resources on sync, with reverse-DNS status per block", async () => {
    expect((await h.api("GET", "/registry/resources")).body).toEqual({
      mntner: "EXAMPLE-MNT",
      synced_at: null,
      organisations: [],
      blocks: [],
      asns: [],
      domains: [],
    });
    const synced = await h.api("POST", "/registry/sync");
    expect(synced.status).toBe(200);
    expect(synced.body.synced_at).toMatch(ISO_MS);
    const zone = await createZone(h.api, "2.0.192.in-addr.arpa");
    const r = (await h.api("GET", "/registry/resources")).body;
    expect(r.asns).toEqual([64500, 64501]);
    expect(r.organisations).toEqual([{ handle: "ORG-EXAMPLE1-RIPE", name: "EXAMPLE Networks" }]);
    expect(r.domains).toEqual(["2.0.192.in-addr.arpa", "100.51.198.in-addr.arpa", "8.b.d.0.1.0.0.2.ip6.arpa"]);
    expect(r.blocks[0]).toEqual({
      prefix: "192.0.2.0/24",
      rdns: {
        zone: "2.0.192.in-addr.arpa",
        zone_id: zone.id,
        status: "zone_not_delegated",
        nserver: ["ns1.previous-dns.example", "ns2.previous-dns.example"],
      },
    });
    expect(r.blocks[2].rdns).toMatchObject({ zone: "8.b.d.0.1.0.0.2.ip6.arpa", zone_id: null, status: "not_hosted" });
    expect((await h.api("GET", "/registry/link")).body.synced_at).toBe(synced.body.synced_at);
  });

  it("changes domain objects the maintainer controls", async () => {
    const list = (await h.api("GET", "/registry/domains")).body;
    expect(list.data).toHaveLength(3);
    expect(list.paging.count).toBe(3);
    const put = await h.api("PUT", "/registry/domains/2.0.192.in-addr.arpa.", {
      nserver: ["NS1.nsp-emulator.test.", "ns2.nsp-emulator.test"],
      ds_rdata: ["12345  13 2 ABCDEF0123456789ABCDEF0123456789"],
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      name: "2.0.192.in-addr.arpa",
      nserver: ["ns1.nsp-emulator.test", "ns2.nsp-emulator.test"],
      ds_rdata: ["12345 13 2 ABCDEF0123456789ABCDEF0123456789"],
      mntner: "EXAMPLE-MNT",
      updated_at: expect.stringMatching(ISO_MS),
      dry_run: false,
    });
    expect((await h.api("GET", "/registry/resources")).body.blocks[0].rdns.status).toBe("delegated");

    const dry = await h.api("PUT", "/registry/domains/100.51.198.in-addr.arpa", {
      nserver: ["ns1.example.net"],
      dry_run: true,
    });
    expect(dry.body).toMatchObject({ nserver: ["ns1.example.net"], dry_run: true });
    const after = ((await h.api("GET", "/registry/domains")).body.data as any[]).find(
      (d) => d.name === "100.51.198.in-addr.arpa",
    );
    expect(after.nserver).toEqual(["ns1.previous-dns.example", "ns2.previous-dns.example"]);

    // A name under a block is the maintainer's too (a new object); anything else is not.
    expect(
      (await linkTok("PUT", "/registry/domains/128.2.0.192.in-addr.arpa", { nserver: ["ns1.example.net"] })).status,
    ).toBe(200);
    expectError(
      await h.api("PUT", "/registry/domains/10.in-addr.arpa", { nserver: [] }),
      403,
      "forbidden",
      "maintainer EXAMPLE-MNT does not control the domain object 10.in-addr.arpa",
    );
    expectError(
      await h.api("PUT", "/registry/domains/2.0.192.in-addr.arpa", {
        ds_rdata: ["1 13 2 ABCDEF0123456789ABCDEF0123456789"],
      }),
      400,
      "validation_error",
      /^ds_rdata: needs at least one nserver/,
    );
    expectError(
      await h.api("PUT", "/registry/domains/2.0.192.in-addr.arpa", { nserver: ["a.example", "a.example"] }),
      400,
      "validation_error",
      "nserver: must not repeat a name server",
    );
    expectError(
      await h.api("PUT", "/registry/domains/2.0.192.in-addr.arpa", { nserver: ["not a host"] }),
      400,
      "validation_error",
      /^nserver\[0\]: must be a host name/,
    );
    expectError(
      await h.api("PUT", "/registry/domains/2.0.192.in-addr.arpa", { nserver: ["a.example"], ds_rdata: ["nonsense"] }),
      400,
      "validation_error",
      /^ds_rdata\[0\]: must be DS record data/,
    );
    expectError(await ro("PUT", "/registry/domains/2.0.192.in-addr.arpa", {}), 403, "forbidden");

    expect((await h.api("DELETE", "/registry/domains/128.2.0.192.in-addr.arpa")).status).toBe(204);
    expectError(
      await h.api("DELETE", "/registry/domains/128.2.0.192.in-addr.arpa"),
      404,
      "not_found",
      "domain object not found",
    );
  });

  it("plans ROAs from what was discovered", async () => {
    const before = (await h.api("GET", "/registry/rpki/plan")).body;
    expect(before.suggestions).toEqual([
      { asn: 64500, prefix: "192.0.2.0/24", max_length: 24, covered: false },
      { asn: 64500, prefix: "198.51.100.0/24", max_length: 24, covered: false },
      { asn: 64501, prefix: "2001:db8::/32", max_length: 32, covered: false },
    ]);
    expect(before.steps.map((s: any) => [s.step, s.done])).toEqual([
      ["sync", true],
      ["create_ca", false],
      ["parent_response", false],
      ["roas", false],
    ]);
    const ca = (await h.api("POST", "/rpki/cas", { handle: "isp-ca", asns: [64500] })).body;
    const roa = await h.api("POST", `/rpki/cas/${ca.id}/roas`, { asn: 64500, prefix: "192.0.2.0/24", max_length: 24 });
    expect(roa.status, roa.text).toBe(201);
    const after = (await h.api("GET", "/registry/rpki/plan")).body;
    expect(after.suggestions.map((s: any) => s.covered)).toEqual([true, false, false]);
    expect(after.steps[1]).toMatchObject({ step: "create_ca", done: true });
  });

  it("relinks with PUT and unlinks with DELETE", async () => {
    const relink = await h.api("PUT", "/registry/link", { key_id: "k2", key_secret: SECRET, mntner: "EXAMPLE-MNT" });
    expect(relink.body).toMatchObject({ key_id: "k2", mntner: "EXAMPLE-MNT" });
    expect(relink.body.synced_at).not.toBeNull();
    expect((await linkTok("DELETE", "/registry/link")).status).toBe(204);
    expect((await h.api("GET", "/registry/link")).body.linked).toBe(false);
    // The registry's domain objects stay with the maintainer.
    await h.api("PUT", "/registry/link", { key_id: "k3", key_secret: SECRET, mntner: "EXAMPLE-MNT" });
    const d = ((await h.api("GET", "/registry/domains")).body.data as any[]).find(
      (x) => x.name === "2.0.192.in-addr.arpa",
    );
    expect(d.nserver).toEqual(["ns1.nsp-emulator.test", "ns2.nsp-emulator.test"]);
    await h.api("DELETE", "/registry/link");
  });
});
