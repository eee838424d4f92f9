// A resolver service's filter, policy and client groups (with DDNS tokens) over HTTP: defaults,
// whole replacement by PUT, normalisation and validation, resolver-only, ownership and scopes.
import { beforeAll, describe, expect, it } from "vitest";
import { expectError, ISO_MS, useAccounts } from "../helpers/emulator-http";

const h = useAccounts("home");
const { ro, other } = h;
let resolver: number;
let authDns: number;
beforeAll(async () => {
  const services = (await h.api("GET", "/services")).body.data as any[];
  resolver = services.find((s) => s.type === "resolver").id;
  authDns = services.find((s) => s.type === "auth_dns").id;
});

describe("resolver filter", () => {
  it("starts empty, is replaced whole by PUT and stored normalised", async () => {
    expect((await ro("GET", `/services/${resolver}/filter`)).body).toEqual({
      service_id: resolver,
      custom_block: "",
      custom_allow: "",
      rewrites: "",
      block_mode: "nxdomain",
      filter_lists: [],
    });
    const put = await h.api("PUT", `/services/${resolver}/filter`, {
      custom_block: " Ads.Example.COM.\n\n*.tracker.example\n",
      custom_allow: "ok.example",
      rewrites: "Printer.Home.Example  ->  192.0.2.9\nnas.home.example -> Box.Home.Example.",
      block_mode: "zero",
      filter_lists: ["ads", "Malware", "ads"],
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      service_id: resolver,
      custom_block: "ads.example.com\n*.tracker.example",
      custom_allow: "ok.example",
      rewrites: "printer.home.example -> 192.0.2.9\nnas.home.example -> box.home.example",
      block_mode: "zero",
      filter_lists: ["ads", "malware"],
    });
    expect((await ro("GET", `/services/${resolver}/filter`)).body).toEqual(put.body);
    // Fields left out return to their defaults.
    expect((await h.api("PUT", `/services/${resolver}/filter`, { custom_allow: "ok.example" })).body).toEqual({
      service_id: resolver,
      custom_block: "",
      custom_allow: "ok.example",
      rewrites: "",
      block_mode: "nxdomain",
      filter_lists: [],
    });
  });

  it("validates every field", async () => {
    const bad: [unknown, RegExp][] = [
      [{ custom_block: "not a domain" }, /^custom_block: "not a domain"/],
      [{ custom_allow: "-bad-.example" }, /^custom_allow/],
      [{ rewrites: "a.example" }, /^rewrites: "a.example" must be written/],
      [{ rewrites: "a.example -> not/valid" }, /^rewrites: "not\/valid"/],
      [{ block_mode: "drop" }, /^block_mode/],
      [{ filter_lists: ["nope"] }, /^filter_lists: unknown blocklist "nope"/],
      [{ extra: 1 }, /extra/],
    ];
    for (const [body, msg] of bad)
      expectError(await h.api("PUT", `/services/${resolver}/filter`, body), 400, "validation_error", msg);
  });

  it("belongs to resolver services of the caller only", async () => {
    expectError(
      await h.api("GET", `/services/${authDns}/filter`),
      400,
      "validation_error",
      /^service: service \d+ is a auth_dns service/,
    );
    expectError(await h.api("PUT", `/services/${authDns}/filter`, {}), 400, "validation_error", /resolver services/);
    expectError(await other("GET", `/services/${resolver}/filter`), 404, "not_found");
    expectError(await ro("PUT", `/services/${resolver}/filter`, {}), 403, "forbidden");
  });
});

describe("resolver policy", () => {
  it("has documented defaults and takes every field", async () => {
    const defaults = {
      service_id: resolver,
      rules: "",
      blocked_services: "",
      schedule_json: "",
      tz: "",
      safesearch: "",
      access_allow: "",
      access_deny: "",
      forwards: "",
      paused_until: "",
      block_bypass: false,
      anonymize_ip: false,
      log_mode: "off",
      log_days: 7,
      ratelimit: 0,
      ttl_min: 0,
      ttl_max: 0,
    };
    expect((await ro("GET", `/services/${resolver}/policy`)).body).toEqual(defaults);
    const body = {
      rules: "||ads.example^\n\n@@||ok.example^ ",
      blocked_services: "TikTok, youtube",
      schedule_json: '{"mon":["09:00","17:00"]}',
      tz: "Europe/Berlin",
      safesearch: "on",
      access_allow: "192.0.2.0/24, 2001:DB8::1",
      access_deny: "198.51.100.7",
      forwards: "9.9.9.9,2620:fe::fe",
      paused_until: "2030-01-01T00:00:00Z",
      block_bypass: true,
      anonymize_ip: true,
      log_mode: "blocked",
      log_days: 30,
      ratelimit: 50,
      ttl_min: 60,
      ttl_max: 3600,
    };
    const put = await h.api("PUT", `/services/${resolver}/policy`, body);
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      ...body,
      service_id: resolver,
      rules: "||ads.example^\n@@||ok.example^",
      blocked_services: "tiktok,youtube",
      access_allow: "192.0.2.0/24,2001:db8::1",
      forwards: "9.9.9.9,2620:fe::fe",
    });
    expect((await h.api("PUT", `/services/${resolver}/policy`, {})).body).toEqual(defaults);
  });

  it("validates every field", async () => {
    const bad: [unknown, RegExp][] = [
      [{ schedule_json: "{" }, /^schedule_json: must be JSON/],
      [{ schedule_json: "[1]" }, /^schedule_json: must be a JSON object/],
      [{ tz: "Mars/Olympus" }, /^tz: "Mars\/Olympus"/],
      [{ safesearch: "strict" }, /^safesearch/],
      [{ access_allow: "192.0.2.1/24" }, /^access_allow: "192.0.2.1\/24"/],
      [{ forwards: "192.0.2.0/24" }, /^forwards: "192.0.2.0\/24" must be an IP address$/],
      [{ paused_until: "tomorrow" }, /^paused_until: must be an ISO 8601/],
      [{ log_mode: "some" }, /^log_mode/],
      [{ log_days: 0 }, /^log_days/],
      [{ log_days: 91 }, /^log_days/],
      [{ ratelimit: -1 }, /^ratelimit/],
      [{ ttl_min: 600, ttl_max: 60 }, /^ttl_min: must not exceed ttl_max/],
      [{ ttl_max: 86401 }, /^ttl_max/],
      [{ blocked_services: "bad service" }, /^blocked_services/],
      [{ block_bypass: "yes" }, /^block_bypass: must be a boolean/],
    ];
    for (const [body, msg] of bad)
      expectError(await h.api("PUT", `/services/${resolver}/policy`, body), 400, "validation_error", msg);
    expectError(await h.api("GET", `/services/${authDns}/policy`), 400, "validation_error", /resolver services/);
  });
});

describe("resolver client groups", () => {
  it("creates, lists, patches and deletes client groups", async () => {
    const r = await h.api("POST", `/services/${resolver}/clients`, {
      id: resolver,
      name: " Kids ",
      client_id: "Kids-Tablet",
      addrs: "192.0.2.10, 2001:db8::/64",
      tags: "kids",
      lists: "ads,adult",
      rules: "||games.example^",
      safesearch: "on",
      block_mode: "page",
      log_mode: "all",
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      service_id: resolver,
      name: "Kids",
      client_id: "kids-tablet",
      addrs: "192.0.2.10,2001:db8::/64",
      tags: "kids",
      lists: "ads,adult",
      rules: "||games.example^",
      blocked_services: "",
      paused_until: "",
      safesearch: "on",
      block_mode: "page",
      log_mode: "all",
      enabled: true,
      ddns: { configured: false, issued_at: null },
    });
    expect(r.body.created_at).toMatch(ISO_MS);
    expect(r.body.account).toBeUndefined();
    const list = await ro("GET", `/services/${resolver}/clients`);
    expect(list.body.data.map((c: any) => c.id)).toContain(r.body.id);

    const p = await h.api("PATCH", `/services/${resolver}/clients/${r.body.id}`, {
      enabled: false,
      lists: "",
      block_mode: "",
    });
    expect(p.body).toMatchObject({ name: "Kids", enabled: false, lists: "", block_mode: "", client_id: "kids-tablet" });

    expectError(
      await h.api("POST", `/services/${resolver}/clients`, { name: "Other", client_id: "kids-tablet" }),
      409,
      "conflict",
      /already used/,
    );
    // Patching a group to its own client id is no conflict.
    expect(
      (await h.api("PATCH", `/services/${resolver}/clients/${r.body.id}`, { client_id: "kids-tablet" })).status,
    ).toBe(200);

    expect((await h.api("DELETE", `/services/${resolver}/clients/${r.body.id}`)).status).toBe(204);
    expectError(
      await h.api("PATCH", `/services/${resolver}/clients/${r.body.id}`, { enabled: true }),
      404,
      "not_found",
    );
  });

  it("validates client groups", async () => {
    const bad: [unknown, RegExp][] = [
      [{}, /^name: is required/],
      [{ name: "  " }, /^name/],
      [{ name: "x", id: resolver + 1 }, /^id: must be the service id/],
      [{ name: "x", client_id: "-x" }, /^client_id/],
      [{ name: "x", addrs: "home" }, /^addrs: "home"/],
      [{ name: "x", lists: "ads,nope" }, /^lists: unknown blocklist "nope"/],
      [{ name: "x", block_mode: "drop" }, /^block_mode/],
      [{ name: "x", log_mode: "verbose" }, /^log_mode/],
      [{ name: "x", paused_until: "soon" }, /^paused_until/],
    ];
    for (const [body, msg] of bad)
      expectError(await h.api("POST", `/services/${resolver}/clients`, body), 400, "validation_error", msg);
    expectError(
      await h.api("POST", `/services/${authDns}/clients`, { name: "x" }),
      400,
      "validation_error",
      /resolver services/,
    );
    expectError(await ro("POST", `/services/${resolver}/clients`, { name: "x" }), 403, "forbidden");
    expectError(await other("GET", `/services/${resolver}/clients`), 404, "not_found");
  });

  it("issues, re-issues and revokes a DDNS token, shown only when issued", async () => {
    const c = (await h.api("POST", `/services/${resolver}/clients`, { name: "Router" })).body;
    const t1 = await h.api("POST", `/services/${resolver}/clients/${c.id}/ddns-token`, {});
    expect(t1.status).toBe(200);
    expect(t1.body).toMatchObject({
      client_id: c.id,
      token: expect.stringMatching(/^ddns_[0-9a-f]{40}$/),
      revoked: false,
    });
    const listed = (await ro("GET", `/services/${resolver}/clients`)).body.data.find((x: any) => x.id === c.id);
    expect(listed.ddns).toEqual({ configured: true, issued_at: t1.body.issued_at });
    expect(JSON.stringify(listed)).not.toContain(t1.body.token);
    const t2 = await h.api("POST", `/services/${resolver}/clients/${c.id}/ddns-token`);
    expect(t2.body.token).not.toBe(t1.body.token);
    const rv = await h.api("POST", `/services/${resolver}/clients/${c.id}/ddns-token`, { revoke: true });
    expect(rv.body).toMatchObject({ token: null, revoked: true });
    expect((await ro("GET", `/services/${resolver}/clients`)).body.data.find((x: any) => x.id === c.id).ddns).toEqual({
      configured: false,
      issued_at: null,
    });
    expectError(await ro("POST", `/services/${resolver}/clients/${c.id}/ddns-token`, {}), 403, "forbidden");
    expectError(await h.api("POST", `/services/${resolver}/clients/999999/ddns-token`, {}), 404, "not_found");
  });
});

describe("rule-test, query log and stats", () => {
  it("evaluates rules given in the body, or the service's own rules and lists", async () => {
    const rules = ["||ads.example^", "@@||ok.ads.example^", "! a comment", "|exact.example|"];
    const t = (name: string, body: Record<string, unknown> = { rules }) =>
      h.api("POST", `/services/${resolver}/rule-test`, { name, ...body });
    expect((await t("x.ads.example")).body).toEqual({
      name: "x.ads.example",
      qtype: "A",
      action: "blocked",
      matched: "||ads.example^",
    });
    expect((await t("OK.ads.example.")).body).toMatchObject({
      name: "ok.ads.example",
      action: "pass",
      matched: "@@||ok.ads.example^",
    });
    expect((await t("exact.example")).body).toMatchObject({ action: "blocked", matched: "|exact.example|" });
    expect((await t("sub.exact.example")).body).toMatchObject({ action: "pass", matched: null });
    // A read-scope token may test rules.
    expect(
      (await ro("POST", `/services/${resolver}/rule-test`, { name: "ads.example", qtype: "AAAA", rules })).body,
    ).toMatchObject({ qtype: "AAAA", action: "blocked" });

    await h.api("PUT", `/services/${resolver}/filter`, {
      custom_block: "bad.example",
      rewrites: "nas.home.example -> 192.0.2.5",
    });
    await h.api("PUT", `/services/${resolver}/policy`, { rules: "||tracker.example^" });
    expect((await t("a.bad.example", {})).body).toMatchObject({ action: "blocked", matched: "||bad.example^" });
    expect((await t("tracker.example", {})).body).toMatchObject({ action: "blocked", matched: "||tracker.example^" });
    expect((await t("nas.home.example", {})).body).toMatchObject({
      action: "rewritten",
      matched: "nas.home.example -> 192.0.2.5",
    });
    await h.api("PUT", `/services/${resolver}/filter`, {});
    await h.api("PUT", `/services/${resolver}/policy`, {});

    expectError(await t("bad name!"), 400, "validation_error", /^name/);
    expectError(await t("a.example", { qtype: "XYZ" }), 400, "validation_error", /^qtype/);
    expectError(
      await h.api("POST", `/services/${authDns}/rule-test`, { name: "a.example" }),
      400,
      "validation_error",
      /resolver services/,
    );
  });

  it("serves an empty query log and zero statistics", async () => {
    const log = await ro("GET", `/services/${resolver}/query-log?q=ads&action=blocked&limit=10`);
    expect(log.status).toBe(200);
    expect(log.body.data).toEqual([]);
    expectError(await ro("GET", `/services/${resolver}/query-log?action=dropped`), 400, "validation_error", /^action/);
    const stats = await ro("GET", `/services/${authDns}/stats?days=3`);
    expect(stats.body).toMatchObject({ service_id: authDns, days: 3, queries: 0, blocked: 0 });
    expect(stats.body.by_day).toHaveLength(3);
    expect(stats.body.by_day[2].date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expectError(await ro("GET", `/services/${resolver}/stats?days=0`), 400, "validation_error", /^days/);
    expectError(await other("GET", `/services/${resolver}/stats`), 404, "not_found");
  });
});
