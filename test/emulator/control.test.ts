// The control endpoints for states only the outside world changes.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startEmulator } from "../../emulator/src/process/server";
import { EmulatorControl } from "../helpers/emulator-control";

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let api: EmulatorControl;

beforeAll(async () => {
  emulator = await startEmulator({ rateLimitPerMinute: 0 });
  api = new EmulatorControl(emulator.baseUrl, emulator.token);
});
afterAll(() => emulator.close());

const control = (path: string, method: string, body: unknown) =>
  fetch(`${api.root}/_emulator${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

it("puts a call up on a PBX, which refuses a move until it ends", async () => {
  const [from, to] = ["fra", "lon"];
  const pbx = await api.post<{ id: string }>("/vgate/pbx", { name: "calls", city: from });
  expect((await control("/vgate/calls", "PUT", { pbx: pbx.id, calls: 1 })).status).toBe(204);
  const refused = await api.post(`/vgate/pbx/${pbx.id}/move`, { city: to }).catch((e: Error) => e.message);
  expect(refused).toMatch(/409/);
  expect(refused).toMatch(/call/);
  expect((await control("/vgate/calls", "PUT", { pbx: pbx.id, calls: 0 })).status).toBe(204);
  await api.post(`/vgate/pbx/${pbx.id}/move`, { city: to });
  expect((await control("/vgate/calls", "PUT", { pbx: pbx.id, calls: -1 })).status).toBe(400);
});

it("confirms a mail destination", async () => {
  await api.post("/mail/destinations", { addr: "ops@elsewhere.example" });
  const res = await control("/mail/destinations/confirm", "POST", { account: "demo", addr: "ops@elsewhere.example" });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { confirmed_at: string | null }).confirmed_at).toBeTruthy();
});

it("ends a resolver service outside the API, with its filter, policy and client groups", async () => {
  const resolver = (await api.services()).find((s) => s.type === "resolver")!;
  await api.api("PUT", `/services/${resolver.id}/filter`, { custom_block: "ads.example" });
  await api.post(`/services/${resolver.id}/clients`, { name: "Kids" });
  const res = await fetch(`${api.root}/_emulator/services?id=${resolver.id}`, { method: "DELETE" });
  expect(res.status).toBe(204);
  for (const path of [
    `/services/${resolver.id}`,
    `/services/${resolver.id}/filter`,
    `/services/${resolver.id}/clients`,
  ]) {
    expect(await api.get(path).catch((e: Error) => e.message)).toMatch(/404.*not_found/);
  }
  expect((await fetch(`${api.root}/_emulator/services?id=${resolver.id}`, { method: "DELETE" })).status).toBe(404);
});
