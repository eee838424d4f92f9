// Forwarding to outside addresses: nsp:mail:Destination and nsp:mail:Route, through the built
// plugin binary over gRPC against a live emulator.
import { describe, expect, it } from "vitest";
import { confirmDestination } from "../../emulator/src/mail/state";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { MAIL_ACCOUNT, useMailProvider } from "../helpers/mail-parents";

const DEST = "nsp:mail:Destination";
const ROUTE = "nsp:mail:Route";

type Obj = Record<string, any>;

const provider = useMailProvider();
const { emulator, control, plugin, checked, previewSendsNothing, importClean, uniq, apiDomain } = provider;

/** The destinations the Route row made, for its `update`. */
let routeDests: string[] = [];

lifecycle(provider, [
  {
    type: DEST,
    create: async () => ({ addr: `${uniq("ops")}@example.net` }),
    unknownOutput: "confirmed",
    replace: { addr: "other@example.net" },
    apiPath: (_inputs, id) => `/mail/destinations/${id}`,
    exists: async (_inputs, id) => (await control.list<Obj>("/mail/destinations")).some((d) => d.addr === id),
    bad: [
      [{}, "addr"],
      [{ addr: "ops" }, "addr"],
    ],
    nestedFailures: ["["],
    skip: {
      update: "its one input, the address, replaces it",
      "drift edit": "the API has no edit of a destination; its owner confirms it by a link, which a test below follows",
    },
  },
  {
    type: ROUTE,
    create: async () => {
      const domainId = String((await apiDomain({ mode: "forward" })).id);
      routeDests = [uniq("fwd-a"), uniq("fwd-b")].map((local) => `${local}@example.net`);
      for (const addr of routeDests) await control.post("/mail/destinations", { addr });
      return { domainId, localPart: "sales", dest: routeDests[0] };
    },
    unknownOutput: "address",
    update: () => ({ dest: routeDests[1] }),
    replace: { localPart: "info" },
    apiPath: (inputs) => `/mail/domains/${inputs.domainId}/routes/${inputs.localPart}`,
    exists: async (inputs) =>
      (await control.list<Obj>(`/mail/domains/${inputs.domainId}/routes`)).some(
        (r) => r.local_part === inputs.localPart,
      ),
    bad: [
      [{ localPart: "x", dest: "a@example.net" }, "domainId"],
      [{ domainId: "1", localPart: "a b", dest: "a@example.net" }, "localPart"],
      [{ domainId: "1", localPart: "x", dest: "nobody" }, "dest"],
    ],
    nestedFailures: ["["],
    skip: {
      "drift edit":
        "the API edits a route by a PUT to its domain's routes, not to the route's path; a test below makes it",
    },
  },
]);

describe("nsp:mail:Destination and nsp:mail:Route", () => {
  it("adds a destination, shows its confirmation, imports, and deletes", async () => {
    const inputs = await checked(DEST, { addr: " Ops@Example.NET " });
    expect(inputs).toEqual({ addr: "ops@example.net" });
    await previewSendsNothing(DEST, inputs, "confirmed");
    const created = await plugin.create(DEST, "d", inputs);
    expect(created.id).toBe("ops@example.net");
    expect(created.properties).toMatchObject({
      addr: "ops@example.net",
      confirmed: false,
      confirmedAt: null,
      destinationId: expect.stringMatching(/^dst_/),
    });
    const read = await plugin.read(DEST, "d", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect((await plugin.diff(DEST, "d", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    // The owner follows the link: a refresh shows it, and the program has nothing to change.
    confirmDestination(emulator.app.store, MAIL_ACCOUNT, "ops@example.net");
    const confirmed = await plugin.read(DEST, "d", created.id, read.properties, inputs);
    expect(confirmed.properties).toMatchObject({ confirmed: true, confirmedAt: expect.any(String) });
    expect((await plugin.diff(DEST, "d", created.id, confirmed.properties, inputs, confirmed.inputs)).changes).toBe(
      false,
    );
    expect(
      await plugin.diff(DEST, "d", created.id, confirmed.properties, { addr: "other@example.net" }, inputs),
    ).toMatchObject({ replaces: ["addr"] });

    const imported = await importClean(DEST, "OPS@example.net", "ops@example.net");
    expect(imported.inputs).toEqual(inputs);
    await expect(plugin.read(DEST, "imp", "ops")).rejects.toThrow(/must be the destination's address/);

    await plugin.delete(DEST, "d", created.id, confirmed.properties);
    expect((await plugin.read(DEST, "d", created.id, confirmed.properties, inputs)).id).toBe("");
  });

  it("forwards a local part, changes its destination in place, imports, and deletes", async () => {
    const domain = await apiDomain({ mode: "forward" });
    const domainId = String(domain.id);
    await control.post("/mail/destinations", { addr: "fwd-a@example.net" });
    await control.post("/mail/destinations", { addr: "fwd-b@example.net" });
    const inputs = await checked(ROUTE, { domainId, localPart: "Sales", dest: "FWD-A@example.net" });
    expect(inputs).toEqual({ domainId, localPart: "sales", dest: "fwd-a@example.net" });
    await previewSendsNothing(ROUTE, inputs, "address");

    const created = await plugin.create(ROUTE, "r", inputs);
    expect(created.id).toBe(`${domainId}/sales`);
    expect(created.properties).toMatchObject({ ...inputs, address: `sales@${domain.name}`, destConfirmed: false });
    const read = await plugin.read(ROUTE, "r", created.id, created.properties, inputs);
    expect((await plugin.diff(ROUTE, "r", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const moved = await checked(ROUTE, { ...inputs, dest: "fwd-b@example.net" });
    expect(await plugin.diff(ROUTE, "r", created.id, read.properties, moved, inputs)).toMatchObject({
      changes: true,
      replaces: [],
      diffs: ["dest"],
    });
    const updated = await plugin.update(ROUTE, "r", created.id, read.properties, moved, false, inputs);
    expect(updated.dest).toBe("fwd-b@example.net");
    expect(await plugin.diff(ROUTE, "r", created.id, updated, { ...moved, localPart: "info" }, moved)).toMatchObject({
      replaces: ["localPart"],
    });

    const imported = await importClean(ROUTE, `${domainId}/SALES`, `${domainId}/sales`);
    expect(imported.inputs).toEqual(moved);
    await expect(plugin.read(ROUTE, "imp", "sales")).rejects.toThrow(/<domainId>\/<localPart>/);

    await plugin.delete(ROUTE, "r", created.id, updated);
    expect((await plugin.read(ROUTE, "r", created.id, updated, moved)).id).toBe("");
  });

  it("sees a route changed and deleted through the API", async () => {
    const domain = await apiDomain({ mode: "both" });
    await control.post("/mail/destinations", { addr: "drift-a@example.net" });
    await control.post("/mail/destinations", { addr: "drift-b@example.net" });
    const inputs = await checked(ROUTE, {
      domainId: String(domain.id),
      localPart: "help",
      dest: "drift-a@example.net",
    });
    const created = await plugin.create(ROUTE, "r", inputs);
    await control.api("PUT", `/mail/domains/${domain.id}/routes`, { local_part: "help", dest: "drift-b@example.net" });
    const read = await plugin.read(ROUTE, "r", created.id, created.properties, inputs);
    expect(read.properties.dest).toBe("drift-b@example.net");
    expect((await plugin.diff(ROUTE, "r", created.id, read.properties, inputs, read.inputs)).diffs).toEqual(["dest"]);
    await control.delete(`/mail/domains/${domain.id}/routes/help`);
    expect((await plugin.read(ROUTE, "r", created.id, read.properties, inputs)).id).toBe("");
  });
});
