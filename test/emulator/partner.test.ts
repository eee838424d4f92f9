import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ISO_MS, type Api, type Harness, createZone, makeApi, startHarness } from "./helpers";
import { setPartnerMode } from "../../emulator/src/partner/state";

const WRITE = "svc_9a870000000000000000000000000001";
const READ = "svc_9a870000000000000000000000000002";

let h: Harness;
let other: Api;
let ro: Api;
beforeAll(async () => {
  h = await startHarness({ accounts: [{ name: "reseller", token: WRITE }, { name: "reseller", token: READ, scope: "read" }, { name: "other" }] });
  other = makeApi(h.emu.baseUrl, h.emu.accounts.other!);
  ro = makeApi(h.emu.baseUrl, READ);
});
afterAll(() => h.emu.close());

function expectError(r: { status: number; body: any }, status: number, code: string, message?: string | RegExp): void {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.error.code).toBe(code);
  if (typeof message === "string") expect(r.body.error.message).toBe(message);
  else if (message) expect(r.body.error.message).toMatch(message);
}

describe("partner access", () => {
  it("describes the partner behind the credential", async () => {
    expect((await h.api("GET", "/partner")).body).toEqual({ slug: "reseller", name: "reseller", mode: "managed", acting_for: null, subjects: 0 });
  });

  it("creates, lists, shows and stops acting for managed customers", async () => {
    const c = await h.api("POST", "/partner/subjects", { external_ref: "cust-42" });
    expect(c.status).toBe(201);
    expect(c.body).toEqual({ external_ref: "cust-42", mode: "managed", ranges: [], created_at: expect.stringMatching(ISO_MS) });
    expectError(await h.api("POST", "/partner/subjects", { external_ref: "cust-42" }), 409, "conflict", "external_ref: a customer with reference cust-42 already exists");
    await h.api("POST", "/partner/subjects", { external_ref: "cust:43@eu" });
    const list = (await h.api("GET", "/partner/subjects?limit=1")).body;
    expect(list.data.map((s: any) => s.external_ref)).toEqual(["cust-42"]);
    expect(list.paging.next_offset).toBe(1);
    expect((await ro("GET", "/partner/subjects/cust%3A43%40eu")).body.external_ref).toBe("cust:43@eu");

    // The ranges a customer holds are the range grants carrying its reference.
    const zone = await createZone(h.api, "2.0.192.in-addr.arpa");
    const range = (await h.api("POST", `/dns/zones/${zone.id}/ranges`, { prefix: "192.0.2.0/28", external_ref: "cust-42" })).body;
    expect((await h.api("GET", "/partner/subjects/cust-42")).body.ranges).toEqual([{ id: range.id, zone_id: zone.id, prefix: "192.0.2.0/28", enabled: true }]);

    expect((await h.api("DELETE", "/partner/subjects/cust-42")).status).toBe(204);
    expectError(await h.api("GET", "/partner/subjects/cust-42"), 404, "not_found", "subject not found");
    expectError(await h.api("DELETE", "/partner/subjects/cust-42"), 404, "not_found");
    expectError(await other("GET", "/partner/subjects/cust:43@eu"), 404, "not_found");
  });

  it("validates the reference and needs write scope", async () => {
    expectError(await h.api("POST", "/partner/subjects", {}), 400, "validation_error", "external_ref: is required");
    expectError(await h.api("POST", "/partner/subjects", { external_ref: "has space" }), 400, "validation_error", /^external_ref: must be 1 to 128/);
    expectError(await h.api("POST", "/partner/subjects", { external_ref: "x".repeat(129) }), 400, "validation_error", /^external_ref:/);
    expectError(await ro("POST", "/partner/subjects", { external_ref: "ok" }), 403, "forbidden");
  });

  it("refuses managed customers outside managed mode", async () => {
    setPartnerMode(h.emu.app.store, "other", "oauth");
    expect((await other("GET", "/partner")).body.mode).toBe("oauth");
    expectError(await other("POST", "/partner/subjects", { external_ref: "c1" }), 403, "forbidden", "partner other works in oauth mode; managed customers can be created only in managed mode");
  });
});
