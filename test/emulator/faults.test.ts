import { connect } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FaultInjector } from "../../emulator/src/control/faults";
import { until } from "../helpers/until";
import { type Harness, authDnsServiceId, startHarness } from "../helpers/emulator-http";

let h: Harness;
let sid: number;
beforeAll(async () => {
  h = await startHarness({ rateLimitPerMinute: 0 });
  sid = await authDnsServiceId(h.api);
});
afterEach(() => h.emu.app.faults.clear());
afterAll(() => h.emu.close());

const zoneNames = async () => (await h.api("GET", "/dns/zones")).body.data.map((z: any) => z.name) as string[];

describe("fault injection", () => {
  it("is off by default and configurable over HTTP", async () => {
    expect((await h.control("GET", "/_emulator/faults")).body).toEqual({ config: null, injected: 0, remaining: null });
    const bad = await h.control("PUT", "/_emulator/faults", { rate: 2, kinds: ["error5xx"] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^rate: /);
    const badKind = await h.control("PUT", "/_emulator/faults", { rate: 1, kinds: ["meteor"] });
    expect(badKind.body.error.message).toMatch(/^kinds\[0\]: /);
    const ok = await h.control("PUT", "/_emulator/faults", { rate: 1, kinds: ["error5xx"], count: 1 });
    expect(ok.status).toBe(200);
    expect(ok.body.remaining).toBe(1);
    const r = await h.api("GET", "/me");
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ error: { code: "upstream_error", message: expect.any(String) } });
    expect(r.headers.get("x-service-api-version")).toBe("1");
    expect((await h.api("GET", "/me")).status).toBe(200); // count exhausted
    expect((await h.control("DELETE", "/_emulator/faults")).status).toBe(204);
  });

  it("error5xx uses the configured status; methods and path narrow the target", async () => {
    h.emu.app.faults.set({ rate: 1, kinds: ["error5xx"], status: 500, methods: ["post"], path: "/dns/zones$" });
    expect((await h.api("GET", "/dns/zones")).status).toBe(200);
    expect((await h.api("GET", "/me")).status).toBe(200);
    const r = await h.api("POST", "/dns/zones", { service_id: sid, name: "never.example" });
    expect(r.status).toBe(500);
    expect(r.body.error.code).toBe("upstream_error");
    expect(await zoneNames()).not.toContain("never.example");
  });

  it("rate_limit_storm answers 429 rate_limited with Retry-After 1", async () => {
    h.emu.app.faults.set({ rate: 1, kinds: ["rate_limit_storm"], count: 2 });
    const r = await h.api("GET", "/me");
    expect(r.status).toBe(429);
    expect(r.body.error.code).toBe("rate_limited");
    expect(r.headers.get("retry-after")).toBe("1");
    expect((await h.api("GET", "/me")).status).toBe(429);
    expect((await h.api("GET", "/me")).status).toBe(200);
  });

  it("reset_before drops the connection and writes nothing", async () => {
    h.emu.app.faults.set({ rate: 1, kinds: ["reset_before"], count: 1 });
    await expect(h.api("POST", "/dns/zones", { service_id: sid, name: "reset-before.example" })).rejects.toThrow();
    expect(await zoneNames()).not.toContain("reset-before.example");
  });

  it("reset_after writes, then drops the connection without answering", async () => {
    h.emu.app.faults.set({ rate: 1, kinds: ["reset_after"], count: 1 });
    await expect(h.api("POST", "/dns/zones", { service_id: sid, name: "reset-after.example" })).rejects.toThrow();
    expect(await zoneNames()).toContain("reset-after.example");
    // a retry of the same create now meets the zone it already made
    const retry = await h.api("POST", "/dns/zones", { service_id: sid, name: "reset-after.example" });
    expect(retry.status).toBe(409);
  });

  it("timeout holds the request until the client gives up", async () => {
    h.emu.app.faults.set({ rate: 1, kinds: ["timeout"], count: 1 });
    const t0 = Date.now();
    await expect(h.api("GET", "/me", undefined, { signal: AbortSignal.timeout(300) })).rejects.toThrow();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect((await h.api("GET", "/me")).status).toBe(200);
  });

  it("timeout with timeoutMs destroys the connection after that long", async () => {
    h.emu.app.faults.set({ rate: 1, kinds: ["timeout"], count: 1, timeoutMs: 100 });
    const t0 = Date.now();
    // No client timeout: the only thing that can end the request is the server dropping it.
    const err = await h.api("GET", "/me").then(
      () => undefined,
      (e: Error) => e,
    );
    expect(Date.now() - t0).toBeGreaterThanOrEqual(90);
    expect(err).toBeInstanceOf(TypeError); // fetch's "the other side closed", not an abort
  });

  it("release drops every held request at once, writing nothing", async () => {
    h.emu.app.faults.set({ rate: 1, kinds: ["timeout"], timeoutMs: 3_600_000, count: 2 });
    const arrived = new Promise<void>((resolve) => {
      let n = 0;
      const onRequest = () => {
        if (++n < 2) return;
        h.emu.server.off("request", onRequest);
        resolve();
      };
      h.emu.server.on("request", onRequest);
    });
    const held = ["held-1.example", "held-2.example"].map((name) =>
      h.api("POST", "/dns/zones", { service_id: sid, name }).then(
        () => "answered",
        (e: Error) => e,
      ),
    );
    await arrived;
    expect((await h.control("POST", "/_emulator/faults/release")).body).toEqual({ released: 2 });
    for (const outcome of await Promise.all(held)) expect(outcome).toBeInstanceOf(TypeError);
    expect(await zoneNames()).not.toContain("held-1.example");
    expect((await h.control("POST", "/_emulator/faults/release")).body).toEqual({ released: 0 });
  });

  it("release ends a latency wait at once, and the request is handled", async () => {
    h.emu.app.faults.set({ rate: 1, kinds: ["latency"], latencyMs: 600_000, count: 1 });
    const slow = h.api("POST", "/dns/zones", { service_id: sid, name: "delayed.example" });
    // The wait starts once the body is read, so the release is repeated until it meets it.
    await until(async () => (await h.control("POST", "/_emulator/faults/release")).body.released === 1);
    expect((await slow).status).toBe(201);
    expect(await zoneNames()).toContain("delayed.example");
  });

  it("a create whose client goes away during a latency wait still lands, and its answer is counted", async () => {
    h.emu.app.resetStats();
    h.emu.app.faults.set({ rate: 1, kinds: ["latency"], latencyMs: 600_000, count: 1 });
    // The client is a socket reset as a killed process's is, once its request is on the wire.
    const url = new URL(`${h.emu.baseUrl}/dns/zones`);
    const body = JSON.stringify({ service_id: sid, name: "abandoned.example" });
    const client = connect(Number(url.port), url.hostname);
    client.on("error", () => {});
    client.write(
      `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${h.emu.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await until(async () => ((await h.control("GET", "/_emulator/stats")).body.faults.latency ?? 0) === 1);
    client.resetAndDestroy();
    // The wait is met only once the body has been read: the request was not lost with its client.
    await until(async () => (await h.control("POST", "/_emulator/faults/release")).body.released === 1);
    await until(async () => {
      const s = (await h.control("GET", "/_emulator/stats")).body;
      return Object.values(s.byStatus as Record<string, number>).reduce((a, b) => a + b, 0) >= s.total;
    });
    expect((await h.control("GET", "/_emulator/stats")).body.byStatus["201"]).toBe(1);
    expect(await zoneNames()).toContain("abandoned.example");
  });

  it("latency delays, then answers normally", async () => {
    h.emu.app.faults.set({ rate: 1, kinds: ["latency"], latencyMs: 200, count: 1 });
    const t0 = Date.now();
    const r = await h.api("GET", "/me");
    expect(r.status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
  });

  it("counts injected faults in the stats, and leaves the control API alone", async () => {
    h.emu.app.resetStats();
    h.emu.app.faults.set({ rate: 1, kinds: ["error5xx"], count: 3 });
    expect((await h.control("GET", "/_emulator/stats")).status).toBe(200);
    await h.api("GET", "/me");
    await h.api("GET", "/me");
    const s = h.emu.app.stats();
    expect(s.faults).toEqual({ error5xx: 2 });
    expect(s.total).toBe(2);
    expect(s.byStatus).toEqual({ "503": 2 });
  });

  it("after lets that many eligible requests through, then injects", () => {
    const f = new FaultInjector();
    f.set({ rate: 1, kinds: ["timeout"], methods: ["POST"], after: 2, count: 1 });
    expect(f.decide("GET", "/api/v1/me")).toBeNull(); // not eligible, not counted
    expect(f.decide("POST", "/api/v1/dns/zones")).toBeNull();
    expect(f.decide("POST", "/api/v1/dns/zones")).toBeNull();
    expect(f.decide("POST", "/api/v1/dns/zones")?.kind).toBe("timeout");
    expect(f.decide("POST", "/api/v1/dns/zones")).toBeNull(); // count exhausted
    expect(f.describe()).toMatchObject({ injected: 1, remaining: 0 });
  });

  it("is deterministic for a seed", () => {
    const run = (seed: number) => {
      const f = new FaultInjector();
      f.set({ rate: 0.5, kinds: ["error5xx", "latency", "reset_after"], seed });
      return Array.from({ length: 40 }, () => f.decide("GET", "/api/v1/me")?.kind ?? "-");
    };
    const a = run(42);
    expect(run(42)).toEqual(a);
    expect(run(43)).not.toEqual(a);
    const injected = a.filter((k) => k !== "-").length;
    expect(injected).toBeGreaterThan(5);
    expect(injected).toBeLessThan(35);
    expect(new Set(a.filter((k) => k !== "-")).size).toBe(3);
  });
});
