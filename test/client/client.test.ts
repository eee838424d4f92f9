import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiClient, type ApiError, ApiResponseError, NetworkError } from "../../provider/src/client";
import {
  BASE,
  TOKEN,
  apiError,
  caught,
  json,
  makeClient,
  scriptedFetch,
  systemError,
} from "../helpers/scripted-client";

const Zone = z.object({ id: z.number().int(), name: z.string(), ttl: z.number().optional() });

describe("requests", () => {
  it("joins paths to a base URL with or without a trailing slash, encodes the query, sends auth and JSON", async () => {
    for (const baseUrl of [BASE, `${BASE}/`]) {
      const { fetch, calls } = scriptedFetch([json(200, { id: 1, name: "a.test" })]);
      const client = new ApiClient({ baseUrl, token: TOKEN, fetch, userAgent: "nsp-test/1" });
      await client.post(
        "/dns/zones",
        { name: "a.test" },
        { query: { service_id: 7, tags: ["x", "y"], skip: undefined } },
      );
      const c = calls[0]!;
      expect(c.url).toBe(`${BASE}/dns/zones?service_id=7&tags=x&tags=y`);
      expect(c.method).toBe("POST");
      expect(c.headers).toMatchObject({
        authorization: `Bearer ${TOKEN}`,
        accept: "application/json",
        "content-type": "application/json",
        "user-agent": "nsp-test/1",
      });
      expect(c.body).toEqual({ name: "a.test" });
    }
  });

  it("accepts a path without a leading slash and sends no body or content-type for GET", async () => {
    const { client, calls } = makeClient([json(200, {})]);
    await client.get("me");
    expect(calls[0]!.url).toBe(`${BASE}/me`);
    expect(calls[0]!.headers["content-type"]).toBeUndefined();
    expect(calls[0]!.body).toBeUndefined();
  });

  it("rejects a bad configuration early", () => {
    expect(() => new ApiClient({ baseUrl: "not a url", token: TOKEN })).toThrow(/baseUrl/);
    expect(() => new ApiClient({ baseUrl: "ftp://x.test", token: TOKEN })).toThrow(/http or https/);
    expect(() => new ApiClient({ baseUrl: BASE, token: "" })).toThrow(/token/);
    expect(() => new ApiClient({ baseUrl: BASE, token: TOKEN, maxRetries: -1 })).toThrow(/maxRetries/);
  });

  it("returns undefined for 204 and for an empty 200 body", async () => {
    const { client } = makeClient([new Response(null, { status: 204 }), new Response("", { status: 200 })]);
    await expect(client.delete("/dns/zones/1")).resolves.toBeUndefined();
    await expect(client.get("/x")).resolves.toBeUndefined();
  });

  it("validates with a schema and tolerates unknown extra fields", async () => {
    const { client } = makeClient([json(200, { id: 1, name: "a.test", brand_new_field: true })]);
    await expect(client.get("/dns/zones/1", { schema: Zone })).resolves.toEqual({ id: 1, name: "a.test" });
    const loose = makeClient([json(200, { id: 1, name: "a.test", brand_new_field: true })]);
    await expect(loose.client.get("/dns/zones/1", { schema: z.looseObject(Zone.shape) })).resolves.toEqual({
      id: 1,
      name: "a.test",
      brand_new_field: true,
    });
  });

  it("a schema mismatch is an ApiResponseError naming method, path and field", async () => {
    const { client } = makeClient([json(200, { id: "one", name: 5 })]);
    const err = await caught(client.get("/dns/zones/1", { schema: Zone }));
    expect(err).toBeInstanceOf(ApiResponseError);
    const e = err as ApiResponseError;
    expect(e.code).toBe("invalid_response");
    expect(e.status).toBe(200);
    expect(e.retryable).toBe(false);
    expect(e.message).toMatch(
      /^GET \/dns\/zones\/1: invalid_response: the response does not have the expected shape: id: .*; name: /,
    );
  });

  it("an empty body where a schema wants a value is a clear error", async () => {
    const { client } = makeClient([new Response(null, { status: 204 })]);
    const err = await caught(client.post("/dns/zones", {}, { schema: Zone }));
    expect((err as Error).message).toBe(
      "POST /dns/zones: invalid_response: the response body is empty but a value was expected",
    );
  });

  it("a truncated JSON body is an ApiResponseError, not a crash", async () => {
    const { client } = makeClient([new Response('{"id": 1, "name": "a.te', { status: 200 })]);
    const err = await caught(client.get("/dns/zones/1"));
    expect(err).toBeInstanceOf(ApiResponseError);
    expect((err as Error).message).toMatch(
      /^GET \/dns\/zones\/1: invalid_response: the response body is not valid JSON \(.+\); body \(23 characters\) starts: \{"id": 1/,
    );
  });

  it("an oversized non-JSON body is cut short in the message", async () => {
    const big = `<html>${"lorem ipsum ".repeat(50_000)}</html>`;
    const ok = makeClient([new Response(big, { status: 200 })]);
    const e1 = (await caught(ok.client.get("/x"))) as Error;
    expect(e1).toBeInstanceOf(ApiResponseError);
    expect(e1.message.length).toBeLessThan(600);
    expect(e1.message).toContain(`body (${big.length} characters)`);

    const bad = makeClient([new Response(big, { status: 500 })], { maxRetries: 0 });
    const e2 = (await caught(bad.client.get("/x"))) as ApiError;
    expect(e2.code).toBe("http_500");
    expect(e2.message.length).toBeLessThan(500);
    expect(e2.message).toContain("more characters");
  });

  it("counts requests, retries and 429s in stats()", async () => {
    const { client } = makeClient([
      apiError(429, "rate_limited", "x", { "Retry-After": "1" }),
      apiError(502, "upstream_error", "x"),
      json(200, {}),
    ]);
    await client.get("/x");
    // Retry-After 1 s, lengthened by random 0.5 of its half.
    expect(client.stats()).toEqual({ requests: 3, retries: 2, rateLimited: 1, throttledMs: 1250 });
  });

  it("warns once when the server reports another API version", async () => {
    const { client, logs } = makeClient([json(200, {}, { "X-Service-Api-Version": "2" })]);
    await client.get("/a");
    await client.get("/b");
    expect(logs.filter((l) => l.message.includes("API version"))).toHaveLength(1);
  });

  it("a throwing log sink does not fail the call", async () => {
    const { client } = makeClient([json(200, { a: 1 })], {
      onLog: () => {
        throw new Error("sink broke");
      },
    });
    await expect(client.get("/x")).resolves.toEqual({ a: 1 });
  });
});

describe("the token never leaks", () => {
  it("is absent from errors, their JSON and inspection, the client's inspection and every log line", async () => {
    const echo = `invalid token ${TOKEN} (header was "Authorization: Bearer ${TOKEN}")`;
    const transportError = Object.assign(new TypeError("fetch failed"), {
      cause: Object.assign(new Error(`socket hang up while sending authorization=Bearer ${TOKEN}`), {
        code: "ECONNRESET",
      }),
      request: { headers: { authorization: `Bearer ${TOKEN}` } },
    });
    const { client, logs } = makeClient(
      [
        apiError(401, "unauthorized", echo),
        new Response(`<pre>${TOKEN}</pre>`, { status: 200 }),
        apiError(503, "upstream_error", `upstream said ${TOKEN}`),
        transportError,
      ],
      { maxRetries: 1 },
    );
    const errors = [
      await caught(client.get("/me")),
      await caught(client.get("/me")),
      await caught(client.get("/me")), // 503, then the transport error on the retry
    ] as ApiError[];
    expect(errors[0]!.code).toBe("unauthorized");
    expect(errors[1]).toBeInstanceOf(ApiResponseError);
    expect(errors[2]).toBeInstanceOf(NetworkError);

    const texts: string[] = [];
    for (const e of errors) {
      texts.push(
        e.message,
        e.stack ?? "",
        e.serverMessage,
        JSON.stringify(e),
        inspect(e, { depth: 10, showHidden: true }),
        String(e),
      );
    }
    texts.push(inspect(client, { depth: 10, showHidden: true }), JSON.stringify(client), String(client));
    texts.push(...logs.map((l) => l.message));
    expect(logs.length).toBeGreaterThan(0);
    for (const t of texts) {
      expect(t).not.toContain(TOKEN);
      expect(t).not.toContain(TOKEN.slice(4));
    }
    expect(errors[0]!.message).toContain("[REDACTED]");
  });

  it("builds the Authorization header only for the wire", async () => {
    const { client } = makeClient([systemError("ECONNREFUSED")], { maxRetries: 0 });
    const err = (await caught(client.post("/x", {}))) as NetworkError;
    expect(err.notSent).toBe(true);
    expect(Object.keys(client)).not.toContain("token");
    expect(JSON.stringify(err)).not.toContain("authorization");
  });
});
