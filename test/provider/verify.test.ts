// Bot-verification site keys, and the PBX gateway's balance lookup, driven through the built
// plugin binary over gRPC against a live emulator.
import { describe, expect, it } from "vitest";
import { isSecret, plain } from "../helpers/plugin";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const SITE = "nsp:verify:Site";
const BALANCE = "nsp:vgate:getBalance";

type Obj = Record<string, unknown>;

const provider = useProvider({ account: "verify" });
const { control, plugin, checked, createWithLostAnswer } = provider;

lifecycle(provider, [
  {
    type: SITE,
    create: { name: " shop ", hostnames: ["Shop.Example.com."], mode: "interactive" },
    unknownOutput: "secret",
    update: { name: "shop-2", hostnames: ["a.example.com", "b.example.com"], enabled: false, fingerprint: true },
    replace: { interaction: "strict" },
    apiPath: (_inputs, id) => `/verify/sites/${id}`,
    drift: { body: { name: "drifted", mode: "invisible" }, inputs: { name: "drifted", mode: "invisible" } },
    bad: [
      [{}, "name"],
      [{ name: "  " }, "name"],
      [{ name: "n".repeat(101) }, "name"],
      [{ name: "x", hostnames: ["not a host"] }, "hostnames"],
      [{ name: "x", hostnames: ["a.example.com", "A.example.com"] }, "hostnames"],
      [{ name: "x", mode: "loud" }, "mode"],
      [{ name: "x", interaction: "maybe" }, "interaction"],
      [{ name: "x", fingerprint: "yes" }, "fingerprint"],
      [{ name: "x", secretRotation: true }, "secretRotation"],
    ],
    nestedFailures: ["["],
  },
]);

describe("nsp:verify:Site over gRPC", () => {
  it("rotates the one-time secret through its trigger, keeps it secret, and cannot import it", async () => {
    const changed = await checked(SITE, {
      name: "shop-2",
      hostnames: ["a.example.com", "b.example.com"],
      mode: "interactive",
      enabled: false,
      fingerprint: true,
    });
    const created = await plugin.create(SITE, "s", changed);
    const updated = created.properties;
    const first = plain(updated.secret) as string;
    expect(first).toMatch(/^vss_[0-9a-f]{48}$/);
    expect(await control.get(`/verify/sites/${created.id}`)).not.toHaveProperty("secret");

    // The rotation trigger rotates through POST /rotate, without replacing the site.
    const rotate = await checked(SITE, { ...changed, secretRotation: "2026-11" });
    expect(await plugin.diff(SITE, "s", created.id, updated, rotate, changed)).toMatchObject({
      changes: true,
      replaces: [],
      diffs: ["secretRotation"],
    });
    await control.resetStats();
    const rotated = await plugin.update(SITE, "s", created.id, updated, rotate, false, changed);
    expect((await control.stats()).byRoute).toEqual({ "POST /verify/sites/:id/rotate": 1 });
    expect(isSecret(rotated.secret)).toBe(true);
    const second = plain(rotated.secret) as string;
    expect(second).toMatch(/^vss_/);
    expect(second).not.toBe(first);
    expect(rotated.secretRotation).toBe("2026-11");
    const reread = await plugin.read(SITE, "s", created.id, rotated, rotate);
    expect(plain(reread.properties.secret)).toBe(second);
    expect(isSecret(reread.properties.secret)).toBe(true);
    expect(reread.inputs.secretRotation).toBe("2026-11");
    expect((await plugin.diff(SITE, "s", created.id, reread.properties, rotate, reread.inputs)).changes).toBe(false);

    // Import through Read with only the id: inputs as the API holds them, defaults left out.
    const imported = await plugin.read(SITE, "imp", created.id);
    expect(imported.id).toBe(created.id);
    expect(imported.inputs).toEqual({
      name: "shop-2",
      hostnames: ["a.example.com", "b.example.com"],
      mode: "interactive",
      enabled: false,
      fingerprint: true,
    });
    expect(imported.properties.secret).toBeNull();
    await expect(plugin.read(SITE, "imp", "shop")).rejects.toThrow(/not a verify site id.*<siteId>/);

    await plugin.delete(SITE, "s", created.id, reread.properties);
    expect((await plugin.read(SITE, "s", created.id, reread.properties, rotate)).id).toBe("");
  });

  it("creates a disabled site with a patch after the create, keeping the secret", async () => {
    const inputs = await checked(SITE, { name: "off", enabled: false });
    await control.resetStats();
    const created = await plugin.create(SITE, "off", inputs);
    expect((await control.stats()).byRoute).toEqual({ "POST /verify/sites": 1, "PATCH /verify/sites/:id": 1 });
    expect(created.properties.enabled).toBe(false);
    expect(isSecret(created.properties.secret)).toBe(true);
    expect(plain(created.properties.secret)).toMatch(/^vss_/);
    await plugin.delete(SITE, "off", created.id, created.properties);
  });

  it("warns of a rotation made outside the program, keeping the secret it knows", async () => {
    const inputs = await checked(SITE, { name: "drift" });
    const s = await plugin.create(SITE, "d", inputs);
    const read = await plugin.read(SITE, "d", s.id, s.properties, inputs);
    const logs = plugin.engineLogs.length;
    await control.post(`/verify/sites/${s.id}/rotate`, {});
    const after = await plugin.read(SITE, "d", s.id, read.properties, inputs);
    expect(plain(after.properties.secret)).toBe(plain(s.properties.secret));
    expect(isSecret(after.properties.secret)).toBe(true);
    expect(plugin.engineLogs.slice(logs).join("\n")).toMatch(/rotated outside this program.*secretRotation/);
    await plugin.delete(SITE, "d", s.id, after.properties);
  });

  it("adopts a site whose create answer was lost, and rotates to get its secret", async () => {
    const inputs = await checked(SITE, { name: "lost-answer" });
    const created = await createWithLostAnswer(SITE, "lost", inputs, "/verify/sites");
    expect(created.byRoute).toMatchObject({
      "POST /verify/sites": 1,
      "GET /verify/sites": 1,
      "POST /verify/sites/:id/rotate": 1,
    });
    expect(isSecret(created.properties.secret)).toBe(true);
    expect(
      (await control.list<{ name: string }>("/verify/sites")).filter((t) => t.name === "lost-answer"),
    ).toHaveLength(1);
    await plugin.delete(SITE, "lost", created.id, created.properties);
  });
});

describe("nsp:vgate:getBalance over gRPC", () => {
  it("reads the prepaid balance and its movements", async () => {
    const raw = await control.get<Obj>("/vgate/balance");
    const { result, failures } = await plugin.invoke(BALANCE, {});
    expect(failures).toEqual([]);
    expect(result.balanceMicros).toBe(raw.balance_micros);
    expect(result.currency).toBe(raw.currency);
    expect(Array.isArray(result.movements)).toBe(true);
    const movements = raw.movements as Obj[];
    expect(movements.length).toBeGreaterThan(0);
    expect(result.movements).toEqual(
      movements.map((m) => ({ at: m.at, amountMicros: m.amount_micros, kind: m.kind, note: m.note })),
    );
  });
});
