// nsp:ix:Member, through the built plugin binary over gRPC against a live emulator.
import { describe, expect, it } from "vitest";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const MEMBER = "nsp:ix:Member";
type Obj = Record<string, any>;

const provider = useProvider({ account: "exchange" });
const { control, plugin, checked, previewSendsNothing, importClean, updatesInPlace } = provider;

let applications = 0;
lifecycle(provider, [
  {
    type: MEMBER,
    // The API takes one application per ASN and cannot delete one: each walk applies with its own.
    create: async () => ({ asn: 64600 + ++applications, name: "Walk", contact: "noc@walk.example" }),
    unknownOutput: "state",
    update: { listed: false, contact: "peering@example.net" },
    replace: { asn: 64999 },
    apiPath: (_inputs, id) => `/ix/members/${id}`,
    drift: { body: { name: "Drifted" }, inputs: { name: "Drifted" } },
    bad: [
      [{ asn: 0, name: "x", contact: "noc@example.net" }, "asn"],
      [{ asn: 23456, name: "x", contact: "noc@example.net" }, "asn"],
      [{ asn: 1.5, name: "x", contact: "noc@example.net" }, "asn"],
      [{ asn: 64500, name: "", contact: "noc@example.net" }, "name"],
      [{ asn: 64500, name: "x", asSet: "EXAMPLE", contact: "noc@example.net" }, "asSet"],
      [{ asn: 64500, name: "x", contact: "noc" }, "contact"],
      [{ asn: 64500, name: "x" }, "contact"],
    ],
    skip: {
      delete: "the API cannot delete a membership: the delete leaves it (checked below)",
      "drift delete": "the API cannot delete a membership",
    },
  },
]);

describe("nsp:ix:Member", () => {
  it("applies, patches, replaces on a new ASN, imports, and only forgets on delete (saying so)", async () => {
    const inputs = await checked(MEMBER, {
      asn: 64500,
      name: " Example Net ",
      asSet: "as-example",
      contact: "NOC@Example.net",
    });
    expect(inputs).toEqual({
      asn: 64500,
      name: "Example Net",
      asSet: "AS-EXAMPLE",
      contact: "noc@example.net",
      listed: true,
    });
    await previewSendsNothing(MEMBER, inputs, "state");

    const created = await plugin.create(MEMBER, "m", inputs);
    expect(created.id).toMatch(/^ixm_[0-9a-f]{12}$/);
    expect(created.properties).toMatchObject({ ...inputs, state: "applied" });
    expect(created.properties.sessions).toHaveLength(2);

    const read = await plugin.read(MEMBER, "m", created.id, created.properties, inputs);
    expect(read.inputs).toEqual(inputs);
    expect((await plugin.diff(MEMBER, "m", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const { asSet: _s, ...noSet } = inputs;
    const changed = await checked(MEMBER, { ...noSet, listed: false, contact: "peering@example.net" });
    const updated = await updatesInPlace(MEMBER, "m", created.id, read.properties, changed, inputs, [
      "asSet",
      "contact",
      "listed",
    ]);
    expect(updated).toMatchObject({ asSet: null, listed: false, contact: "peering@example.net" });

    expect(await plugin.diff(MEMBER, "m", created.id, updated, { ...changed, asn: 64501 }, changed)).toMatchObject({
      changes: true,
      replaces: ["asn"],
    });

    const imported = await importClean(MEMBER, created.id);
    expect(imported.inputs).toEqual({ asn: 64500, name: "Example Net", contact: "peering@example.net", listed: false });
    await expect(plugin.read(MEMBER, "imp", "ixm 1")).rejects.toThrow(/not a member id/);

    await control.resetStats();
    const logsBefore = plugin.engineLogs.length;
    await plugin.delete(MEMBER, "m", created.id, updated);
    expect((await control.stats()).total).toBe(0);
    expect(plugin.engineLogs.slice(logsBefore).join("\n")).toMatch(
      /no endpoint to delete an internet-exchange membership/,
    );
    expect((await control.get<Obj>(`/ix/members/${created.id}`)).asn).toBe(64500);
  });

  it("sees changes made through the API (the API cannot delete a member)", async () => {
    const inputs = await checked(MEMBER, { asn: 64510, name: "Drift", contact: "noc@drift.example" });
    const created = await plugin.create(MEMBER, "m", inputs);
    await control.patch(`/ix/members/${created.id}`, { name: "Drifted", as_set: "AS-DRIFT" });
    const read = await plugin.read(MEMBER, "m", created.id, created.properties, inputs);
    expect(read.properties).toMatchObject({ name: "Drifted", asSet: "AS-DRIFT" });
    expect(read.inputs.name).toBe("Drifted");
    expect(await plugin.diff(MEMBER, "m", created.id, read.properties, inputs, read.inputs)).toMatchObject({
      changes: true,
      diffs: ["name"],
    });
    // A second application for the same ASN is refused by the API.
    await expect(plugin.create(MEMBER, "m2", inputs)).rejects.toThrow(/conflict.*AS64510 has already applied/);
    // A member unknown to the account reads as gone.
    expect((await plugin.read(MEMBER, "m", "ixm_000000000000", read.properties, inputs)).id).toBe("");
  });
});
