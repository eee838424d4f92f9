import { beforeAll, describe, expect, it } from "vitest";
import { createZone, expectError, ISO_MS, useAccounts } from "../helpers/emulator-http";

const h = useAccounts("tun");
const { ro, other } = h;
let pops: Array<{ id: number; code: string }>;
beforeAll(async () => {
  pops = (await h.api("GET", "/link/pops")).body.data;
});

const TUNNEL_FIELDS = [
  "id",
  "name",
  "local_url",
  "pop_id",
  "pop_id2",
  "address",
  "hostnames",
  "credential_issued_at",
  "created_at",
].sort();

let seq = 0;
async function newTunnel(extra: Record<string, unknown> = {}): Promise<any> {
  const r = await h.api("POST", "/link/tunnels", {
    name: `t-${++seq}`,
    local_url: "http://localhost:8080",
    pop_id: pops[0]!.id,
    ...extra,
  });
  if (r.status !== 201) throw new Error(`tunnel create failed: ${r.status} ${r.text}`);
  return r.body;
}

async function put(tunnelId: number, managed_by: string, hostnames: string[], adopt?: boolean) {
  return h.api("PUT", `/link/tunnels/${tunnelId}/hostnames`, {
    managed_by,
    hostnames,
    ...(adopt === undefined ? {} : { adopt }),
  });
}

async function site(id: number): Promise<any> {
  return (await h.api("GET", `/cdn/sites/${id}`)).body;
}

async function sitesByHost(): Promise<Map<string, any>> {
  const list = (await h.api("GET", "/cdn/sites?limit=500")).body.data as any[];
  return new Map(list.map((s) => [s.hostname, s]));
}

describe("landing points", () => {
  it("are seeded per account, paged, and not shared", async () => {
    expect(pops.map((p) => p.code)).toEqual(["ams", "fra", "iad", "sin"]);
    const r = await h.api("GET", "/link/pops?limit=2");
    expect(r.body.data).toHaveLength(2);
    expect(r.body.paging).toEqual({ limit: 2, offset: 0, count: 2, next_offset: 2 });
    expect(r.body.data[0]).toEqual({ id: pops[0]!.id, code: "ams", name: "Amsterdam", country: "NL" });
    const theirs = (await other("GET", "/link/pops")).body.data as any[];
    expect(theirs.map((p) => p.code)).toEqual(["ams", "fra", "iad", "sin"]);
    expect(theirs.map((p) => p.id)).not.toContain(pops[0]!.id);
    // Another account's landing point reads as missing.
    expectError(
      await h.api("POST", "/link/tunnels", { name: "x", local_url: "http://localhost", pop_id: theirs[0].id }),
      400,
      "validation_error",
      `pop_id: no point of presence ${theirs[0].id} in this account (see GET /link/pops)`,
    );
  });
});

describe("tunnels", () => {
  it("creates a tunnel whose credential is shown once", async () => {
    const r = await h.api("POST", "/link/tunnels", {
      name: "  home lab ",
      local_url: "http://127.0.0.1:3000/app",
      pop_id: pops[1]!.id,
      pop_id2: pops[2]!.id,
    });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual([...TUNNEL_FIELDS, "credential"].sort());
    expect(r.body).toMatchObject({
      name: "home lab",
      local_url: "http://127.0.0.1:3000/app",
      pop_id: pops[1]!.id,
      pop_id2: pops[2]!.id,
      hostnames: [],
    });
    expect(r.body.credential).toMatch(/^lnk_[0-9a-f]{48}$/);
    expect(r.body.address).toMatch(/^100\.96\.\d+\.\d+$/);
    expect(r.body.created_at).toMatch(ISO_MS);
    expect(r.body.credential_issued_at).toBe(r.body.created_at);
    const { credential: _c, ...rest } = r.body;
    const got = await h.api("GET", `/link/tunnels/${r.body.id}`);
    expect(got.body).toEqual(rest);
    expect((await h.api("GET", "/link/tunnels")).body.data).toContainEqual(rest);
    expect((await ro("GET", `/link/tunnels/${r.body.id}`)).status).toBe(200);
    const noPop2 = await newTunnel();
    expect(noPop2.pop_id2).toBeNull();
  });

  it("validates the create body", async () => {
    const base = { name: "v", local_url: "http://localhost:8080", pop_id: pops[0]!.id };
    const cases: [unknown, string][] = [
      [{ local_url: "http://x", pop_id: pops[0]!.id }, "name: is required"],
      [{ ...base, name: "   " }, "name: must not be empty"],
      [{ ...base, name: "n".repeat(101) }, "name: must be at most 100 characters"],
      [{ name: "v", pop_id: pops[0]!.id }, "local_url: is required"],
      [
        { ...base, local_url: "localhost:8080" },
        "local_url: must be an absolute http:// or https:// URL such as http://localhost:8080",
      ],
      [
        { ...base, local_url: "ftp://localhost" },
        "local_url: must be an absolute http:// or https:// URL such as http://localhost:8080",
      ],
      [{ ...base, local_url: "http://user:pw@localhost" }, "local_url: must not carry credentials"],
      [{ ...base, pop_id: undefined }, "pop_id: is required"],
      [{ ...base, pop_id: "1" }, "pop_id: must be an integer"],
      [{ ...base, pop_id: 999999 }, "pop_id: no point of presence 999999 in this account (see GET /link/pops)"],
      [{ ...base, pop_id2: pops[0]!.id }, "pop_id2: must differ from pop_id"],
      [{ ...base, colour: "red" }, "colour: unknown field"],
    ];
    for (const [body, message] of cases)
      expectError(await h.api("POST", "/link/tunnels", body), 400, "validation_error", message);
    expectError(await ro("POST", "/link/tunnels", base), 403, "forbidden");
  });

  it("refuses a second tunnel of the same name in the account", async () => {
    const t = await newTunnel({ name: "Unique" });
    expectError(
      await h.api("POST", "/link/tunnels", { name: "unique", local_url: "http://localhost", pop_id: pops[0]!.id }),
      409,
      "conflict",
      `name: a tunnel named Unique already exists (id ${t.id})`,
    );
    // Another account may use the name.
    expect(
      (
        await other("POST", "/link/tunnels", {
          name: "Unique",
          local_url: "http://localhost",
          pop_id: (await other("GET", "/link/pops")).body.data[0].id,
        })
      ).status,
    ).toBe(201);
  });

  it("patches the same fields, without ever showing the credential again", async () => {
    const t = await newTunnel({ pop_id2: pops[1]!.id });
    const r = await h.api("PATCH", `/link/tunnels/${t.id}`, {
      name: "renamed",
      local_url: "https://app.internal:8443",
      pop_id: pops[2]!.id,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      name: "renamed",
      local_url: "https://app.internal:8443",
      pop_id: pops[2]!.id,
      pop_id2: pops[1]!.id,
      address: t.address,
    });
    expect(r.body.credential).toBeUndefined();
    expect((await h.api("PATCH", `/link/tunnels/${t.id}`, { pop_id2: null })).body.pop_id2).toBeNull();
    expect((await h.api("PATCH", `/link/tunnels/${t.id}`, { pop_id2: pops[3]!.id })).body.pop_id2).toBe(pops[3]!.id);
    expectError(
      await h.api("PATCH", `/link/tunnels/${t.id}`, { pop_id2: pops[2]!.id }),
      400,
      "validation_error",
      "pop_id2: must differ from pop_id",
    );
    expectError(
      await h.api("PATCH", `/link/tunnels/${t.id}`, { pop_id: pops[3]!.id }),
      400,
      "validation_error",
      "pop_id: must differ from the tunnel's pop_id2",
    );
    expectError(
      await h.api("PATCH", `/link/tunnels/${t.id}`, { pop_id: 999999 }),
      400,
      "validation_error",
      /^pop_id: no point of presence 999999/,
    );
    expectError(
      await h.api("PATCH", `/link/tunnels/${t.id}`, { local_url: "nope" }),
      400,
      "validation_error",
      /^local_url: /,
    );
    expectError(
      await h.api("PATCH", `/link/tunnels/${t.id}`, { address: "1.2.3.4" }),
      400,
      "validation_error",
      "address: unknown field",
    );
    const named = await newTunnel();
    expectError(await h.api("PATCH", `/link/tunnels/${t.id}`, { name: named.name.toUpperCase() }), 409, "conflict");
    // Its own name (any case) is not a clash.
    expect((await h.api("PATCH", `/link/tunnels/${t.id}`, { name: "RENAMED" })).status).toBe(200);
    // A bad body to a missing tunnel is a validation error; a good one is not_found.
    expectError(await h.api("PATCH", "/link/tunnels/999999", { local_url: "nope" }), 400, "validation_error");
    expectError(await h.api("PATCH", "/link/tunnels/999999", { name: "x" }), 404, "not_found");
  });

  it("rotates the credential through POST /token", async () => {
    const t = await newTunnel();
    const r = await h.api("POST", `/link/tunnels/${t.id}/token`);
    expect(r.status).toBe(200);
    expect(r.body.credential).toMatch(/^lnk_[0-9a-f]{48}$/);
    expect(r.body.credential).not.toBe(t.credential);
    expect(r.body).toMatchObject({ id: t.id, name: t.name, address: t.address });
    expect((await h.api("GET", `/link/tunnels/${t.id}`)).body.credential).toBeUndefined();
    expectError(await ro("POST", `/link/tunnels/${t.id}/token`), 403, "forbidden");
    expectError(await h.api("POST", "/link/tunnels/999999/token"), 404, "not_found");
  });

  it("keeps tunnels to their account", async () => {
    const t = await newTunnel();
    expectError(await other("GET", `/link/tunnels/${t.id}`), 404, "not_found");
    expectError(await other("PATCH", `/link/tunnels/${t.id}`, { name: "x" }), 404, "not_found");
    expectError(await other("DELETE", `/link/tunnels/${t.id}`), 404, "not_found");
    expectError(await other("POST", `/link/tunnels/${t.id}/token`), 404, "not_found");
    expectError(
      await other("PUT", `/link/tunnels/${t.id}/hostnames`, { managed_by: "x", hostnames: [] }),
      404,
      "not_found",
    );
    expect(((await other("GET", "/link/tunnels")).body.data as any[]).map((x) => x.id)).not.toContain(t.id);
  });

  it("frees the address on delete", async () => {
    const a = await newTunnel();
    const r = await h.api("DELETE", `/link/tunnels/${a.id}`);
    expect(r.status).toBe(204);
    expectError(await h.api("GET", `/link/tunnels/${a.id}`), 404, "not_found");
    expectError(await h.api("DELETE", `/link/tunnels/${a.id}`), 404, "not_found");
    const b = await newTunnel();
    expect(b.address).toBe(a.address);
    expect(b.id).not.toBe(a.id);
  });

  it("count in the account's quota usage", async () => {
    const n = (await h.api("GET", "/link/tunnels?limit=500")).body.data.length;
    expect((await h.api("GET", "/account/quota")).body.usage.tunnels).toBe(n);
  });
});

describe("PUT /link/tunnels/{id}/hostnames", () => {
  it("creates edge sites pointed at the tunnel, idempotently", async () => {
    const t = await newTunnel();
    const r = await put(t.id, "pulumi", ["App.Tunnel-A.example.", "api.tunnel-a.example"]);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([
      "created",
      "hostnames",
      "managed_by",
      "removed",
      "repointed",
      "tunnel_id",
    ]);
    expect(r.body).toMatchObject({
      tunnel_id: t.id,
      managed_by: "pulumi",
      created: ["api.tunnel-a.example", "app.tunnel-a.example"],
      repointed: [],
      removed: [],
    });
    const hostnames = r.body.hostnames as any[];
    expect(hostnames.map((x) => x.hostname)).toEqual(["api.tunnel-a.example", "app.tunnel-a.example"]);
    const sites = await sitesByHost();
    for (const x of hostnames) {
      const s = sites.get(x.hostname);
      expect(x).toEqual({ hostname: s.hostname, managed_by: "pulumi", site_id: s.id, target: s.target });
      expect(s).toMatchObject({
        dns_mode: "cname",
        origin: null,
        link_tunnel_id: t.id,
        pages_project_id: null,
        zone_id: null,
      });
      expect(s.target).toMatch(/\.edge\.nsp-emulator\.test$/);
    }
    expect((await h.api("GET", `/link/tunnels/${t.id}`)).body.hostnames).toEqual(hostnames);

    const again = await put(t.id, "pulumi", ["app.tunnel-a.example", "api.tunnel-a.example"]);
    expect(again.body).toMatchObject({ created: [], repointed: [], removed: [], hostnames });
  });

  it("removes the sites it made when the list drops them, and adds new ones", async () => {
    const t = await newTunnel();
    const first = (await put(t.id, "pulumi", ["a.tunnel-b.example", "b.tunnel-b.example"])).body;
    const aId = first.hostnames[0].site_id;
    const r = await put(t.id, "pulumi", ["b.tunnel-b.example", "c.tunnel-b.example"]);
    expect(r.body).toMatchObject({ created: ["c.tunnel-b.example"], repointed: [], removed: ["a.tunnel-b.example"] });
    expectError(await h.api("GET", `/cdn/sites/${aId}`), 404, "not_found");
    expect((r.body.hostnames as any[]).map((x) => x.hostname)).toEqual(["b.tunnel-b.example", "c.tunnel-b.example"]);
    const empty = await put(t.id, "pulumi", []);
    expect(empty.body).toMatchObject({ hostnames: [], removed: ["b.tunnel-b.example", "c.tunnel-b.example"] });
    const sites = await sitesByHost();
    expect(sites.has("b.tunnel-b.example") || sites.has("c.tunnel-b.example")).toBe(false);
  });

  it("repoints a managed site that was pointed elsewhere, which the tunnel stops listing meanwhile", async () => {
    const t = await newTunnel();
    const id = (await put(t.id, "pulumi", ["r.tunnel-c.example"])).body.hostnames[0].site_id;
    await h.api("PUT", `/cdn/sites/${id}/origin`, { pages_project_id: 5 });
    expect((await h.api("GET", `/link/tunnels/${t.id}`)).body.hostnames).toEqual([]);
    const r = await put(t.id, "pulumi", ["r.tunnel-c.example"]);
    expect(r.body).toMatchObject({ created: [], repointed: ["r.tunnel-c.example"], removed: [] });
    expect(await site(id)).toMatchObject({ link_tunnel_id: t.id, pages_project_id: null });
    // Let go, not deleted, when the list drops it while it serves something else.
    await h.api("PUT", `/cdn/sites/${id}/origin`, { pages_project_id: 6 });
    expect((await put(t.id, "pulumi", [])).body.removed).toEqual([]);
    expect(await site(id)).toMatchObject({ pages_project_id: 6, link_tunnel_id: null });
    expectError(await put(t.id, "pulumi", ["r.tunnel-c.example"]), 409, "conflict");
  });

  it("takes over an existing site only with adopt, and lets it go again without deleting it", async () => {
    const t = await newTunnel();
    const existing = (await h.api("POST", "/cdn/sites", { hostname: "own.tunnel-d.example", origin: "203.0.113.7" }))
      .body;
    const refused = await put(t.id, "pulumi", ["new.tunnel-d.example", "own.tunnel-d.example"]);
    expectError(
      refused,
      409,
      "conflict",
      `hostnames[1]: own.tunnel-d.example is already an edge site of this account (site ${existing.id}, ` +
        `cname mode); send adopt: true to serve it through this tunnel`,
    );
    // All or nothing: the new name was not created either.
    expect((await sitesByHost()).has("new.tunnel-d.example")).toBe(false);

    const r = await put(t.id, "pulumi", ["new.tunnel-d.example", "own.tunnel-d.example"], true);
    expect(r.body).toMatchObject({
      created: ["new.tunnel-d.example"],
      repointed: ["own.tunnel-d.example"],
      removed: [],
    });
    expect(await site(existing.id)).toMatchObject({ origin: "203.0.113.7", link_tunnel_id: t.id });
    // Adopted once is managed: later PUTs need no adopt.
    expect((await put(t.id, "pulumi", ["new.tunnel-d.example", "own.tunnel-d.example"])).status).toBe(200);
    const dropped = await put(t.id, "pulumi", ["new.tunnel-d.example"]);
    expect(dropped.body.removed).toEqual(["own.tunnel-d.example"]);
    expect(await site(existing.id)).toMatchObject({ origin: "203.0.113.7", link_tunnel_id: null });
  });

  it("adopts a zone-mode site and releases it rather than deleting it", async () => {
    const t = await newTunnel();
    const zone = await createZone(h.api, "tunnel-e.example");
    await h.api("POST", `/dns/zones/${zone.id}/records`, {
      name: "www",
      type: "A",
      content: "192.0.2.1",
      proxied: true,
    });
    const zs = (await sitesByHost()).get("www.tunnel-e.example");
    expect(zs.dns_mode).toBe("zone");
    expectError(await put(t.id, "pulumi", ["www.tunnel-e.example"]), 409, "conflict", /site \d+, zone mode/);
    expect((await put(t.id, "pulumi", ["www.tunnel-e.example"], true)).body.repointed).toEqual([
      "www.tunnel-e.example",
    ]);
    expect(await site(zs.id)).toMatchObject({ link_tunnel_id: t.id });
    await put(t.id, "pulumi", []);
    expect(await site(zs.id)).toMatchObject({ dns_mode: "zone", link_tunnel_id: null });
  });

  it("keeps lists apart: by managed_by and by tunnel", async () => {
    const t = await newTunnel();
    const u = await newTunnel();
    await put(t.id, "pulumi", ["one.tunnel-f.example"]);
    await put(t.id, "ci", ["two.tunnel-f.example"]);
    const view = (await h.api("GET", `/link/tunnels/${t.id}`)).body.hostnames as any[];
    expect(view.map((x) => [x.hostname, x.managed_by])).toEqual([
      ["one.tunnel-f.example", "pulumi"],
      ["two.tunnel-f.example", "ci"],
    ]);
    // Another list naming a managed site is refused, even on another tunnel.
    expectError(await put(t.id, "ci", ["one.tunnel-f.example"]), 409, "conflict", /managed by "pulumi" on tunnel/);
    expectError(
      await put(u.id, "pulumi", ["two.tunnel-f.example"]),
      409,
      "conflict",
      new RegExp(`managed by "ci" on tunnel ${t.id}`),
    );
    // Emptying one list leaves the other's sites alone.
    expect((await put(t.id, "ci", [])).body.removed).toEqual(["two.tunnel-f.example"]);
    expect(((await h.api("GET", `/link/tunnels/${t.id}`)).body.hostnames as any[]).map((x) => x.hostname)).toEqual([
      "one.tunnel-f.example",
    ]);
    // adopt moves a site from one list to another.
    const moved = await put(u.id, "pulumi", ["one.tunnel-f.example"], true);
    expect(moved.body.repointed).toEqual(["one.tunnel-f.example"]);
    expect((await h.api("GET", `/link/tunnels/${t.id}`)).body.hostnames).toEqual([]);
    expect(((await h.api("GET", `/link/tunnels/${u.id}`)).body.hostnames as any[]).map((x) => x.hostname)).toEqual([
      "one.tunnel-f.example",
    ]);
  });

  it("sees a managed site deleted through the edge-proxy API as gone, and makes it again", async () => {
    const t = await newTunnel();
    const id = (await put(t.id, "pulumi", ["gone.tunnel-g.example"])).body.hostnames[0].site_id;
    expect((await h.api("DELETE", `/cdn/sites/${id}`)).status).toBe(204);
    expect((await h.api("GET", `/link/tunnels/${t.id}`)).body.hostnames).toEqual([]);
    const r = await put(t.id, "pulumi", ["gone.tunnel-g.example"]);
    expect(r.body.created).toEqual(["gone.tunnel-g.example"]);
    expect(r.body.hostnames[0].site_id).not.toBe(id);
  });

  it("validates the body before looking up the tunnel", async () => {
    const t = await newTunnel();
    const cases: [unknown, string][] = [
      [{ hostnames: [] }, "managed_by: is required"],
      [
        { managed_by: "", hostnames: [] },
        "managed_by: must be 1 to 64 letters, digits, '.', '_', ':' or '-', starting with a letter or digit",
      ],
      [
        { managed_by: "a/b", hostnames: [] },
        "managed_by: must be 1 to 64 letters, digits, '.', '_', ':' or '-', starting with a letter or digit",
      ],
      [{ managed_by: "x" }, "hostnames: is required"],
      [{ managed_by: "x", hostnames: "a.example" }, "hostnames: must be an array"],
      [{ managed_by: "x", hostnames: [1] }, "hostnames[0]: must be a string"],
      [
        { managed_by: "x", hostnames: ["ok.example", "not a host"] },
        "hostnames[1]: must be a host name such as app.example.com",
      ],
      [{ managed_by: "x", hostnames: ["*.example.com"] }, "hostnames[0]: must be a host name such as app.example.com"],
      [
        { managed_by: "x", hostnames: ["a.example", "A.example."] },
        "hostnames[1]: duplicate of hostnames[0] (a.example)",
      ],
      [
        { managed_by: "x", hostnames: Array.from({ length: 101 }, (_, i) => `h${i}.example`) },
        "hostnames: must have at most 100 items",
      ],
      [{ managed_by: "x", hostnames: [], adopt: "yes" }, "adopt: must be a boolean"],
      [{ managed_by: "x", hostnames: [], extra: 1 }, "extra: unknown field"],
    ];
    for (const [body, message] of cases)
      expectError(await h.api("PUT", `/link/tunnels/${t.id}/hostnames`, body), 400, "validation_error", message);
    expectError(
      await h.api("PUT", "/link/tunnels/999999/hostnames", { managed_by: "x", hostnames: ["bad host"] }),
      400,
      "validation_error",
    );
    expectError(
      await h.api("PUT", "/link/tunnels/999999/hostnames", { managed_by: "x", hostnames: [] }),
      404,
      "not_found",
    );
    expectError(
      await ro("PUT", `/link/tunnels/${t.id}/hostnames`, { managed_by: "x", hostnames: [] }),
      403,
      "forbidden",
    );
  });
});

describe("deleting a tunnel", () => {
  it("deletes the sites its lists made and points the others back at their own origin", async () => {
    const t = await newTunnel();
    const adopted = (await h.api("POST", "/cdn/sites", { hostname: "adopted.tunnel-h.example", origin: "203.0.113.8" }))
      .body;
    const plain = (await h.api("POST", "/cdn/sites", { hostname: "plain.tunnel-h.example", origin: "203.0.113.9" }))
      .body;
    await h.api("PUT", `/cdn/sites/${plain.id}/origin`, { link_tunnel_id: t.id });
    const made = (
      await put(t.id, "pulumi", ["made.tunnel-h.example", "adopted.tunnel-h.example"], true)
    ).body.hostnames.find((x: any) => x.hostname === "made.tunnel-h.example");
    expect((await h.api("DELETE", `/link/tunnels/${t.id}`)).status).toBe(204);
    expectError(await h.api("GET", `/cdn/sites/${made.site_id}`), 404, "not_found");
    expect(await site(adopted.id)).toMatchObject({ link_tunnel_id: null, origin: "203.0.113.8" });
    expect(await site(plain.id)).toMatchObject({ link_tunnel_id: null, origin: "203.0.113.9" });
  });
});
