// What makes providers lose track of objects or create them twice, over gRPC against the emulator:
// a create whose answer is lost, and a create that fails half-way.
import type * as grpc from "@grpc/grpc-js";
import { beforeAll, expect, it } from "vitest";
import { initFailure } from "../helpers/plugin";
import { useProvider } from "../helpers/use-provider";

const { control, plugin } = useProvider({ config: { maxRetries: 1 } });
let serviceId: string;

beforeAll(async () => {
  serviceId = String((await control.services()).find((s) => s.type === "auth_dns")!.id);
});

it("keeps a zone whose settings patch failed, and finishes it on the next update", async () => {
  const inputs = (
    await plugin.check("nsp:dns:Zone", "z", { serviceId, name: "partial.example", enabled: false, negativeTtl: 600 })
  ).inputs;
  await control.setFaults({ rate: 1, kinds: ["error5xx"], methods: ["PATCH"], status: 503 });
  const err = (await plugin.create("nsp:dns:Zone", "z", inputs).then(
    () => undefined,
    (e: grpc.ServiceError) => e,
  ))!;
  await control.clearFaults();
  expect(err).toBeDefined();
  expect(err.details).toMatch(/upstream_error.*the object \d+ exists/);
  const partial = initFailure(err);
  expect(partial.id).toMatch(/^\d+$/);
  expect(partial.properties).toMatchObject({ name: "partial.example", enabled: true });
  expect((await control.list<{ name: string }>("/dns/zones")).filter((z) => z.name === "partial.example")).toHaveLength(
    1,
  );

  // The next up: the engine diffs the partial state against the program and updates.
  const diff = await plugin.diff("nsp:dns:Zone", "z", partial.id, partial.properties, inputs, inputs);
  expect(diff.diffs.sort()).toEqual(["enabled", "negativeTtl"]);
  const finished = await plugin.update("nsp:dns:Zone", "z", partial.id, partial.properties, inputs, false, inputs);
  expect(finished).toMatchObject({ enabled: false, negativeTtl: 600 });
  expect(await control.get(`/dns/zones/${partial.id}`)).toMatchObject({ enabled: false, negative_ttl: 600 });
  expect((await control.list<{ name: string }>("/dns/zones")).filter((z) => z.name === "partial.example")).toHaveLength(
    1,
  );
});

it("adopts a zone and a record whose create answer was lost after the server acted (no duplicate)", async () => {
  await control.resetStats();
  const zoneIn = (await plugin.check("nsp:dns:Zone", "lost", { serviceId, name: "lost-answer.example" })).inputs;
  await control.setFaults({ rate: 1, kinds: ["reset_after"], methods: ["POST"], count: 1 });
  const zone = await plugin.create("nsp:dns:Zone", "lost", zoneIn);
  expect(
    (await control.list<{ name: string }>("/dns/zones")).filter((z) => z.name === "lost-answer.example"),
  ).toHaveLength(1);
  expect(zone.properties.name).toBe("lost-answer.example");

  const recIn = (
    await plugin.check("nsp:dns:Record", "r", { zoneId: zone.id, name: "www", type: "A", content: "192.0.2.80" })
  ).inputs;
  await control.setFaults({ rate: 1, kinds: ["reset_after"], methods: ["POST"], count: 1 });
  const rec = await plugin.create("nsp:dns:Record", "r", recIn);
  const records = await control.list<{ id: number; name: string }>(`/dns/zones/${zone.id}/records`);
  expect(records.filter((r) => r.name === "www")).toEqual([expect.objectContaining({ id: Number(rec.id) })]);
  expect((await control.stats()).faults).toMatchObject({ reset_after: 2 });
  expect(plugin.engineLogs.join("\n")).toMatch(/answer to the create was lost, but the object exists; adopting it/);
});

it("creates again when the lost create never reached the server", async () => {
  const zoneIn = (await plugin.check("nsp:dns:Zone", "again", { serviceId, name: "never-reached.example" })).inputs;
  await control.setFaults({ rate: 1, kinds: ["reset_before"], methods: ["POST"], count: 1 });
  await plugin.create("nsp:dns:Zone", "again", zoneIn);
  expect(
    (await control.list<{ name: string }>("/dns/zones")).filter((z) => z.name === "never-reached.example"),
  ).toHaveLength(1);
  expect(plugin.engineLogs.join("\n")).toMatch(/does not exist; creating it again/);
});
