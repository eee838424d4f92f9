import { describe, expect, it } from "vitest";
import {
  ApiError,
  NetworkError,
  RateLimitedError,
  UpstreamError,
  backoffDelay,
  parseRateLimitReset,
  parseRetryAfter,
} from "../../provider/src/client";
import { FakeClock, apiError, caught, json, makeClient, systemError } from "../helpers/scripted-client";
import { until } from "../helpers/until";

describe("backoff", () => {
  it("grows exponentially from 250 ms and is capped at 30 s", () => {
    const max = () => 1;
    expect(Array.from({ length: 10 }, (_, i) => backoffDelay(i, max))).toEqual([
      250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
    expect(backoffDelay(1000, max)).toBe(30000);
  });

  it("uses full jitter from the injected random source", () => {
    const draws: number[] = [];
    const random = () => {
      draws.push(0.25);
      return 0.25;
    };
    expect(backoffDelay(3, random)).toBe(500);
    expect(backoffDelay(0, () => 0)).toBe(0);
    expect(draws).toEqual([0.25]);
    // A broken random source cannot produce a negative or runaway delay.
    expect(backoffDelay(2, () => -5)).toBe(0);
    expect(backoffDelay(2, () => 7)).toBe(1000);
  });

  it("parses wait hints defensively", () => {
    expect(parseRetryAfter("0", 0)).toBe(0);
    expect(parseRetryAfter(" 2.5 ", 0)).toBe(2500);
    expect(parseRetryAfter("-1", 0)).toBeUndefined();
    expect(parseRetryAfter(null, 0)).toBeUndefined();
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", Date.parse("2015-10-21T07:27:00Z"))).toBe(60_000);
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", Date.parse("2015-10-21T08:00:00Z"))).toBe(0);
    expect(parseRateLimitReset("12", 0)).toBe(12_000);
    expect(parseRateLimitReset("1700000030", 1_700_000_000_000)).toBe(30_000);
    expect(parseRateLimitReset("banana", 0)).toBeUndefined();
  });
});

describe("retries through the client", () => {
  it("waits Retry-After after a 429 and a random part of a second more, then succeeds", async () => {
    const { client, calls, clock } = makeClient([
      apiError(429, "rate_limited", "too many requests", { "Retry-After": "3" }),
      json(200, { id: 1 }),
    ]);
    await expect(client.get("/dns/zones/1")).resolves.toEqual({ id: 1 });
    expect(calls).toHaveLength(2);
    // The retry's own sleep, then the rest of the client's pause: random 0.5 of the 1 s spread.
    expect(clock.sleeps).toEqual([3000, 500]);
    expect(calls[1]!.at).toBe(3500);
    expect(client.stats()).toEqual({ requests: 2, retries: 1, rateLimited: 1, throttledMs: 3500 });
  });

  it("uses X-RateLimit-Reset when a 429 has no Retry-After", async () => {
    const { client, clock } = makeClient([
      apiError(429, "rate_limited", "slow down", { "X-RateLimit-Reset": "7", "X-RateLimit-Remaining": "0" }),
      json(200, []),
    ]);
    await client.get("/dns/zones");
    expect(clock.sleeps[0]).toBe(7000);
  });

  it("falls back to backoff on a 429 with no hint at all", async () => {
    const { client, clock } = makeClient([apiError(429, "rate_limited", "x"), json(200, {})], { random: () => 1 });
    await client.get("/x");
    expect(clock.sleeps[0]).toBe(250);
  });

  it("retries a POST after a 429 (the server refused it before processing)", async () => {
    const { client, calls } = makeClient([
      apiError(429, "rate_limited", "x", { "Retry-After": "1" }),
      json(201, { id: 9 }),
    ]);
    await expect(client.post("/dns/zones", { name: "a.test" })).resolves.toEqual({ id: 9 });
    expect(calls).toHaveLength(2);
    expect(calls[1]!.body).toEqual({ name: "a.test" });
  });

  it("retries a GET on 503 and succeeds on the 3rd attempt, with growing jittered backoff", async () => {
    const { client, calls, clock } = makeClient([
      apiError(503, "upstream_error", "dependency down"),
      apiError(503, "upstream_error", "dependency down"),
      json(200, { ok: true }),
    ]);
    await expect(client.get("/services")).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(3);
    // random() = 0.5: half of 250, then half of 500.
    expect(clock.sleeps).toEqual([125, 250]);
    expect(client.stats()).toMatchObject({ requests: 3, retries: 2, rateLimited: 0, throttledMs: 0 });
  });

  it("never retries a POST that got a 503: exactly one call, UpstreamError", async () => {
    const { client, calls, clock } = makeClient([apiError(503, "upstream_error", "dependency down"), json(201, {})]);
    const err = await caught(client.post("/dns/zones", { name: "a.test" }));
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as UpstreamError).retryable).toBe(false);
    expect(calls).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("never retries a POST whose 5xx has no error code either", async () => {
    const { client, calls } = makeClient([new Response("Bad Gateway", { status: 502 }), json(201, {})]);
    const err = await caught(client.post("/x", {}));
    expect((err as ApiError).code).toBe("http_502");
    expect(calls).toHaveLength(1);
  });

  it.each(["put", "patch", "delete"] as const)("retries %s on 5xx", async (m) => {
    const { client, calls } = makeClient([apiError(502, "upstream_error", "x"), new Response(null, { status: 204 })]);
    const p = m === "delete" ? client.delete("/x/1") : client[m]("/x/1", { a: 1 });
    await expect(p).resolves.toBeUndefined();
    expect(calls).toHaveLength(2);
    expect(calls[0]!.method).toBe(m.toUpperCase());
  });

  it("retries a POST after connection refused (not sent)", async () => {
    const { client, calls, logs } = makeClient([systemError("ECONNREFUSED"), json(201, { id: 5 })]);
    await expect(client.post("/dns/zones", { name: "a.test" })).resolves.toEqual({ id: 5 });
    expect(calls).toHaveLength(2);
    expect(
      logs.some((l) => l.level === "debug" && l.message.includes("ECONNREFUSED") && l.message.includes("retrying")),
    ).toBe(true);
  });

  it("does not retry a POST whose connection was reset after sending", async () => {
    const { client, calls } = makeClient([systemError("ECONNRESET", "read ECONNRESET"), json(201, {})]);
    const err = await caught(client.post("/dns/zones", { name: "a.test" }));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).notSent).toBe(false);
    expect((err as NetworkError).causeCode).toBe("ECONNRESET");
    expect(calls).toHaveLength(1);
  });

  it("retries a GET after a reset", async () => {
    const { client, calls } = makeClient([systemError("UND_ERR_SOCKET", "other side closed"), json(200, [])]);
    await expect(client.get("/x")).resolves.toEqual([]);
    expect(calls).toHaveLength(2);
  });

  it("stops after maxRetries and throws the last error", async () => {
    const { client, calls, clock } = makeClient([apiError(503, "upstream_error", "still down")], { maxRetries: 2 });
    const err = await caught(client.get("/x"));
    expect(err).toBeInstanceOf(UpstreamError);
    expect(calls).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(2);
  });

  it("caps the backoff sequence at 30 s across many retries", async () => {
    const { client, clock } = makeClient([apiError(500, "upstream_error", "x")], { maxRetries: 9, random: () => 1 });
    await caught(client.get("/x"));
    expect(clock.sleeps).toEqual([250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it("prefers Retry-After on a 503 over the backoff", async () => {
    const { client, clock } = makeClient([apiError(503, "upstream_error", "x", { "Retry-After": "4" }), json(200, {})]);
    await client.get("/x");
    expect(clock.sleeps).toEqual([4000]);
  });

  it("does not sit out an absurd Retry-After: fails with RateLimitedError at once", async () => {
    const { client, calls, clock } = makeClient([
      apiError(429, "rate_limited", "x", { "Retry-After": "86400" }),
      json(200, {}),
    ]);
    const err = await caught(client.get("/x"));
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(86_400_000);
    expect(calls).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("maxRetries 0 disables retries", async () => {
    const { client, calls } = makeClient([apiError(503, "upstream_error", "x"), json(200, {})], { maxRetries: 0 });
    await caught(client.get("/x"));
    expect(calls).toHaveLength(1);
  });

  it("times out a stalled attempt and retries it for GET only", async () => {
    const hang = (_c: unknown, init: { signal: AbortSignal }) =>
      new Promise<Response>((_, reject) => init.signal.addEventListener("abort", () => reject(init.signal.reason)));
    const get = makeClient([hang, json(200, { ok: 1 })], { timeoutMs: 20 });
    await expect(get.client.get("/x")).resolves.toEqual({ ok: 1 });
    expect(get.calls).toHaveLength(2);

    const post = makeClient([hang, json(200, {})], { timeoutMs: 20 });
    const err = await caught(post.client.post("/x", {}));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).code).toBe("timeout");
    expect(post.calls).toHaveLength(1);
  });
});

describe("cancellation", () => {
  it("lets a write already on the wire finish, but aborts a read in flight", async () => {
    let release: ((r: Response) => void) | undefined;
    const slow = (_c: unknown, init: { signal: AbortSignal }) =>
      new Promise<Response>((resolve, reject) => {
        release = resolve;
        init.signal.addEventListener("abort", () => reject(init.signal.reason));
      });
    const post = makeClient([slow]);
    const ctrl = new AbortController();
    const created = post.client.post("/dns/zones", { name: "a.test" }, { signal: ctrl.signal });
    await until(() => release !== undefined); // the write is on the wire
    ctrl.abort(new Error("cancelled by the engine"));
    release!(new Response(JSON.stringify({ id: 9 }), { status: 201, headers: { "content-type": "application/json" } }));
    await expect(created).resolves.toEqual({ id: 9 });

    const get = makeClient([slow]);
    const ctrl2 = new AbortController();
    release = undefined;
    const read = get.client.get("/dns/zones/9", { signal: ctrl2.signal });
    await until(() => release !== undefined); // the read is on the wire
    ctrl2.abort(new Error("cancelled by the engine"));
    expect(((await caught(read)) as Error).message).toBe("cancelled by the engine");
  });

  it("an abort during a retry wait stops the wait and rejects with the abort reason", async () => {
    const clock = new FakeClock();
    const ctrl = new AbortController();
    let waiting: (() => void) | undefined;
    const pendingSleep = (ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        clock.sleeps.push(ms);
        waiting = resolve;
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    const { client, calls } = makeClient([apiError(429, "rate_limited", "x", { "Retry-After": "60" }), json(200, {})], {
      clock,
      sleep: pendingSleep,
    });
    const p = client.get("/x", { signal: ctrl.signal });
    await until(() => waiting !== undefined);
    expect(clock.sleeps).toEqual([60_000]);
    expect(waiting).toBeDefined();
    ctrl.abort(new Error("cancelled by the engine"));
    const err = await caught(p);
    expect((err as Error).message).toBe("cancelled by the engine");
    expect(calls).toHaveLength(1);
  });

  it("an already-aborted signal sends nothing", async () => {
    const { client, calls } = makeClient([json(200, {})]);
    const ctrl = new AbortController();
    ctrl.abort();
    const err = await caught(client.get("/x", { signal: ctrl.signal }));
    expect((err as Error).name).toBe("AbortError");
    expect(calls).toHaveLength(0);
  });

  it("an abort during the request itself is not retried and not wrapped", async () => {
    const ctrl = new AbortController();
    const { client, calls } = makeClient([
      (_c, init) =>
        new Promise<Response>((_, reject) => {
          init.signal.addEventListener("abort", () => reject(init.signal.reason));
          setTimeout(() => ctrl.abort(new Error("stop")), 5);
        }),
      json(200, {}),
    ]);
    const err = await caught(client.get("/x", { signal: ctrl.signal }));
    expect(err).not.toBeInstanceOf(ApiError);
    expect((err as Error).message).toBe("stop");
    expect(calls).toHaveLength(1);
  });
});
