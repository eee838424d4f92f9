import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Api,
  createZone,
  expectError,
  type Harness,
  ISO_MS,
  makeApi,
  startHarness,
  useAccounts,
} from "../helpers/emulator-http";
import { setPartnerMode } from "../../emulator/src/partner/state";

const h = useAccounts("reseller");
const { ro, other } = h;

describe("partner access", () => {
  it("describes the partner behind the credential", async () => {
    expect((await h.api("GET", "/partner")).body).toEqual({
      slug: "reseller",
      name: "reseller",
      mode: "managed",
      acting_for: null,
      subjects: 0,
    });
  });

  it("creates, lists, shows and stops acting for managed customers", async () => {
    const c = await h.api("POST", "/partner/subjects", { external_ref: "cust-42" });
    expect(c.status).toBe(201);
    expect(c.body).toEqual({
      external_ref: "cust-42",
      mode: "managed",
      ranges: [],
      created_at: expect.stringMatching(ISO_MS),
    });
    expectError(
      await h.api("POST", "/partner/subjects", { external_ref: "cust-42" }),
      409,
      "conflict",
      "external_ref: a customer with reference cust-42 already exists",
    );
    await h.api("POST", "/partner/subjects", { external_ref: "cust:43@eu" });
    const list = (await h.api("GET", "/partner/subjects?limit=1")).body;
    expect(list.data.map((s: any) => s.external_ref)).toEqual(["cust-42"]);
    expect(list.paging.next_offset).toBe(1);
    expect((await ro("GET", "/partner/subjects/cust%3A43%40eu")).body.external_ref).toBe("cust:43@eu");

    // The ranges a customer holds are the range grants carrying its reference.
    const zone = await createZone(h.api, "2.0.192.in-addr.arpa");
    const range = (
      await h.api("POST", `/dns/zones/${zone.id}/ranges`, { prefix: "192.0.2.0/28", external_ref: "cust-42" })
    ).body;
    expect((await h.api("GET", "/partner/subjects/cust-42")).body.ranges).toEqual([
      { id: range.id, zone_id: zone.id, prefix: "192.0.2.0/28", enabled: true },
    ]);

    expect((await h.api("DELETE", "/partner/subjects/cust-42")).status).toBe(204);
    expectError(await h.api("GET", "/partner/subjects/cust-42"), 404, "not_found", "subject not found");
    expectError(await h.api("DELETE", "/partner/subjects/cust-42"), 404, "not_found");
    expectError(await other("GET", "/partner/subjects/cust:43@eu"), 404, "not_found");
  });

  it("validates the reference and needs write scope", async () => {
    expectError(await h.api("POST", "/partner/subjects", {}), 400, "validation_error", "external_ref: is required");
    expectError(
      await h.api("POST", "/partner/subjects", { external_ref: "has space" }),
      400,
      "validation_error",
      /^external_ref: must be 1 to 128/,
    );
    expectError(
      await h.api("POST", "/partner/subjects", { external_ref: "x".repeat(129) }),
      400,
      "validation_error",
      /^external_ref:/,
    );
    expectError(await ro("POST", "/partner/subjects", { external_ref: "ok" }), 403, "forbidden");
  });

  it("refuses managed customers outside managed mode", async () => {
    setPartnerMode(h.emu.app.store, "other", "oauth");
    expect((await other("GET", "/partner")).body.mode).toBe("oauth");
    expectError(
      await other("POST", "/partner/subjects", { external_ref: "c1" }),
      403,
      "forbidden",
      "partner other works in oauth mode; managed customers can be created only in managed mode",
    );
  });
});

describe("credentials minted for a managed customer", () => {
  const PARTNER = "svc_9a870000000000000000000000000011";
  const PARTNER_READ = "svc_9a870000000000000000000000000012";
  let clock = Date.parse("2026-01-01T00:00:00.000Z");
  let p: Harness;
  let partner: Api;
  let partnerRead: Api;
  beforeAll(async () => {
    p = await startHarness({
      accounts: [
        { name: "msp", token: PARTNER },
        { name: "msp", token: PARTNER_READ, scope: "read" },
      ],
      partnerTokenTtlSeconds: 60,
      rateLimitPerMinute: 300,
      now: () => clock,
    });
    partner = p.api;
    partnerRead = makeApi(p.emu.baseUrl, PARTNER_READ);
    await partner("POST", "/partner/subjects", { external_ref: "acme" });
    await partner("POST", "/partner/subjects", { external_ref: "globex" });
  });
  afterAll(() => p.emu.close());

  const mint = async (ref: string, scope?: string) => {
    const r = await partner("POST", `/partner/subjects/${ref}/token`, scope === undefined ? {} : { scope });
    expect(r.status, r.text).toBe(201);
    return r.body as { token: string; scope: string; subject: string; expires_in: number; expires_at: string };
  };

  it("mints a bearer token with its scope and expiry, read by default", async () => {
    const cred = await mint("acme");
    expect(cred).toEqual({
      token: expect.stringMatching(/^svc_[0-9a-f]{32}$/),
      scope: "read",
      subject: "acme",
      expires_in: 60,
      expires_at: "2026-01-01T00:01:00.000Z",
    });
    expect((await mint("acme", "write")).scope).toBe("write");
    expectError(
      await partner("POST", "/partner/subjects/acme/token", { scope: "admin" }),
      400,
      "validation_error",
      /^scope:/,
    );
  });

  it("acts as the customer's own account, apart from the partner's and from other customers", async () => {
    const acme = makeApi(p.emu.baseUrl, (await mint("acme", "write")).token);
    const globex = makeApi(p.emu.baseUrl, (await mint("globex", "write")).token);
    const zone = await createZone(acme, "acme.example");
    expect((await acme("GET", "/dns/zones")).body.data.map((z: any) => z.name)).toEqual(["acme.example"]);
    expect((await globex("GET", "/dns/zones")).body.data).toEqual([]);
    expect((await partner("GET", "/dns/zones")).body.data).toEqual([]);
    expectError(await partner("GET", `/dns/zones/${zone.id}`), 404, "not_found");
    expect((await acme("GET", "/partner")).body).toEqual({
      slug: "msp",
      name: "msp",
      mode: "managed",
      acting_for: "acme",
      subjects: 2,
    });
    expectError(
      await acme("GET", "/partner/subjects"),
      403,
      "forbidden",
      "a credential minted for a customer cannot use the partner endpoints",
    );
    expectError(await acme("POST", "/partner/subjects/acme/token", {}), 403, "forbidden");
  });

  it("answers forbidden to a write with a read credential, as for any read token", async () => {
    const reader = makeApi(p.emu.baseUrl, (await mint("globex", "read")).token);
    expect((await reader("GET", "/dns/zones")).status).toBe(200);
    expectError(
      await reader("POST", "/dns/zones", { service_id: 1, name: "x.example" }),
      403,
      "forbidden",
      "this endpoint needs a write-scope token; this token has scope read",
    );
  });

  it("refuses minting for an unknown customer and with a read-scope partner token", async () => {
    expectError(await partner("POST", "/partner/subjects/nobody/token", {}), 404, "not_found", "subject not found");
    expectError(await partnerRead("POST", "/partner/subjects/acme/token", {}), 403, "forbidden");
  });

  it("answers unauthorized once the credential has expired, saying so", async () => {
    const cred = await mint("acme");
    const acme = makeApi(p.emu.baseUrl, cred.token);
    clock += 59_999;
    expect((await acme("GET", "/dns/zones")).status).toBe(200);
    clock += 1;
    expectError(
      await acme("GET", "/dns/zones"),
      401,
      "unauthorized",
      `the credential expired at ${cred.expires_at}; mint a new one`,
    );
  });

  it("spends one rate-limit bucket per customer, whichever of its credentials is used", async () => {
    const first = await mint("globex");
    const r1 = await makeApi(p.emu.baseUrl, first.token)("GET", "/me");
    const second = await mint("globex");
    const r2 = await makeApi(p.emu.baseUrl, second.token)("GET", "/me");
    const remaining = Number(r1.headers.get("x-ratelimit-remaining"));
    expect(remaining).toBeLessThan(300);
    expect(Number(r2.headers.get("x-ratelimit-remaining"))).toBe(remaining - 1);
  });

  it("lists minted credentials on the control API and expires them on demand", async () => {
    const cred = await mint("globex");
    const all = (await p.control("GET", "/_emulator/partner/credentials?subject=globex")).body;
    expect(all.ttl_seconds).toBe(60);
    const row = all.data.find((c: any) => c.token === cred.token);
    expect(row).toMatchObject({
      partner: "msp",
      subject: "globex",
      scope: "read",
      expired: false,
      revoked: false,
      account: expect.stringMatching(/^msp\/globex\//),
    });
    expect(all.data.every((c: any) => c.subject === "globex")).toBe(true);
    expect(
      (await p.control("POST", "/_emulator/partner/credentials/expire", { subject: "globex" })).body.expired,
    ).toBeGreaterThanOrEqual(1);
    expectError(await makeApi(p.emu.baseUrl, cred.token)("GET", "/me"), 401, "unauthorized", /expired/);
  });

  it("stops every credential of a customer the partner no longer acts for; a new customer of the same reference starts empty", async () => {
    await partner("POST", "/partner/subjects", { external_ref: "initech" });
    const old = makeApi(p.emu.baseUrl, (await mint("initech", "write")).token);
    await createZone(old, "initech.example");
    expect((await partner("DELETE", "/partner/subjects/initech")).status).toBe(204);
    expectError(await old("GET", "/dns/zones"), 401, "unauthorized");
    expectError(await partner("POST", "/partner/subjects/initech/token", {}), 404, "not_found");
    await partner("POST", "/partner/subjects", { external_ref: "initech" });
    const fresh = makeApi(p.emu.baseUrl, (await mint("initech")).token);
    expect((await fresh("GET", "/dns/zones")).body.data).toEqual([]);
  });
});
