// Tunnels, their hostname lists and the landing-point lookup, driven through the built plugin
// binary over gRPC against a live emulator.
import { beforeAll, describe, expect, it } from "vitest";
import { isSecret, plain, secret } from "../helpers/plugin";
import { lifecycle } from "../helpers/lifecycle";
import { useProvider } from "../helpers/use-provider";

const TUNNEL = "nsp:link:Tunnel";
const HOSTNAMES = "nsp:link:TunnelHostnames";
const POPS = "nsp:link:getLinkPops";

type Obj = Record<string, unknown>;
type Site = { id: number; hostname: string; link_tunnel_id: number | null; pages_project_id: number | null; origin: string | null; target: string };

const token = `svc_${"7a11".repeat(8)}`;
const provider = useProvider({ emulator: { accounts: [{ name: "link", token }] } });
const { control, plugin, checked, previewSendsNothing, expectCheckFailures } = provider;
let pops: Array<{ id: number; code: string }>;
let ams: string;
let fra: string;
let iad: string;

beforeAll(async () => {
  pops = await control.list("/link/pops");
  [ams, fra, iad] = pops.map((p) => String(p.id)) as [string, string, string];
});

async function sites(): Promise<Map<string, Site>> {
  return new Map((await control.list<Site>("/cdn/sites")).map((s) => [s.hostname, s]));
}

let seq = 0;
async function newTunnel(): Promise<{ id: string; properties: Obj }> {
  return plugin.create(TUNNEL, "t", await checked(TUNNEL, { name: `tunnel-${++seq}`, localUrl: "http://localhost:8080", popId: ams }));
}

lifecycle(provider, [
  {
    type: TUNNEL,
    create: async () => ({ name: ` walk-${++seq} `, localUrl: "http://localhost:3000", popId: ams, popId2: fra }),
    unknownOutput: "credential",
    update: { name: "lab", localUrl: "https://localhost:8443" },
    apiPath: (_inputs, id) => `/link/tunnels/${id}`,
    drift: { body: { name: "drifted", local_url: "http://localhost:9001" }, inputs: { name: "drifted", localUrl: "http://localhost:9001" } },
    skip: {
      replace: "every input changes in place",
      bad: "in the test of its own below: its cases need the landing points the API lists",
    },
  },
  {
    type: TUNNEL,
    create: async () => ({ name: "  home lab ", localUrl: " http://localhost:3000 ", popId: ams, popId2: fra }),
    checkedAs: (given) => ({ name: "home lab", localUrl: "http://localhost:3000", popId: given.popId, popId2: given.popId2 }),
    unknownOutput: "credential",
    idPattern: /^\d+$/,
    outputs: { address: expect.stringMatching(/^100\.96\./) },
    // The one-time credential: the API never shows it again; refresh keeps it, still a secret.
    secretOutputs: { credential: /^lnk_[0-9a-f]{48}$/ },
    stableReads: true,
    update: [
      // Name, local URL and landing points patch in place, sending only what changed; the credential stays.
      { inputs: () => ({ name: "lab", localUrl: "https://localhost:8443", popId2: iad }), requests: { "PATCH /link/tunnels/:id": 1 } },
      // Dropping popId2 removes the second landing point.
      { inputs: { popId2: undefined }, detailed: { popId2: 2 /* DELETE */ }, outputs: { popId2: null }, apiObject: { pop_id2: null } },
      // The rotation trigger rotates the credential through POST /token, without replacing the tunnel.
      { inputs: { credentialRotation: "2026-01" }, requests: { "POST /link/tunnels/:id/token": 1 }, rotates: ["credential"] },
      // Rotation and a patch together: both.
      { inputs: { name: "lab-2", credentialRotation: 2 }, requests: { "PATCH /link/tunnels/:id": 1, "POST /link/tunnels/:id/token": 1 }, rotates: ["credential"] },
    ],
    // Inputs as the API holds them; no credential to show.
    imported: (inputs) => ({ name: "lab-2", localUrl: "https://localhost:8443", popId: inputs.popId }),
    importedOutputs: { credential: null },
    writeOnly: ["credentialRotation"],
    badImportIds: () => [["tunnel-1", /not a tunnel id.*<tunnelId>/]],
    apiPath: (_inputs, id) => `/link/tunnels/${id}`,
    skip: { replace: "every input changes in place", drift: "the row above", bad: "in the test of its own below" },
  },
  {
    type: HOSTNAMES,
    create: async () => ({ tunnelId: (await newTunnel()).id, hostnames: [`www.walk-${seq}.example`] }),
    unknownOutput: "sites",
    update: { hostnames: ["api.walk.example"] },
    replace: { managedBy: "ci" },
    apiPath: (inputs) => `/link/tunnels/${inputs.tunnelId}/hostnames`,
    importId: (inputs) => `${inputs.tunnelId}/pulumi`,
    bad: [
      [{ hostnames: ["a.example"] }, "tunnelId"],
      [{ tunnelId: "abc", hostnames: ["a.example"] }, "tunnelId"],
      [{ tunnelId: "1" }, "hostnames"],
      [{ tunnelId: "1", hostnames: ["not a host"] }, "hostnames[0]"],
      [{ tunnelId: "1", hostnames: ["*.example.com"] }, "hostnames[0]"],
      [{ tunnelId: "1", hostnames: ["a.example", "A.example."] }, "hostnames[1]"],
      [{ tunnelId: "1", hostnames: Array.from({ length: 101 }, (_, i) => `h${i}.example`) }, "hostnames"],
      [{ tunnelId: "1", hostnames: [], managedBy: "a/b" }, "managedBy"],
      [{ tunnelId: "1", hostnames: [], managedBy: "" }, "managedBy"],
      [{ tunnelId: "1", hostnames: [], adopt: "yes" }, "adopt"],
      [{ tunnelId: "1", hostnames: [], sites: [] }, "sites"],
    ],
    skip: {
      drift: "in the test of its own below, which also repoints and repairs hostnames changed outside",
      delete: "the list lives as long as its tunnel: a Read after the delete finds it empty, not gone; the walk below checks that the delete removes exactly its own sites",
    },
  },
]);

describe("nsp:link:Tunnel over gRPC", () => {
  it("sees changes made through the API, and the tunnel deleted", async () => {
    const inputs = await checked(TUNNEL, { name: "drift", localUrl: "http://localhost:9000", popId: ams });
    const t = await plugin.create(TUNNEL, "d", inputs);
    await control.patch(`/link/tunnels/${t.id}`, { name: "drifted", pop_id: Number(iad) });
    const read = await plugin.read(TUNNEL, "d", t.id, t.properties, inputs);
    expect(read.properties).toMatchObject({ name: "drifted", popId: iad });
    expect(read.inputs).toMatchObject({ name: "drifted", popId: iad });
    const d = await plugin.diff(TUNNEL, "d", t.id, read.properties, inputs, read.inputs);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    expect(d.diffs.sort()).toEqual(["name", "popId"]);

    // A rotation outside the program: the stored credential is kept (never empty), with a warning.
    const logs = plugin.engineLogs.length;
    await control.post(`/link/tunnels/${t.id}/token`, {});
    const afterRotation = await plugin.read(TUNNEL, "d", t.id, read.properties, inputs);
    expect(plain(afterRotation.properties.credential)).toBe(plain(t.properties.credential));
    expect(isSecret(afterRotation.properties.credential)).toBe(true);
    expect(plugin.engineLogs.slice(logs).join("\n")).toMatch(/rotated outside this program.*credentialRotation/);

    await control.delete(`/link/tunnels/${t.id}`);
    expect((await plugin.read(TUNNEL, "d", t.id, read.properties, inputs)).id).toBe("");
  });

  it("adopts a tunnel whose create answer was lost, and rotates to get its credential", async () => {
    const inputs = await checked(TUNNEL, { name: "lost-answer", localUrl: "http://localhost:7000", popId: fra });
    await control.resetStats();
    await control.setFaults({ rate: 1, kinds: ["reset_after"], methods: ["POST"], path: "/link/tunnels$", count: 1 });
    try {
      const created = await plugin.create(TUNNEL, "lost", inputs);
      expect((await control.stats()).byRoute).toMatchObject({ "POST /link/tunnels": 1, "GET /link/tunnels": 1, "POST /link/tunnels/:id/token": 1 });
      expect(isSecret(created.properties.credential)).toBe(true);
      expect(plain(created.properties.credential)).toMatch(/^lnk_/);
      expect((await control.list<{ name: string }>("/link/tunnels")).filter((t) => t.name === "lost-answer")).toHaveLength(1);
      await plugin.delete(TUNNEL, "lost", created.id, created.properties);
    } finally {
      await control.clearFaults();
    }
  });

  it("rejects bad input in Check, naming the property, before any request", async () => {
    const base = { name: "x", localUrl: "http://localhost", popId: ams };
    expect((await plugin.check(TUNNEL, "ok", base)).failures).toEqual([]);
    await expectCheckFailures(TUNNEL, [
      [{ localUrl: "http://localhost", popId: ams }, "name"],
      [{ ...base, name: "   " }, "name"],
      [{ ...base, name: "n".repeat(101) }, "name"],
      [{ ...base, localUrl: "localhost:8080" }, "localUrl"],
      [{ ...base, localUrl: "ftp://localhost" }, "localUrl"],
      [{ ...base, localUrl: "http://user:pw@localhost" }, "localUrl"],
      [{ ...base, popId: "ams" }, "popId"],
      [{ ...base, popId2: ams }, "popId2"],
      [{ ...base, credentialRotation: true }, "credentialRotation"],
      [{ ...base, credential: "x" }, "credential"],
    ]);
  });
});

describe("nsp:link:TunnelHostnames over gRPC", () => {
  it("walks a hostname list through its lifecycle: create, repoint, remove, replace, import, delete exactly its own", async () => {
    const t = await newTunnel();
    const inputs = await checked(HOSTNAMES, { tunnelId: t.id, hostnames: ["WWW.tun-a.example.", "api.tun-a.example"] });
    expect(inputs).toEqual({ tunnelId: t.id, managedBy: "pulumi", hostnames: ["api.tun-a.example", "www.tun-a.example"], adopt: false });
    await previewSendsNothing(HOSTNAMES, inputs, "sites");

    // Bystanders: another list on the same tunnel and a site of the account.
    await control.api("PUT", `/link/tunnels/${t.id}/hostnames`, { managed_by: "ci", hostnames: ["ci.tun-a.example"] });
    const bystander = await control.post<Site>("/cdn/sites", { hostname: "plain.tun-a.example", origin: "203.0.113.5" });

    await control.resetStats();
    const created = await plugin.create(HOSTNAMES, "h", inputs);
    expect((await control.stats()).byRoute).toEqual({ "PUT /link/tunnels/:id/hostnames": 1 });
    expect(created.id).toBe(`${t.id}/pulumi`);
    let live = await sites();
    expect(created.properties).toEqual({
      ...inputs,
      sites: ["api.tun-a.example", "www.tun-a.example"].map((h) => ({ hostname: h, siteId: String(live.get(h)!.id), target: live.get(h)!.target })),
    });
    for (const h of inputs.hostnames as string[]) expect(live.get(h)).toMatchObject({ link_tunnel_id: Number(t.id), origin: null });

    const read = await plugin.read(HOSTNAMES, "h", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect(read.inputs).toEqual(inputs);
    expect(await plugin.diff(HOSTNAMES, "h", created.id, read.properties, inputs, inputs)).toMatchObject({ changes: false, replaces: [] });

    // Update: one hostname goes (its site is deleted), one comes (a site is created).
    const wwwId = live.get("www.tun-a.example")!.id;
    const changed = await checked(HOSTNAMES, { tunnelId: t.id, hostnames: ["api.tun-a.example", "new.tun-a.example"] });
    const d = await plugin.diff(HOSTNAMES, "h", created.id, read.properties, changed, inputs);
    expect(d).toMatchObject({ changes: true, replaces: [], diffs: ["hostnames"] });
    const updated = await plugin.update(HOSTNAMES, "h", created.id, read.properties, changed, false, inputs);
    expect(updated.hostnames).toEqual(["api.tun-a.example", "new.tun-a.example"]);
    live = await sites();
    expect(live.has("www.tun-a.example")).toBe(false);
    expect(live.get("new.tun-a.example")).toMatchObject({ link_tunnel_id: Number(t.id) });
    expect((updated.sites as Obj[]).map((s) => s.siteId)).not.toContain(String(wwwId));

    // A new tunnel or list name replaces; the replacement deletes first unless it adopts the sites.
    const other = await newTunnel();
    const moved = await plugin.diff(HOSTNAMES, "h", created.id, updated, { ...changed, tunnelId: other.id }, changed);
    expect(moved).toMatchObject({ changes: true, replaces: ["tunnelId"], deleteBeforeReplace: true });
    const renamed = await plugin.diff(HOSTNAMES, "h", created.id, updated, { ...changed, managedBy: "web", adopt: true }, changed);
    expect(renamed).toMatchObject({ replaces: ["managedBy"], deleteBeforeReplace: false });

    // Import with <tunnelId>/<managedBy>; the default name is left out of the inputs.
    const imported = await plugin.read(HOSTNAMES, "imp", `${t.id}/pulumi`);
    expect(imported.id).toBe(`${t.id}/pulumi`);
    expect(imported.inputs).toEqual({ tunnelId: t.id, hostnames: ["api.tun-a.example", "new.tun-a.example"] });
    expect(imported.properties.sites).toEqual(updated.sites);
    const importChecked = await checked(HOSTNAMES, imported.inputs);
    expect((await plugin.diff(HOSTNAMES, "imp", imported.id, imported.properties, importChecked, imported.inputs)).changes).toBe(false);
    const ci = await plugin.read(HOSTNAMES, "ci", `${t.id}/ci`);
    expect(ci.inputs).toEqual({ tunnelId: t.id, managedBy: "ci", hostnames: ["ci.tun-a.example"] });
    // A name with no hostnames on the tunnel has nothing to import.
    expect((await plugin.read(HOSTNAMES, "none", `${t.id}/nothing`)).id).toBe("");
    await control.resetStats();
    await expect(plugin.read(HOSTNAMES, "imp", t.id)).rejects.toThrow(/<tunnelId>\/<managedBy>/);
    await expect(plugin.read(HOSTNAMES, "imp", `x/pulumi`)).rejects.toThrow(/not a tunnel id/);
    expect((await control.stats()).total).toBe(0);

    // Delete removes exactly this list's hostnames.
    await plugin.delete(HOSTNAMES, "h", created.id, updated);
    live = await sites();
    expect(live.has("api.tun-a.example") || live.has("new.tun-a.example")).toBe(false);
    expect(live.get("ci.tun-a.example")).toMatchObject({ link_tunnel_id: Number(t.id) });
    expect(live.get("plain.tun-a.example")).toMatchObject({ id: bystander.id, link_tunnel_id: null, origin: "203.0.113.5" });
    const gone = await plugin.read(HOSTNAMES, "h", created.id, updated, changed);
    expect(gone.properties.hostnames).toEqual([]);
    // Deleting again, or after the tunnel is gone, is fine.
    await plugin.delete(TUNNEL, "t", t.id, t.properties);
    await plugin.delete(HOSTNAMES, "h", created.id, updated);
    await plugin.delete(TUNNEL, "o", other.id, other.properties);
  });

  it("adopts existing sites only when told to", async () => {
    const t = await newTunnel();
    const existing = await control.post<Site>("/cdn/sites", { hostname: "own.tun-b.example", origin: "203.0.113.6" });
    const refused = await checked(HOSTNAMES, { tunnelId: t.id, hostnames: ["own.tun-b.example"] });
    await expect(plugin.create(HOSTNAMES, "h", refused)).rejects.toThrow(/conflict.*already an edge site.*adopt/s);
    const inputs = await checked(HOSTNAMES, { tunnelId: t.id, hostnames: ["own.tun-b.example"], adopt: true });
    const created = await plugin.create(HOSTNAMES, "h", inputs);
    expect(created.properties.sites).toEqual([{ hostname: "own.tun-b.example", siteId: String(existing.id), target: existing.target }]);
    const read = await plugin.read(HOSTNAMES, "h", created.id, created.properties, inputs);
    expect(read.properties.adopt).toBe(true);
    expect((await plugin.diff(HOSTNAMES, "h", created.id, read.properties, inputs, inputs)).changes).toBe(false);
    // An adopted site is let go, not deleted.
    await plugin.delete(HOSTNAMES, "h", created.id, read.properties);
    expect((await sites()).get("own.tun-b.example")).toMatchObject({ id: existing.id, link_tunnel_id: null, origin: "203.0.113.6" });
    await plugin.delete(TUNNEL, "t", t.id, t.properties);
  });

  it("sees hostnames added, removed and repointed outside the program on Read, and repairs them", async () => {
    const t = await newTunnel();
    const inputs = await checked(HOSTNAMES, { tunnelId: t.id, hostnames: ["a.tun-c.example", "b.tun-c.example"] });
    const created = await plugin.create(HOSTNAMES, "h", inputs);

    // Added through the API to the same list: it appears in the state and Diff says it must go.
    await control.api("PUT", `/link/tunnels/${t.id}/hostnames`, { managed_by: "pulumi", hostnames: ["a.tun-c.example", "b.tun-c.example", "extra.tun-c.example"] });
    const added = await plugin.read(HOSTNAMES, "h", created.id, created.properties, inputs);
    expect(added.properties.hostnames).toEqual(["a.tun-c.example", "b.tun-c.example", "extra.tun-c.example"]);
    const addDiff = await plugin.diff(HOSTNAMES, "h", created.id, added.properties, inputs, added.inputs);
    expect(addDiff).toMatchObject({ changes: true, diffs: ["hostnames"], replaces: [] });
    const fixed = await plugin.update(HOSTNAMES, "h", created.id, added.properties, inputs, false, added.inputs);
    expect(fixed.hostnames).toEqual(["a.tun-c.example", "b.tun-c.example"]);
    expect((await sites()).has("extra.tun-c.example")).toBe(false);

    // Removed through the edge-proxy API, and another repointed: both read as missing.
    const live = await sites();
    await control.delete(`/cdn/sites/${live.get("a.tun-c.example")!.id}`);
    await control.api("PUT", `/cdn/sites/${live.get("b.tun-c.example")!.id}/origin`, { pages_project_id: 9 });
    const removed = await plugin.read(HOSTNAMES, "h", created.id, fixed, inputs);
    expect(removed.properties.hostnames).toEqual([]);
    const remDiff = await plugin.diff(HOSTNAMES, "h", created.id, removed.properties, inputs, removed.inputs);
    expect(remDiff).toMatchObject({ changes: true, diffs: ["hostnames"] });
    const restored = await plugin.update(HOSTNAMES, "h", created.id, removed.properties, inputs, false, removed.inputs);
    expect(restored.hostnames).toEqual(["a.tun-c.example", "b.tun-c.example"]);
    const after = await sites();
    expect(after.get("a.tun-c.example")).toMatchObject({ link_tunnel_id: Number(t.id) });
    expect(after.get("b.tun-c.example")).toMatchObject({ id: live.get("b.tun-c.example")!.id, link_tunnel_id: Number(t.id), pages_project_id: null });
    expect((await plugin.diff(HOSTNAMES, "h", created.id, (await plugin.read(HOSTNAMES, "h", created.id, restored, inputs)).properties, inputs, inputs)).changes).toBe(false);

    // The tunnel deleted through the API: the list is gone.
    await control.delete(`/link/tunnels/${t.id}`);
    expect((await plugin.read(HOSTNAMES, "h", created.id, restored, inputs)).id).toBe("");
  });


});

describe("nsp:link:getLinkPops", () => {
  it("lists the landing points, or the one with a code", async () => {
    const all = await plugin.invoke(POPS, {});
    expect(all.failures).toEqual([]);
    expect(all.result.pops).toEqual(pops.map((p) => ({ ...p, id: String(p.id) })));
    const one = await plugin.invoke(POPS, { code: "FRA" });
    expect(one.result.pops).toEqual([{ id: fra, code: "fra", name: "Frankfurt", country: "DE" }]);
    await expect(plugin.invoke(POPS, { code: "xyz" })).rejects.toThrow(/no landing point with code "xyz" \(known: ams, fra, iad, sin\)/);
    expect((await plugin.invoke(POPS, { code: "" })).failures[0]?.property).toBe("code");
  });
});
