// The registry-database link, domain objects and the discovery functions, driven through the
// built plugin binary over gRPC against a live emulator.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isSecret, plain, secret } from "../helpers/plugin";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const LINK = "nsp:registry:Link";
const DOMAIN = "nsp:registry:Domain";
const RESOURCES = "nsp:registry:getRegistryResources";
const PLAN = "nsp:registry:getRpkiPlan";
const SECRET = "registry-key-secret-0001";
const SECRET2 = "registry-key-secret-0002";
const NS = ["ns1.nsp-emulator.test", "ns2.nsp-emulator.test"];
const DS = "12345 13 2 ABCDEF0123456789ABCDEF0123456789";

type Obj = Record<string, unknown>;

const token = `svc_${"4e61".repeat(8)}`;
const linkToken = `svc_${"4e62".repeat(8)}`;
const provider = useProvider({
  emulator: {
    accounts: [
      { name: "regtest", token },
      { name: "regtest", token: linkToken, scope: "link" },
    ],
  },
});
const { control, plugin, anotherPlugin, checked, previewSendsNothing } = provider;

const linkInputs = () => checked(LINK, { keyId: "key-1", keySecret: secret(SECRET), mntner: " example-mnt " });

describe("nsp:registry:Link over gRPC", () => {
  it("links, keeps the key secret as a write-only secret, relinks in place, unlinks", async () => {
    const inputs = await linkInputs();
    expect(inputs.mntner).toBe("EXAMPLE-MNT");
    expect(isSecret(inputs.keySecret)).toBe(true);
    await previewSendsNothing(LINK, inputs, "verifiedAt");

    await control.resetStats();
    const created = await plugin.create(LINK, "l", inputs);
    expect((await control.stats()).byRoute).toEqual({ "PUT /registry/link": 1 });
    expect(created.id).toBe("link");
    expect(created.properties).toMatchObject({ keyId: "key-1", mntner: "EXAMPLE-MNT", syncedAt: null });
    expect(isSecret(created.properties.keySecret)).toBe(true);
    expect(plain(created.properties.keySecret)).toBe(SECRET);
    expect(JSON.stringify(await control.get("/registry/link"))).not.toContain(SECRET);

    // The API never shows the key again; a refresh keeps it, still a secret.
    const read = await plugin.read(LINK, "l", "link", created.properties, inputs);
    expect(isSecret(read.properties.keySecret)).toBe(true);
    expect(plain(read.properties.keySecret)).toBe(SECRET);
    expect(read.properties).toEqual(created.properties);
    expect(await plugin.diff(LINK, "l", "link", read.properties, inputs, inputs)).toMatchObject({ changes: false });

    // A new key, key id or maintainer is a PUT of the whole link, in place.
    const rotated = await checked(LINK, { keyId: "key-2", keySecret: secret(SECRET2), mntner: "EXAMPLE-MNT" });
    const d = await plugin.diff(LINK, "l", "link", read.properties, rotated, inputs);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    expect(d.diffs.sort()).toEqual(["keyId", "keySecret"]);
    await control.resetStats();
    const updated = await plugin.update(LINK, "l", "link", read.properties, rotated, false, inputs);
    expect((await control.stats()).byRoute).toEqual({ "PUT /registry/link": 1 });
    expect(updated).toMatchObject({ keyId: "key-2" });
    expect(plain(updated.keySecret)).toBe(SECRET2);
    expect(isSecret(updated.keySecret)).toBe(true);

    // Import with the singleton id: the key is unknown to the stack, so the first up sends it once.
    const imported = await plugin.read(LINK, "imp", "link");
    expect(imported.inputs).toEqual({ keyId: "key-2", mntner: "EXAMPLE-MNT" });
    const importChecked = await checked(LINK, { ...imported.inputs, keySecret: secret(SECRET2) });
    const importDiff = await plugin.diff(LINK, "imp", "link", imported.properties, importChecked, imported.inputs);
    expect(importDiff).toMatchObject({ changes: true, replaces: [], diffs: ["keySecret"] });
    const afterImport = await plugin.update(
      LINK,
      "imp",
      "link",
      imported.properties,
      importChecked,
      false,
      imported.inputs,
    );
    const importRead = await plugin.read(LINK, "imp", "link", afterImport, importChecked);
    expect(
      (await plugin.diff(LINK, "imp", "link", importRead.properties, importChecked, importRead.inputs)).changes,
    ).toBe(false);
    await expect(plugin.read(LINK, "imp", "1")).rejects.toThrow(/must be "link"/);

    await plugin.delete(LINK, "l", "link", updated);
    expect((await control.get("/registry/link")).linked).toBe(false);
    expect((await plugin.read(LINK, "l", "link", updated, rotated)).id).toBe("");
    await plugin.delete(LINK, "l", "link", updated);
  });

  it("reports a key the registry refuses, and works with a link-scope token", async () => {
    await expect(
      plugin.create(
        LINK,
        "bad",
        await checked(LINK, { keyId: "k", keySecret: secret("wrong-secret-long-enough"), mntner: "EXAMPLE-MNT" }),
      ),
    ).rejects.toThrow(/key_secret: the registry database refused key k/);
    const p = await anotherPlugin({ apiToken: secret(linkToken) });
    const inputs = await linkInputs();
    const l = await p.create(LINK, "scoped", inputs);
    const d = await p.create(DOMAIN, "scoped", await checked(DOMAIN, { name: "2.0.192.in-addr.arpa", nserver: NS }));
    expect(d.id).toBe("2.0.192.in-addr.arpa");
    await p.delete(DOMAIN, "scoped", d.id, d.properties);
    await p.delete(LINK, "scoped", l.id, l.properties);
  });
});

lifecycle(provider, [
  {
    type: LINK,
    create: () => linkInputs(),
    unknownOutput: "verifiedAt",
    update: { keyId: "key-2", keySecret: secret(SECRET2) },
    apiPath: () => "/registry/link",
    exists: async () => (await control.get<{ linked: boolean }>("/registry/link")).linked,
    drift: {
      method: "PUT",
      body: { key_id: "other-key", key_secret: SECRET2, mntner: "EXAMPLE-MNT" },
      inputs: { keyId: "other-key" },
    },
    bad: [
      [{ keyId: "k", mntner: "EXAMPLE-MNT" }, "keySecret"],
      [{ keyId: "k", keySecret: secret(""), mntner: "EXAMPLE-MNT" }, "keySecret"],
      [{ keyId: "k", keySecret: secret(SECRET), mntner: "EXAMPLE" }, "mntner"],
      [{ keyId: "bad id", keySecret: secret(SECRET), mntner: "EXAMPLE-MNT" }, "keyId"],
    ],
    skip: {
      replace: "every input changes in place (a PUT of the whole link)",
      import: "the key secret is required and write-only: an import takes it from the program, in the walk above",
    },
  },
]);

describe("nsp:registry:Domain over gRPC", () => {
  let linked: { id: string; properties: Obj };
  beforeAll(async () => {
    linked = await plugin.create(LINK, "for-domains", await linkInputs());
  });
  afterAll(async () => {
    await plugin.delete(LINK, "for-domains", linked.id, linked.properties);
  });

  it("takes over a domain object's delegation, changes it in place, deletes it", async () => {
    const inputs = await checked(DOMAIN, {
      name: "2.0.192.IN-ADDR.ARPA.",
      nserver: ["NS1.nsp-emulator.test.", "ns2.nsp-emulator.test"],
    });
    expect(inputs).toEqual({ name: "2.0.192.in-addr.arpa", nserver: NS, dsRdata: [] });
    await previewSendsNothing(DOMAIN, inputs, "updatedAt");

    await control.resetStats();
    const created = await plugin.create(DOMAIN, "d", inputs);
    expect((await control.stats()).byRoute).toEqual({ "PUT /registry/domains/{name}": 1 });
    expect(created.id).toBe("2.0.192.in-addr.arpa");
    expect(created.properties).toMatchObject({ ...inputs, mntner: "EXAMPLE-MNT" });

    const read = await plugin.read(DOMAIN, "d", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect(await plugin.diff(DOMAIN, "d", created.id, read.properties, inputs, inputs)).toMatchObject({
      changes: false,
    });

    const signed = await checked(DOMAIN, { ...inputs, dsRdata: ["12345  13 2 ABCDEF0123456789ABCDEF0123456789"] });
    expect(signed.dsRdata).toEqual([DS]);
    expect(await plugin.diff(DOMAIN, "d", created.id, read.properties, signed, inputs)).toMatchObject({
      changes: true,
      replaces: [],
      diffs: ["dsRdata"],
    });
    await control.resetStats();
    const updated = await plugin.update(DOMAIN, "d", created.id, read.properties, signed, false, inputs);
    expect((await control.stats()).byRoute).toEqual({ "PUT /registry/domains/{name}": 1 });
    expect(updated.dsRdata).toEqual([DS]);

    const moved = await checked(DOMAIN, { ...signed, name: "100.51.198.in-addr.arpa" });
    expect(await plugin.diff(DOMAIN, "d", created.id, updated, moved, signed)).toMatchObject({
      changes: true,
      replaces: ["name"],
    });

    await plugin.delete(DOMAIN, "d", created.id, updated);
    expect((await plugin.read(DOMAIN, "d", created.id, updated, signed)).id).toBe("");
    await plugin.delete(DOMAIN, "d", created.id, updated);
  });

  it("imports a domain object the registry already holds", async () => {
    const imported = await plugin.read(DOMAIN, "imp", "100.51.198.in-addr.arpa");
    expect(imported.inputs).toEqual({
      name: "100.51.198.in-addr.arpa",
      nserver: ["ns1.previous-dns.example", "ns2.previous-dns.example"],
    });
    const importChecked = await checked(DOMAIN, imported.inputs);
    expect(
      (await plugin.diff(DOMAIN, "imp", imported.id, imported.properties, importChecked, imported.inputs)).changes,
    ).toBe(false);
    await expect(plugin.read(DOMAIN, "imp", "example.com")).rejects.toThrow(/not a reverse domain/);
    await expect(plugin.read(DOMAIN, "imp", "2.0.192.in-addr.arpa.")).rejects.toThrow(/not a reverse domain/);
  });

  it("reports a domain object the maintainer does not control", async () => {
    await expect(
      plugin.create(DOMAIN, "x", await checked(DOMAIN, { name: "10.in-addr.arpa", nserver: NS })),
    ).rejects.toThrow(/does not control the domain object 10.in-addr.arpa/);
  });

  // The domain rows need the link made in beforeAll.
  lifecycle(provider, [
    {
      type: DOMAIN,
      create: { name: "2.0.192.in-addr.arpa", nserver: NS },
      unknownOutput: "updatedAt",
      update: { dsRdata: [DS] },
      replace: { name: "100.51.198.in-addr.arpa" },
      apiPath: (_inputs, id) => `/registry/domains/${id}`,
      exists: async (_inputs, id) =>
        (await control.list<{ name: string }>("/registry/domains")).some((d) => d.name === id),
      drift: { method: "PUT", body: { nserver: ["ns1.example.net"] }, inputs: { nserver: ["ns1.example.net"] } },
      bad: [
        [{ nserver: NS }, "name"],
        [{ name: "example.com" }, "name"],
        [{ name: "2.0.192.in-addr.arpa", nserver: ["not a host"] }, "nserver[0]"],
        [{ name: "2.0.192.in-addr.arpa", nserver: ["a.example", "a.example"] }, "nserver"],
        [{ name: "2.0.192.in-addr.arpa", nserver: NS, dsRdata: ["junk"] }, "dsRdata[0]"],
        [{ name: "2.0.192.in-addr.arpa", dsRdata: [DS] }, "dsRdata"],
      ],
    },
  ]);
});

describe("registry functions over gRPC", () => {
  it("return discovered resources and the ROA plan", async () => {
    const l = await plugin.create(LINK, "fn", await linkInputs());
    await control.post("/registry/sync", {});
    const res = await plugin.invoke(RESOURCES, {});
    expect(res.failures).toEqual([]);
    expect(res.result).toMatchObject({
      mntner: "EXAMPLE-MNT",
      asns: [64500, 64501],
      organisations: [{ handle: "ORG-EXAMPLE1-RIPE", name: "EXAMPLE Networks" }],
    });
    // The tests above deleted the domain object of 192.0.2.0/24; 198.51.100.0/24 keeps the registry's.
    expect((res.result.blocks as Obj[])[0]).toMatchObject({
      prefix: "192.0.2.0/24",
      rdns: { status: "not_hosted", nserver: [] },
    });
    expect((res.result.blocks as Obj[])[1]).toEqual({
      prefix: "198.51.100.0/24",
      rdns: {
        zone: "100.51.198.in-addr.arpa",
        zoneId: null,
        status: "not_hosted",
        nserver: ["ns1.previous-dns.example", "ns2.previous-dns.example"],
      },
    });
    const plan = await plugin.invoke(PLAN, {});
    expect(plan.failures).toEqual([]);
    expect((plan.result.suggestions as Obj[])[0]).toEqual({
      asn: 64500,
      prefix: "192.0.2.0/24",
      maxLength: 24,
      covered: false,
    });
    expect((plan.result.steps as Obj[]).map((s) => s.step)).toEqual(["sync", "create_ca", "parent_response", "roas"]);
    await plugin.delete(LINK, "fn", l.id, l.properties);
    await expect(plugin.invoke(PLAN, {})).rejects.toThrow(/no registry link/);
  });

  it("check the link's maintainer when given mntner, naming the argument", async () => {
    const l = await plugin.create(LINK, "fn-mntner", await linkInputs());
    expect((await plugin.invoke(RESOURCES, { mntner: " example-mnt " })).result).toMatchObject({
      mntner: "EXAMPLE-MNT",
    });
    expect((await plugin.invoke(PLAN, { mntner: "EXAMPLE-MNT" })).failures).toEqual([]);
    await expect(plugin.invoke(RESOURCES, { mntner: "OTHER-MNT" })).rejects.toThrow(
      /mntner: the account's registry link is for EXAMPLE-MNT, not for OTHER-MNT/,
    );
    await plugin.delete(LINK, "fn-mntner", l.id, l.properties);
    await expect(plugin.invoke(PLAN, { mntner: "EXAMPLE-MNT" })).rejects.toThrow(
      /mntner: the account's registry link is missing, not for EXAMPLE-MNT/,
    );
  });
});
