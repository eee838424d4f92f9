// forceDestroy over gRPC: every resource whose delete takes other objects with it refuses that
// delete (and a replacement that deletes first) while it holds objects the program does not
// manage, before any request that changes something, and deletes them with it once forceDestroy
// is set in place.
import { beforeAll, describe, expect, it } from "vitest";
import { resources, resourcesByToken } from "../../provider/src/modules/all-definitions";
import { heldListPath } from "../../provider/src/framework/engine/held-objects";
import { until } from "../helpers/until";
import { useProvider } from "../helpers/use-provider";

type Obj = Record<string, unknown>;

const provider = useProvider({ account: "force" });
const { control, plugin } = provider;
let dnsService = "";
let seq = 0;
const uniq = (base: string) => `${base}-${++seq}`;

beforeAll(async () => {
  dnsService = String((await control.services()).find((s) => s.type === "auth_dns")!.id);
});

/** The error of a gRPC call as the engine shows it, or undefined when the call succeeded. */
async function failure(call: Promise<unknown>): Promise<string | undefined> {
  return call.then(
    () => undefined,
    (e: { details?: string }) => String(e.details ?? e),
  );
}

async function exists(path: string): Promise<boolean> {
  return control.get(path).then(
    () => true,
    (e: Error) => {
      if (/not_found|404/.test(String(e))) return false;
      throw e;
    },
  );
}

/** An object's path, or its id in a list where the API has no GET of one. */
type Child = string | { list: string; id: unknown };

async function present(child: Child): Promise<boolean> {
  if (typeof child === "string") return exists(child);
  const items = await control.list<{ id: unknown }>(child.list).catch((e: Error) => {
    if (/not_found|404/.test(String(e))) return [];
    throw e;
  });
  return items.some((item) => String(item.id) === String(child.id));
}

interface Row {
  type: string;
  /** The parent's inputs (before Check). */
  inputs: () => Promise<Obj>;
  /** Makes objects through the API as a person would; returns where to find them. */
  handmade: (id: string) => Promise<Child[]>;
  /** What the refusal must say of them. */
  refusal: RegExp;
  parentPath: (id: string) => string;
}

const rows: Row[] = [
  {
    type: "nsp:dns:Zone",
    inputs: async () => ({ serviceId: dnsService, name: `${uniq("held")}.example` }),
    async handmade(id) {
      const record = await control.post<{ id: number }>(`/dns/zones/${id}/records`, {
        name: "handmade",
        type: "TXT",
        content: "by hand",
      });
      const rule = await control.post<{ id: number }>("/security/rules", {
        zone_id: Number(id),
        field: "country",
        op: "in",
        value: "NL",
        action: "block",
      });
      return [`/dns/zones/${id}/records/${record.id}`, { list: `/security/rules?zone_id=${id}`, id: rule.id }];
    },
    refusal:
      /still holds objects this program does not manage: 1 record \("handmade TXT"\); 1 security rule \("block country in NL"\)/,
    parentPath: (id) => `/dns/zones/${id}`,
  },
  {
    type: "nsp:mail:Domain",
    async inputs() {
      const zone = await control.post<{ id: number; name: string }>("/dns/zones", {
        service_id: Number(dnsService),
        name: `${uniq("mail")}.example`,
      });
      return { zoneId: String(zone.id), name: zone.name };
    },
    async handmade(id) {
      const box = await control.post<{ id: string }>(`/mail/domains/${id}/mailboxes`, {
        domain_id: Number(id),
        local: "bob",
      });
      await control.post(`/mail/domains/${id}/rules`, { kind: "reject_sender", pattern: "spam@example.net" });
      return [{ list: `/mail/domains/${id}/mailboxes`, id: box.id }];
    },
    refusal: /1 mailbox \("bob@mail-\d+\.example"\); 1 domain rule \("reject_sender spam@example\.net"\)/,
    parentPath: (id) => `/mail/domains/${id}`,
  },
  {
    type: "nsp:vgate:Pbx",
    // The template's three extensions and ring group are what the program asked for: not counted.
    inputs: async () => ({ name: uniq("office"), template: "small-office" }),
    async handmade(id) {
      const ext = await control.post<{ id: string }>(`/vgate/pbx/${id}/extensions`, {
        number: "150",
        name: "Handmade",
      });
      return [`/vgate/pbx/${id}/extensions/${ext.id}`];
    },
    refusal: /still holds objects this program does not manage: 1 extension \("150 Handmade"\)\./,
    parentPath: (id) => `/vgate/pbx/${id}`,
  },
  {
    type: "nsp:rpki:Ca",
    inputs: async () => ({ handle: uniq("ca"), asns: [64500] }),
    async handmade(id) {
      await control.post(`/rpki/cas/${id}/roas`, { asn: 64500, prefix: "192.0.2.0/24" });
      return [];
    },
    refusal: /still holds objects this program does not manage: 1 ROA \("192\.0\.2\.0\/24 AS64500"\)\./,
    parentPath: (id) => `/rpki/cas/${id}`,
  },
  {
    type: "nsp:cdn:Site",
    inputs: async () => ({ hostname: `${uniq("shop")}.customer.example`, origin: "192.0.2.80" }),
    async handmade(id) {
      const rule = await control.post<{ id: number }>("/security/rules", {
        site_id: Number(id),
        field: "asn",
        op: "in",
        value: "64496",
        action: "challenge",
      });
      return [{ list: `/security/rules?site_id=${id}`, id: rule.id }];
    },
    refusal: /still holds objects this program does not manage: 1 security rule \("challenge asn in 64496"\)\./,
    parentPath: (id) => `/cdn/sites/${id}`,
  },
];

describe.each(rows)("$type with objects the program does not manage", (row) => {
  it(
    "refuses the delete before any change, naming forceDestroy and them; deletes with them once " +
      "forceDestroy is set in place",
    async () => {
      const name = uniq("parent");
      const inputs = (await plugin.check(row.type, name, await row.inputs())).inputs;
      expect(inputs.forceDestroy).toBe(false);
      const created = await plugin.create(row.type, name, inputs);
      expect(created.properties.forceDestroy).toBe(false);
      const children = await row.handmade(created.id);

      await control.resetStats();
      const refused = await failure(plugin.delete(row.type, name, created.id, created.properties));
      expect(refused).toMatch(row.refusal);
      // What is true after a destroy, whose engine deleted the program's own children first.
      expect(refused).toMatch(
        /so the (zone|mail domain|PBX|CA|site) and those objects were kept; the program's own objects in it may already be deleted \(the engine deletes them before the \1\)\./,
      );
      expect(refused).toMatch(
        /set `forceDestroy: true` on it and run `pulumi up` \(an update in place; that `up` also creates again the program's own objects in it that were deleted\), then delete again/,
      );
      expect(refused).not.toMatch(/nothing was deleted/);
      expect((await control.stats()).mutating).toBe(0);
      expect(await exists(row.parentPath(created.id))).toBe(true);
      for (const child of children) expect(await present(child)).toBe(true);

      // forceDestroy changes in place, and the change sends nothing.
      const news = (await plugin.check(row.type, name, { ...inputs, forceDestroy: true }, inputs)).inputs;
      const d = await plugin.diff(row.type, name, created.id, created.properties, news, inputs);
      expect(d).toMatchObject({ changes: true, diffs: ["forceDestroy"], replaces: [] });
      await control.resetStats();
      const updated = await plugin.update(row.type, name, created.id, created.properties, news, false, inputs);
      expect((await control.stats()).total).toBe(0);
      expect(updated.forceDestroy).toBe(true);

      await plugin.delete(row.type, name, created.id, updated);
      expect(await exists(row.parentPath(created.id))).toBe(false);
      for (const child of children) expect(await present(child)).toBe(false);
    },
  );
});

describe("nsp:dns:Zone", () => {
  const ZONE = "nsp:dns:Zone";

  async function zone(name = `${uniq("z")}.example`, extra: Obj = {}) {
    const inputs = (await plugin.check(ZONE, name, { serviceId: dnsService, name, ...extra })).inputs;
    return { inputs, created: await plugin.create(ZONE, name, inputs) };
  }

  it("is deleted without forceDestroy when it holds only its own records: the SOA, apex NS and what its mail domains publish", async () => {
    const { created } = await zone();
    // A mail domain made by hand publishes MX, SPF, DKIM, DMARC and TLS-policy records into it.
    await control.post("/mail/domains", { zone_id: Number(created.id), name: created.properties.name });
    expect((await control.list(`/dns/zones/${created.id}/records`)).length).toBeGreaterThan(0);
    await control.resetStats();
    await plugin.delete(ZONE, "z", created.id, created.properties);
    const stats = await control.stats();
    expect(stats.byRoute).toEqual({
      "GET /mail/domains": 1,
      "GET /dns/zones/:id/records": 1,
      "GET /security/rules": 1,
      "GET /dns/zones/:id/ranges": 1,
      "DELETE /dns/zones/:id": 1,
    });
    expect(await exists(`/dns/zones/${created.id}`)).toBe(false);
  });

  it("with forceDestroy deletes in one request, whatever it holds", async () => {
    const { created } = await zone(undefined, { forceDestroy: true });
    await control.post(`/dns/zones/${created.id}/records`, { name: "handmade", type: "TXT", content: "by hand" });
    await control.resetStats();
    await plugin.delete(ZONE, "z", created.id, created.properties);
    expect((await control.stats()).byRoute).toEqual({ "DELETE /dns/zones/:id": 1 });
  });

  it("counts every record in pages and names the first five", async () => {
    const { created } = await zone();
    for (let i = 0; i < 7; i++)
      await control.post(`/dns/zones/${created.id}/records`, { name: `h${i}`, type: "A", content: `192.0.2.${i + 1}` });
    const refused = await failure(plugin.delete(ZONE, "z", created.id, created.properties));
    expect(refused).toMatch(/7 records \("h0 A", "h1 A", "h2 A", "h3 A", "h4 A", and 2 more\)/);
    await plugin.delete(ZONE, "z", created.id, { ...created.properties, forceDestroy: true });
  });

  it(
    "refuses in Diff a replacement that deletes first while it holds anything, before any change; with " +
      "forceDestroy in the state it goes ahead",
    async () => {
      const { inputs, created } = await zone();
      await control.post(`/dns/zones/${created.id}/records`, { name: "handmade", type: "TXT", content: "by hand" });
      // The same name in another mode: the API cannot change a mode, and the name is taken until the delete.
      const hosted = (await plugin.check(ZONE, "z", { ...inputs, mode: "host" }, inputs)).inputs;
      await control.resetStats();
      const refused = await failure(plugin.diff(ZONE, "z", created.id, created.properties, hosted, inputs));
      expect(refused).toMatch(
        /must be deleted before its replacement is created, and it holds 1 record \("handmade TXT"\)\..*`forceDestroy: true`/,
      );
      expect((await control.stats()).mutating).toBe(0);
      // Setting the flag in the same change does not count: the old zone's state is what is deleted.
      const both = (await plugin.check(ZONE, "z", { ...inputs, mode: "host", forceDestroy: true }, inputs)).inputs;
      expect(await failure(plugin.diff(ZONE, "z", created.id, created.properties, both, inputs))).toMatch(
        /forceDestroy/,
      );
      const forced = { ...created.properties, forceDestroy: true };
      const d = await plugin.diff(ZONE, "z", created.id, forced, both, { ...inputs, forceDestroy: true });
      expect(d).toMatchObject({ replaces: ["mode"], deleteBeforeReplace: true });
      // A replacement that creates first deletes the old zone last, by the delete's own check.
      const renamed = (await plugin.check(ZONE, "z", { ...inputs, name: `${uniq("other")}.example` }, inputs)).inputs;
      expect(await plugin.diff(ZONE, "z", created.id, created.properties, renamed, inputs)).toMatchObject({
        replaces: ["name"],
        deleteBeforeReplace: false,
      });
      expect(await exists(`/dns/zones/${created.id}`)).toBe(true);
      await plugin.delete(ZONE, "z", created.id, forced);
    },
  );

  it("reads a state written by 0.2.0, without forceDestroy, as false: no diff, and the delete is checked", async () => {
    const { inputs, created } = await zone();
    const { forceDestroy: _state, ...oldState } = created.properties;
    const { forceDestroy: _input, ...oldInputs } = inputs;
    expect(await plugin.diff(ZONE, "z", created.id, oldState, inputs, oldInputs)).toMatchObject({
      changes: false,
      diffs: [],
    });
    const refreshed = await plugin.read(ZONE, "z", created.id, oldState, oldInputs);
    expect(refreshed.inputs).toEqual(oldInputs);
    await control.post(`/dns/zones/${created.id}/records`, { name: "handmade", type: "TXT", content: "by hand" });
    expect(await failure(plugin.delete(ZONE, "z", created.id, oldState))).toMatch(/forceDestroy/);
    await plugin.delete(ZONE, "z", created.id, { ...oldState, forceDestroy: true });
  });

  it(
    "waits for a delete in flight of a record it holds (the engine sends both at once when the program " +
      "names the zone by a literal id), then is deleted without forceDestroy",
    async () => {
      const RECORD = "nsp:dns:Record";
      const { created } = await zone();
      const recordInputs = (
        await plugin.check(RECORD, "adopted", { zoneId: created.id, name: "adopted", type: "A", content: "192.0.2.7" })
      ).inputs;
      const record = await plugin.create(RECORD, "adopted", recordInputs);
      const ended: string[] = [];
      // The record's DELETE is held on the wire until the test lets it go.
      await control.setFaults({
        rate: 1,
        kinds: ["latency"],
        latencyMs: 600_000,
        methods: ["DELETE"],
        path: "/records/",
      });
      try {
        const recordDeleted = plugin
          .delete(RECORD, "adopted", record.id, record.properties)
          .then(() => ended.push("record"));
        await until(async () => (await control.stats()).byRoute["DELETE /dns/zones/:id/records/:rid"] === 1);
        const logged = plugin.engineLogs.length;
        const zoneDeleted = plugin.delete(ZONE, "z", created.id, created.properties).then(
          () => ended.push("zone"),
          (e: { details?: string }) => ended.push(`zone refused: ${String(e.details ?? e)}`),
        );
        await until(
          () =>
            ended.length > 0 ||
            plugin.engineLogs
              .slice(logged)
              .some((line) => line.includes("waiting for 1 delete in flight of what the zone holds")),
        );
        expect(ended).toEqual([]);
        expect(await exists(`/dns/zones/${created.id}`)).toBe(true);

        const release = await fetch(`${control.root}/_emulator/faults/release`, { method: "POST" });
        expect(release.ok).toBe(true);
        await Promise.all([recordDeleted, zoneDeleted]);
        expect(ended).toEqual(["record", "zone"]);
        expect(await exists(`/dns/zones/${created.id}`)).toBe(false);
      } finally {
        await control.clearFaults();
      }
    },
  );
});

describe("the kinds a parent holds", () => {
  // A parent's delete waits for the deletes in flight of the kinds it holds; that cannot deadlock
  // as long as those kinds hold nothing themselves.
  it("hold nothing themselves, are resources of the provider, and have a list under the parent", () => {
    const holders = resources.filter((def) => def.holds);
    expect(holders.map((def) => def.token).sort()).toEqual([
      "nsp:cdn:Site",
      "nsp:dns:Zone",
      "nsp:mail:Domain",
      "nsp:rpki:Ca",
      "nsp:vgate:Pbx",
    ]);
    for (const parent of holders) {
      for (const kind of parent.holds!.kinds) {
        for (const token of [kind.of.token, ...(kind.alsoDeletedBy ?? [])]) {
          const child = resourcesByToken.get(token);
          expect(child, `${parent.token} holds ${token}`).toBeDefined();
          expect(child!.holds, `${token}, held by ${parent.token}, holds nothing`).toBeUndefined();
        }
        expect(heldListPath(kind, "7"), `${parent.token}'s list of ${kind.names[1]}`).toMatch(/^\/[a-z]/);
      }
    }
  });
});
