// The same gRPC lifecycle of six resource families against the emulator's default answers and
// against each alternative answer to a point the API documents leave "not shown" (bare lists,
// 422 validation errors, an epoch X-RateLimit-Reset, epoch timestamps, bodiless 404s). The
// provider must behave identically in every mode. One emulator serves every mode; each mode gets
// its own account (a fresh rate-limit bucket, so the rate-limit headers are really exercised)
// and its own plugin processes (so the once-per-session base URL probe runs in each mode).
//
// One plugin process serves one pulumi command and serves the children of a parent from one list
// for that command, so a change made outside the program is seen by the next command. The reads
// after such changes therefore go to a second process, `refresher`, that reads each object with
// its own GET (batchReads off): a new list per read would need a new process per read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../helpers/emulator-control";
import { plain, secret, type PluginHandle } from "../helpers/plugin";
import { providerChecks } from "../helpers/provider-checks";
import { useProvider } from "../helpers/use-provider";

type Obj = Record<string, any>;

const MODES = [[], ["bare-lists"], ["status-422"], ["reset-epoch"], ["epoch-timestamps"], ["bodiless-404"]] as const;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

// Each mode below works in an account of its own, with plugins of its own.
const { emulator, anotherPlugin } = useProvider({
  emulator: { accounts: [{ name: "root" }], rateLimitPerMinute: 300 },
  plugin: false,
});
let plugin: PluginHandle;
let refresher: PluginHandle;
let control: EmulatorControl;
const started = Date.now();

afterAll(() => {
  process.stderr.write(
    `alternatives suite: ${((Date.now() - started) / 1000).toFixed(1)} s for ${MODES.length} modes\n`,
  );
});

const { checked, importClean } = providerChecks(() => ({ plugin, control }));

let seq = 0;
const uniq = (base: string) => `${base}${++seq}`;
const last = (id: string) => id.split("/").pop()!;

interface Family {
  type: string;
  /** Parents made through the API, and the inputs of one object of the family. */
  inputs(): Promise<Obj>;
  /** A change Update applies in place; undefined when every input replaces (ROA). */
  change?: Obj;
  importId(inputs: Obj, id: string): string;
  /** The object's API path, for drift made outside the program. */
  apiPath(inputs: Obj, id: string): string;
  /** Whether the API still has the object; by default a GET of apiPath that is not a 404. */
  exists?(inputs: Obj, id: string): Promise<boolean>;
  /** A patch made through the API, and what Read must then report. */
  drift?: { body: Obj; expect: Obj };
}

async function service(type: string): Promise<string> {
  return String((await control.services()).find((s) => s.type === type)!.id);
}

async function apiZone(): Promise<{ id: number; name: string }> {
  return control.post("/dns/zones", { service_id: Number(await service("auth_dns")), name: `${uniq("alt")}.example` });
}

const FAMILIES: Family[] = [
  {
    type: "nsp:dns:Zone",
    inputs: async () => ({ serviceId: await service("auth_dns"), name: `${uniq("zone")}.example` }),
    change: { negativeTtl: 900 },
    importId: (_i, id) => id,
    apiPath: (_i, id) => `/dns/zones/${id}`,
    drift: { body: { enabled: false }, expect: { enabled: false } },
  },
  {
    type: "nsp:dns:Record",
    inputs: async () => ({ zoneId: String((await apiZone()).id), name: "www", type: "A", content: "192.0.2.10" }),
    change: { ttl: 600 },
    importId: (i, id) => `${i.zoneId}/${last(id)}`,
    apiPath: (i, id) => `/dns/zones/${i.zoneId}/records/${last(id)}`,
    drift: { body: { content: "192.0.2.99" }, expect: { content: "192.0.2.99" } },
  },
  {
    type: "nsp:cdn:Site",
    inputs: async () => ({ hostname: `${uniq("www")}.cdn-alt.example`, origin: "203.0.113.20", cacheTtl: 300 }),
    change: { cacheTtl: 60 },
    importId: (_i, id) => id,
    apiPath: (_i, id) => `/cdn/sites/${id}`,
    drift: { body: { cache_ttl: 5 }, expect: { cacheTtl: 5 } },
  },
  {
    type: "nsp:rpki:Roa",
    inputs: async () => {
      const ca = await control.post<{ id: number }>("/rpki/cas", { handle: uniq("ca"), asns: [64500] });
      return { caId: String(ca.id), asn: 64500, prefix: "192.0.2.0/24" };
    },
    importId: (i, id) => `${i.caId}/${last(id)}`,
    apiPath: (i, id) => `/rpki/cas/${i.caId}/roas/${last(id)}`,
    // A ROA has no GET of its own; it is read from its CA's list.
    exists: async (i, id) => (await control.list(`/rpki/cas/${i.caId}/roas`)).some((r) => String(r.id) === last(id)),
  },
  {
    type: "nsp:mail:Mailbox",
    inputs: async () => {
      const zone = await apiZone();
      const domain = await control.post<{ id: number }>("/mail/domains", { zone_id: zone.id, name: zone.name });
      return { domainId: String(domain.id), local: "alice", display: "Alice" };
    },
    change: { display: "Alice Smith" },
    importId: (i, id) => `${i.domainId}/${last(id)}`,
    apiPath: (_i, id) => `/mail/mailboxes/${last(id)}`,
    // A mailbox has no GET of its own; it is read from its domain's list.
    exists: async (i, id) =>
      (await control.list(`/mail/domains/${i.domainId}/mailboxes`)).some((m) => m.id === last(id)),
    drift: { body: { display: "Drifted" }, expect: { display: "Drifted" } },
  },
  {
    type: "nsp:vgate:Extension",
    inputs: async () => ({
      pbxId: (await control.post<{ id: string }>("/vgate/pbx", { name: uniq("pbx") })).id,
      name: "Desk",
      passwordRotation: 1,
    }),
    change: { name: "Front desk" },
    importId: (i, id) => `${i.pbxId}/${last(id)}`,
    apiPath: (i, id) => `/vgate/pbx/${i.pbxId}/extensions/${last(id)}`,
    drift: { body: { name: "Drifted" }, expect: { name: "Drifted" } },
  },
];

/** What the lifecycle test does with a family: the API has no update and no patch of a ROA. */
function lifecycleSteps(f: Family): string {
  return [
    "create",
    "read",
    f.change ? "update" : "a changed input diffs as a replacement",
    "import",
    ...(f.drift ? ["drift"] : []),
    "deleted outside then read as gone",
    "delete",
  ].join(", ");
}

/** Properties as the engine compares them: secrets unwrapped. */
const unwrapped = (p: Obj): Obj => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, plain(v)]));

/** Every timestamp the provider stored is the ISO string, whatever form the API sent. */
function expectIsoTimestamps(p: Obj): void {
  const stamps = Object.entries(p).filter(([k, v]) => /At$/.test(k) && v !== null && v !== undefined);
  expect(stamps.length, JSON.stringify(p)).toBeGreaterThan(0);
  for (const [k, v] of stamps) expect(v, k).toMatch(ISO_MS);
}

async function apiHas(f: Family, inputs: Obj, id: string): Promise<boolean> {
  if (f.exists) return f.exists(inputs, id);
  return control.get(f.apiPath(inputs, id)).then(
    () => true,
    (e: Error) => {
      if (/: 404/.test(e.message)) return false;
      throw e;
    },
  );
}

describe.each(MODES.map((m) => [m.length ? m.join("+") : "default", m] as const))(
  "against the %s emulator",
  (_label, alternatives) => {
    beforeAll(async () => {
      await plugin?.stop();
      await refresher?.stop();
      const token = await new EmulatorControl(emulator.baseUrl, emulator.token).addAccount(uniq("mode"));
      control = new EmulatorControl(emulator.baseUrl, token);
      await control.setAlternatives(alternatives);
      [plugin, refresher] = await Promise.all([
        anotherPlugin({ apiToken: secret(token) }),
        anotherPlugin({ apiToken: secret(token), batchReads: false }),
      ]);
    });

    it("reports a refusal of the API by its error code, whatever the status", async () => {
      // Check cannot know the service's type; the API refuses it with a validation_error.
      const inputs = await checked("nsp:dns:Zone", {
        serviceId: await service("cdn"),
        name: `${uniq("refused")}.example`,
      });
      const refused = await plugin.create("nsp:dns:Zone", "r", inputs).then(
        () => "created",
        (e: Error) => e.message,
      );
      expect(refused).toMatch(/validation_error: service_id: service \d+ is a cdn service, not auth_dns/);
    });

    it.each(FAMILIES.map((f) => [f.type, lifecycleSteps(f), f] as const))("%s: %s", async (type, _steps, f) => {
      const inputs = await checked(type, await f.inputs());
      const created = await plugin.create(type, "a", inputs);
      expect(created.id).not.toBe("");
      expectIsoTimestamps(created.properties);

      const read = await plugin.read(type, "a", created.id, created.properties, inputs);
      expect(unwrapped(read.properties)).toEqual(unwrapped(created.properties));
      expect((await plugin.diff(type, "a", created.id, read.properties, inputs, inputs)).changes).toBe(false);

      let current = read.properties;
      let currentInputs = inputs;
      if (f.change) {
        const news = await checked(type, { ...inputs, ...f.change });
        const d = await plugin.diff(type, "a", created.id, current, news, inputs);
        expect(d).toMatchObject({ changes: true, replaces: [] });
        const updated = await plugin.update(type, "a", created.id, current, news, false, inputs);
        expect(updated).toMatchObject(f.change);
        const back = await plugin.read(type, "a", created.id, updated, news);
        expect(back.properties).toMatchObject(f.change);
        expect((await plugin.diff(type, "a", created.id, back.properties, news, news)).changes).toBe(false);
        current = back.properties;
        currentInputs = news;
      } else {
        const d = await plugin.diff(
          type,
          "a",
          created.id,
          current,
          await checked(type, { ...inputs, asn: 64501 }),
          inputs,
        );
        expect(d).toMatchObject({ changes: true, replaces: ["asn"] });
      }

      await importClean(type, f.importId(inputs, created.id), created.id);

      const path = f.apiPath(inputs, created.id);
      if (f.drift) {
        await control.patch(path, f.drift.body);
        const drifted = await refresher.read(type, "a", created.id, current, currentInputs);
        expect(drifted.properties).toMatchObject(f.drift.expect);
        expectIsoTimestamps(drifted.properties);
        current = drifted.properties;
      }

      // Deleted outside the program: Read reports it gone, and Delete of a gone object succeeds.
      await control.delete(path);
      expect((await refresher.read(type, "a", created.id, current, currentInputs)).id).toBe("");
      await plugin.delete(type, "a", created.id, current);

      // Deleted by the program: the object is gone from the API.
      const secondInputs = await checked(type, await f.inputs());
      const second = await plugin.create(type, "b", secondInputs);
      expect(await apiHas(f, secondInputs, second.id)).toBe(true);
      await plugin.delete(type, "b", second.id, second.properties);
      expect(await apiHas(f, secondInputs, second.id)).toBe(false);
    });
  },
);

describe("switching the API between the alternatives", () => {
  it("never changes a refreshed state, and a base URL without /api/v1 fails instead of dropping resources", async () => {
    await plugin?.stop();
    await refresher?.stop();
    control = new EmulatorControl(emulator.baseUrl, emulator.token);
    await control.setAlternatives([]);
    [plugin, refresher] = await Promise.all([
      anotherPlugin({ batchReads: false }),
      anotherPlugin({}, { configure: false }),
    ]);
    const zoneInputs = await checked("nsp:dns:Zone", { serviceId: await service("auth_dns"), name: "switch.example" });
    const zone = await plugin.create("nsp:dns:Zone", "z", zoneInputs);
    const recInputs = await checked("nsp:dns:Record", {
      zoneId: zone.id,
      name: "www",
      type: "A",
      content: "192.0.2.1",
    });
    const rec = await plugin.create("nsp:dns:Record", "r", recInputs);
    // The record bumped the zone's serial; the state to compare with is the zone read now.
    const zoneNow = (await plugin.read("nsp:dns:Zone", "z", zone.id, zone.properties, zoneInputs)).properties;
    expectIsoTimestamps(zoneNow);
    for (const mode of MODES) {
      await control.setAlternatives(mode);
      expect((await plugin.read("nsp:dns:Zone", "z", zone.id, zoneNow, zoneInputs)).properties, mode.join()).toEqual(
        zoneNow,
      );
      expect(
        (await plugin.read("nsp:dns:Record", "r", rec.id, rec.properties, recInputs)).properties,
        mode.join(),
      ).toEqual(rec.properties);
    }

    // The emulator answers every path outside /api/v1 with not_found, as a wrong base URL would.
    await refresher.configure({
      apiToken: secret(emulator.token),
      baseUrl: emulator.baseUrl.replace(/\/api\/v1$/, ""),
    });
    for (const mode of [[], ["bodiless-404"]]) {
      await control.setAlternatives(mode);
      const failed = await refresher.read("nsp:dns:Zone", "z", zone.id, zone.properties, zoneInputs).then(
        () => "read answered",
        (e: Error) => e.message,
      );
      expect(failed).toMatch(/baseUrl http:\/\/127\.0\.0\.1:\d+ does not reach the API/);
      expect(failed).toContain("probably missing its /api/v1 prefix");
      expect(failed).not.toContain(emulator.token);
    }
    await control.setAlternatives([]);
    expect((await plugin.read("nsp:dns:Zone", "z", zone.id, zone.properties, zoneInputs)).id).toBe(zone.id);
  });
});
