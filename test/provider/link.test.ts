// Tunnels, their hostname lists and the landing-point lookup, driven through the built plugin
// binary over gRPC against a live emulator.
import { beforeAll, describe, expect, it } from "vitest";
import { isSecret, plain } from "../helpers/plugin";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const TUNNEL = "nsp:link:Tunnel";
const HOSTNAMES = "nsp:link:TunnelHostnames";
const POPS = "nsp:link:getLinkPops";

type Obj = Record<string, unknown>;
type Site = {
  id: number;
  hostname: string;
  link_tunnel_id: number | null;
  pages_project_id: number | null;
  origin: string | null;
  target: string;
};

const provider = useProvider({ account: "link" });
const { control, plugin, checked, expectCheckFailures, createWithLostAnswer } = provider;
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
// The hostname list row's tunnel, another it is moved to, and a site of the account it must leave alone.
let walkTunnel: { id: string; properties: Obj };
let otherTunnel: { id: string; properties: Obj };
let bystander: Site;
let wwwSiteId: string;

async function newTunnel(): Promise<{ id: string; properties: Obj }> {
  return plugin.create(
    TUNNEL,
    "t",
    await checked(TUNNEL, { name: `tunnel-${++seq}`, localUrl: "http://localhost:8080", popId: ams }),
  );
}

lifecycle(provider, [
  {
    type: TUNNEL,
    create: async () => ({ name: ` walk-${++seq} `, localUrl: "http://localhost:3000", popId: ams, popId2: fra }),
    unknownOutput: "credential",
    update: { name: "lab", localUrl: "https://localhost:8443" },
    apiPath: (_inputs, id) => `/link/tunnels/${id}`,
    // Renamed, moved and rotated outside the program: the stored credential is kept (never empty), with a warning.
    drift: () => ({
      body: { name: "drifted", local_url: "http://localhost:9001", pop_id: Number(iad) },
      inputs: { name: "drifted", localUrl: "http://localhost:9001", popId: iad },
      also: [{ method: "POST", path: "/token", body: {} }],
      warning: /rotated outside this program.*credentialRotation/,
    }),
    skip: {
      replace: "every input changes in place",
      bad: "in the test of its own below: its cases need the landing points the API lists",
    },
  },
  {
    type: TUNNEL,
    create: async () => ({ name: "  home lab ", localUrl: " http://localhost:3000 ", popId: ams, popId2: fra }),
    checkedAs: (given) => ({
      name: "home lab",
      localUrl: "http://localhost:3000",
      popId: given.popId,
      popId2: given.popId2,
    }),
    unknownOutput: "credential",
    idPattern: /^\d+$/,
    outputs: { address: expect.stringMatching(/^100\.96\./) },
    // The one-time credential: the API never shows it again; refresh keeps it, still a secret.
    secretOutputs: { credential: /^lnk_[0-9a-f]{48}$/ },
    stableReads: true,
    update: [
      // Name, local URL and landing points patch in place, sending only what changed; the credential stays.
      {
        inputs: () => ({ name: "lab", localUrl: "https://localhost:8443", popId2: iad }),
        requests: { "PATCH /link/tunnels/:id": 1 },
      },
      // Dropping popId2 removes the second landing point.
      {
        inputs: { popId2: undefined },
        detailed: { popId2: 2 /* DELETE */ },
        outputs: { popId2: null },
        apiObject: { pop_id2: null },
      },
      // The rotation trigger rotates the credential through POST /token, without replacing the tunnel.
      {
        inputs: { credentialRotation: "2026-01" },
        requests: { "POST /link/tunnels/:id/token": 1 },
        rotates: ["credential"],
      },
      // Rotation and a patch together: both.
      {
        inputs: { name: "lab-2", credentialRotation: 2 },
        requests: { "PATCH /link/tunnels/:id": 1, "POST /link/tunnels/:id/token": 1 },
        rotates: ["credential"],
      },
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
    create: async () => {
      [walkTunnel, otherTunnel] = [await newTunnel(), await newTunnel()];
      // Bystanders: another list on the same tunnel and a site of the account.
      await control.api("PUT", `/link/tunnels/${walkTunnel.id}/hostnames`, {
        managed_by: "ci",
        hostnames: ["ci.tun-a.example"],
      });
      bystander = await control.post<Site>("/cdn/sites", { hostname: "plain.tun-a.example", origin: "203.0.113.5" });
      return { tunnelId: walkTunnel.id, hostnames: ["WWW.tun-a.example.", "api.tun-a.example"] };
    },
    checkedAs: (given) => ({
      tunnelId: given.tunnelId,
      managedBy: "pulumi",
      hostnames: ["api.tun-a.example", "www.tun-a.example"],
      adopt: false,
    }),
    unknownOutput: "sites",
    createRequests: { "PUT /link/tunnels/:id/hostnames": 1 },
    idPattern: (inputs) => `${inputs.tunnelId}/pulumi`,
    outputs: { sites: expect.any(Array) },
    exactOutputs: true,
    stableReads: true,
    afterCreate: async ({ inputs, state }) => {
      const live = await sites();
      expect(state.sites).toEqual(
        ["api.tun-a.example", "www.tun-a.example"].map((h) => ({
          hostname: h,
          siteId: String(live.get(h)!.id),
          target: live.get(h)!.target,
        })),
      );
      for (const h of inputs.hostnames as string[])
        expect(live.get(h)).toMatchObject({ link_tunnel_id: Number(inputs.tunnelId), origin: null });
      wwwSiteId = String(live.get("www.tun-a.example")!.id);
    },
    update: [
      {
        // One hostname goes (its site is deleted), one comes (a site is created).
        inputs: { hostnames: ["api.tun-a.example", "new.tun-a.example"] },
        after: async ({ inputs, state }) => {
          const live = await sites();
          expect(live.has("www.tun-a.example")).toBe(false);
          expect(live.get("new.tun-a.example")).toMatchObject({ link_tunnel_id: Number(inputs.tunnelId) });
          expect((state.sites as Obj[]).map((s) => s.siteId)).not.toContain(wwwSiteId);
        },
      },
    ],
    // A new tunnel or list name replaces; the replacement deletes first unless it adopts the sites.
    replace: [
      { inputs: () => ({ tunnelId: otherTunnel.id }), deleteBeforeReplace: true },
      { inputs: { managedBy: "web", adopt: true }, replaces: ["managedBy"], deleteBeforeReplace: false },
    ],
    apiPath: (inputs) => `/link/tunnels/${inputs.tunnelId}/hostnames`,
    // Import with <tunnelId>/<managedBy>; the default name is left out of the inputs.
    importId: (inputs) => `${inputs.tunnelId}/pulumi`,
    imported: (inputs) => ({ tunnelId: inputs.tunnelId, hostnames: inputs.hostnames }),
    importedOutputs: (state) => ({ sites: state.sites }),
    // A name with no hostnames on the tunnel has nothing to import.
    moreImports: (inputs) => [
      [`${inputs.tunnelId}/ci`, { tunnelId: inputs.tunnelId, managedBy: "ci", hostnames: ["ci.tun-a.example"] }],
      [`${inputs.tunnelId}/nothing`, null],
    ],
    badImportIds: (inputs) => [
      [inputs.tunnelId, /<tunnelId>\/<managedBy>/],
      ["x/pulumi", /"x\/pulumi" is not a tunnel hostname list id; .* \(<tunnelId>\/<managedBy>, such as 12\/pulumi\)/],
    ],
    readAfterDelete: { hostnames: [] },
    afterDelete: async ({ id, inputs, state }) => {
      // Exactly this list's hostnames go.
      const live = await sites();
      expect(live.has("api.tun-a.example") || live.has("new.tun-a.example")).toBe(false);
      expect(live.get("ci.tun-a.example")).toMatchObject({ link_tunnel_id: Number(inputs.tunnelId) });
      expect(live.get("plain.tun-a.example")).toMatchObject({
        id: bystander.id,
        link_tunnel_id: null,
        origin: "203.0.113.5",
      });
      // Deleting again after the tunnel is gone is fine.
      await plugin.delete(TUNNEL, "t", walkTunnel.id, walkTunnel.properties);
      await plugin.delete(HOSTNAMES, "h", id, state);
      await plugin.delete(TUNNEL, "o", otherTunnel.id, otherTunnel.properties);
    },
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
      delete: "the list lives as long as its tunnel: a Read after the delete finds it empty, not gone",
    },
  },
]);

describe("nsp:link:Tunnel over gRPC", () => {
  it("adopts a tunnel whose create answer was lost, and rotates to get its credential", async () => {
    const inputs = await checked(TUNNEL, { name: "lost-answer", localUrl: "http://localhost:7000", popId: fra });
    const created = await createWithLostAnswer(TUNNEL, "lost", inputs, "/link/tunnels");
    expect(created.byRoute).toMatchObject({
      "POST /link/tunnels": 1,
      "GET /link/tunnels": 1,
      "POST /link/tunnels/:id/token": 1,
    });
    expect(isSecret(created.properties.credential)).toBe(true);
    expect(plain(created.properties.credential)).toMatch(/^lnk_/);
    expect(
      (await control.list<{ name: string }>("/link/tunnels")).filter((t) => t.name === "lost-answer"),
    ).toHaveLength(1);
    await plugin.delete(TUNNEL, "lost", created.id, created.properties);
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
  it("adopts existing sites only when told to", async () => {
    const t = await newTunnel();
    const existing = await control.post<Site>("/cdn/sites", { hostname: "own.tun-b.example", origin: "203.0.113.6" });
    const refused = await checked(HOSTNAMES, { tunnelId: t.id, hostnames: ["own.tun-b.example"] });
    await expect(plugin.create(HOSTNAMES, "h", refused)).rejects.toThrow(/conflict.*already an edge site.*adopt/s);
    const inputs = await checked(HOSTNAMES, { tunnelId: t.id, hostnames: ["own.tun-b.example"], adopt: true });
    const created = await plugin.create(HOSTNAMES, "h", inputs);
    expect(created.properties.sites).toEqual([
      { hostname: "own.tun-b.example", siteId: String(existing.id), target: existing.target },
    ]);
    const read = await plugin.read(HOSTNAMES, "h", created.id, created.properties, inputs);
    expect(read.properties.adopt).toBe(true);
    expect((await plugin.diff(HOSTNAMES, "h", created.id, read.properties, inputs, inputs)).changes).toBe(false);
    // An adopted site is let go, not deleted.
    await plugin.delete(HOSTNAMES, "h", created.id, read.properties);
    expect((await sites()).get("own.tun-b.example")).toMatchObject({
      id: existing.id,
      link_tunnel_id: null,
      origin: "203.0.113.6",
    });
    await plugin.delete(TUNNEL, "t", t.id, t.properties);
  });

  it("sees hostnames added, removed and repointed outside the program on Read, and repairs them", async () => {
    const t = await newTunnel();
    const inputs = await checked(HOSTNAMES, { tunnelId: t.id, hostnames: ["a.tun-c.example", "b.tun-c.example"] });
    const created = await plugin.create(HOSTNAMES, "h", inputs);

    // Added through the API to the same list: it appears in the state and Diff says it must go.
    await control.api("PUT", `/link/tunnels/${t.id}/hostnames`, {
      managed_by: "pulumi",
      hostnames: ["a.tun-c.example", "b.tun-c.example", "extra.tun-c.example"],
    });
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
    expect(after.get("b.tun-c.example")).toMatchObject({
      id: live.get("b.tun-c.example")!.id,
      link_tunnel_id: Number(t.id),
      pages_project_id: null,
    });
    expect(
      (
        await plugin.diff(
          HOSTNAMES,
          "h",
          created.id,
          (
            await plugin.read(HOSTNAMES, "h", created.id, restored, inputs)
          ).properties,
          inputs,
          inputs,
        )
      ).changes,
    ).toBe(false);

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
    await expect(plugin.invoke(POPS, { code: "xyz" })).rejects.toThrow(
      /no landing point with code "xyz" \(known: ams, fra, iad, sin\)/,
    );
    expect((await plugin.invoke(POPS, { code: "" })).failures[0]?.property).toBe("code");
  });
});
