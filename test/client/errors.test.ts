import { describe, expect, it } from "vitest";
import {
  ApiError,
  ConflictError,
  ForbiddenError,
  LimitExceededError,
  MethodNotAllowedError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  UpstreamError,
  ValidationError,
  errorFromResponse,
  isNotFound,
  networkErrorFrom,
} from "../../provider/src/client";
import { TOKEN, apiError, caught, json, makeClient, systemError } from "../helpers/scripted-client";

const ME = { email: "a@example.test", name: "a", role: "admin", auth: "token", api_enabled: true };
const bodiless404 = () => new Response(null, { status: 404 });

const headers = (h: Record<string, string>) => new Headers(h);

describe("errorFromResponse", () => {
  const table = [
    ["unauthorized", 401, UnauthorizedError],
    ["forbidden", 403, ForbiddenError],
    ["not_found", 404, NotFoundError],
    ["validation_error", 400, ValidationError],
    ["limit_exceeded", 422, LimitExceededError],
    ["conflict", 409, ConflictError],
    ["upstream_error", 502, UpstreamError],
    ["rate_limited", 429, RateLimitedError],
    ["method_not_allowed", 405, MethodNotAllowedError],
  ] as const;

  it.each(table)("maps %s to its class", (code, status, Cls) => {
    const err = errorFromResponse({
      method: "GET",
      path: "/dns/zones/42",
      status,
      body: JSON.stringify({ error: { code, message: "zone 42 not found" } }),
    });
    expect(err).toBeInstanceOf(Cls);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe(Cls.name);
    expect(err.code).toBe(code);
    expect(err.status).toBe(status);
    expect(err.method).toBe("GET");
    expect(err.path).toBe("/dns/zones/42");
    expect(err.message).toBe(`GET /dns/zones/42: ${code}: zone 42 not found`);
    expect(err.serverMessage).toBe("zone 42 not found");
  });

  it("keys on error.code, not on the status", () => {
    const nf = errorFromResponse({
      method: "GET",
      path: "/x",
      status: 400,
      body: JSON.stringify({ error: { code: "not_found", message: "m" } }),
    });
    expect(nf).toBeInstanceOf(NotFoundError);
    expect(isNotFound(nf)).toBe(true);
    const v = errorFromResponse({
      method: "GET",
      path: "/x",
      status: 404,
      body: JSON.stringify({ error: { code: "validation_error", message: "m" } }),
    });
    expect(v).toBeInstanceOf(ValidationError);
    expect(isNotFound(v)).toBe(false);
    // A 429 whose code is a quota refusal is not a rate limit and is not retried.
    const q = errorFromResponse({
      method: "GET",
      path: "/x",
      status: 429,
      body: JSON.stringify({ error: { code: "limit_exceeded", message: "m" } }),
    });
    expect(q).toBeInstanceOf(LimitExceededError);
    expect(q.retryable).toBe(false);
  });

  it("gives an unknown code the base class", () => {
    const err = errorFromResponse({
      method: "POST",
      path: "/a",
      status: 418,
      body: JSON.stringify({ error: { code: "teapot", message: "short and stout" } }),
    });
    expect(err.constructor).toBe(ApiError);
    expect(err.code).toBe("teapot");
    expect(err.message).toBe("POST /a: teapot: short and stout");
    expect(err.retryable).toBe(false);
  });

  it("turns a non-JSON body into http_<status>, never into a NotFoundError", () => {
    const err = errorFromResponse({
      method: "GET",
      path: "/dns/zones/1",
      status: 404,
      body: "<html><body>404 Not Found</body></html>",
    });
    expect(err.constructor).toBe(ApiError);
    expect(err.code).toBe("http_404");
    expect(err.message).toBe("GET /dns/zones/1: http_404: <html><body>404 Not Found</body></html>");
    expect(isNotFound(err)).toBe(false);
  });

  it("treats JSON without error.code as code-less, and an empty body too", () => {
    const a = errorFromResponse({ method: "GET", path: "/x", status: 500, body: JSON.stringify({ message: "boom" }) });
    expect(a.code).toBe("http_500");
    expect(a.serverMessage).toBe("boom");
    expect(a.retryable).toBe(true);
    const b = errorFromResponse({ method: "GET", path: "/x", status: 503, body: "" });
    expect(b.code).toBe("http_503");
    expect(b.message).toBe("GET /x: http_503: empty response body");
  });

  it("decides retryability by code and method", () => {
    const mk = (method: string, status: number, code: string) =>
      errorFromResponse({ method, path: "/x", status, body: JSON.stringify({ error: { code, message: "" } }) });
    expect(mk("GET", 502, "upstream_error").retryable).toBe(true);
    expect(mk("PUT", 502, "upstream_error").retryable).toBe(true);
    expect(mk("POST", 502, "upstream_error").retryable).toBe(false);
    expect(mk("POST", 429, "rate_limited").retryable).toBe(true);
    expect(mk("GET", 500, "conflict").retryable).toBe(false);
    expect(mk("GET", 503, "something_new").retryable).toBe(true);
    expect(mk("POST", 503, "something_new").retryable).toBe(false);
    expect(mk("GET", 400, "validation_error").retryable).toBe(false);
    // An empty message does not leave a dangling separator.
    expect(mk("GET", 409, "conflict").message).toBe("GET /x: conflict");
  });

  it("reads Retry-After as seconds or an HTTP date, and X-RateLimit-Reset on a 429 without it", () => {
    const body = JSON.stringify({ error: { code: "rate_limited", message: "slow down" } });
    expect(
      errorFromResponse({ method: "GET", path: "/x", status: 429, body, headers: headers({ "Retry-After": "3" }) })
        .retryAfterMs,
    ).toBe(3000);
    const now = Date.parse("2026-11-21T12:00:00Z");
    expect(
      errorFromResponse({
        method: "GET",
        path: "/x",
        status: 429,
        body,
        nowMs: now,
        headers: headers({ "Retry-After": "Sat, 21 Nov 2026 12:00:07 GMT" }),
      }).retryAfterMs,
    ).toBe(7000);
    expect(
      errorFromResponse({
        method: "GET",
        path: "/x",
        status: 429,
        body,
        headers: headers({ "X-RateLimit-Reset": "9" }),
      }).retryAfterMs,
    ).toBe(9000);
    expect(
      errorFromResponse({
        method: "GET",
        path: "/x",
        status: 429,
        body,
        headers: headers({ "Retry-After": "2", "X-RateLimit-Reset": "60" }),
      }).retryAfterMs,
    ).toBe(2000);
    expect(
      errorFromResponse({ method: "GET", path: "/x", status: 429, body, headers: headers({ "Retry-After": "soon" }) })
        .retryAfterMs,
    ).toBeUndefined();
  });

  it("truncates a huge server message and scrubs an echoed token", () => {
    const huge = `bad header Authorization: Bearer ${TOKEN} ${"x".repeat(100_000)}`;
    const err = errorFromResponse({
      method: "GET",
      path: "/x",
      status: 400,
      body: JSON.stringify({ error: { code: "validation_error", message: huge } }),
      secrets: [TOKEN],
    });
    expect(err.message.length).toBeLessThan(500);
    expect(err.message).toContain("more characters");
    expect(err.message).not.toContain(TOKEN);
    expect(err.message).toContain("[REDACTED]");
  });

  it("scrubs a token echoed in a non-JSON body even without being told the secret", () => {
    const err = errorFromResponse({
      method: "GET",
      path: "/x",
      status: 502,
      body: `proxy saw authorization: Bearer ${TOKEN}`,
    });
    expect(err.message).not.toContain(TOKEN);
  });
});

describe("networkErrorFrom", () => {
  it("flags connection-phase failures as not sent, and finds codes inside AggregateError", () => {
    const refused = networkErrorFrom(systemError("ECONNREFUSED"), { method: "POST", path: "/x" });
    expect(refused).toBeInstanceOf(NetworkError);
    expect(refused.notSent).toBe(true);
    expect(refused.retryable).toBe(true);
    expect(refused.causeCode).toBe("ECONNREFUSED");
    expect(refused.status).toBe(0);
    expect(refused.message).toMatch(/^POST \/x: network_error: fetch failed: connect ECONNREFUSED/);

    const agg = new TypeError("fetch failed", {
      cause: new AggregateError(
        [Object.assign(new Error("connect ECONNREFUSED ::1:443"), { code: "ECONNREFUSED" })],
        "x",
      ),
    });
    expect(networkErrorFrom(agg, { method: "POST", path: "/x" }).notSent).toBe(true);

    const reset = networkErrorFrom(systemError("ECONNRESET", "read ECONNRESET"), { method: "POST", path: "/x" });
    expect(reset.notSent).toBe(false);
    expect(reset.retryable).toBe(false);
    expect(networkErrorFrom(systemError("ECONNRESET"), { method: "GET", path: "/x" }).retryable).toBe(true);

    const tls = networkErrorFrom(systemError("CERT_HAS_EXPIRED"), { method: "GET", path: "/x" });
    expect(tls.retryable).toBe(false);

    const timeout = networkErrorFrom(new Error("aborted"), { method: "GET", path: "/x", timedOut: true });
    expect(timeout.code).toBe("timeout");
    expect(timeout.notSent).toBe(false);
  });
});

describe("errors through the client", () => {
  it("never retries a 4xx other than 429 and reports the API's code", async () => {
    const { client, calls } = makeClient([apiError(409, "conflict", "zone example.com already exists")]);
    const err = await caught(client.post("/dns/zones", { name: "example.com" }));
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as Error).message).toBe("POST /dns/zones: conflict: zone example.com already exists");
    expect(calls).toHaveLength(1);
  });

  it("leaves the query string out of the error path", async () => {
    const { client } = makeClient([apiError(404, "not_found", "zone 42 not found"), json(200, ME)]);
    const err = await caught(client.get("/dns/zones/42", { query: { expand: "records" } }));
    expect(isNotFound(err)).toBe(true);
    expect((err as ApiError).path).toBe("/dns/zones/42");
    expect((err as Error).message).toBe("GET /dns/zones/42: not_found: zone 42 not found");
  });

  it("reports a redirect instead of following it with the token", async () => {
    const { client, calls } = makeClient([
      new Response(null, { status: 301, headers: { location: "https://elsewhere.test/" } }),
    ]);
    const err = await caught(client.get("/me"));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("http_301");
    expect((err as Error).message).toContain("redirect to https://elsewhere.test/");
    expect(calls).toHaveLength(1);
  });
});

describe("a 404 is trusted only once GET /me shows the base URL reaches the API", () => {
  it("turns a bodiless 404 into not_found after one probe, and probes once per client", async () => {
    const { client, calls } = makeClient([bodiless404(), json(200, ME), bodiless404()]);
    const first = await caught(client.get("/dns/zones/42"));
    expect(isNotFound(first)).toBe(true);
    expect(first).toBeInstanceOf(NotFoundError);
    expect(isNotFound(await caught(client.delete("/dns/zones/43")))).toBe(true);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(["GET /dns/zones/42", "GET /me", "DELETE /dns/zones/43"]);
  });

  it("names baseUrl and its missing /api/v1 when the probe is a 404 too, with or without a body", async () => {
    for (const notThere of [bodiless404(), apiError(404, "not_found", "path not found")]) {
      const { client, calls } = makeClient([notThere], { baseUrl: "https://api.nsp.example" });
      const err = await caught(client.get("/dns/zones/42"));
      expect(isNotFound(err)).toBe(false);
      expect((err as ApiError).code).toBe("base_url_not_api");
      expect((err as Error).message).toContain("baseUrl https://api.nsp.example does not reach the API");
      expect((err as Error).message).toContain("missing its /api/v1 prefix (try https://api.nsp.example/api/v1)");
      expect((err as Error).message).not.toContain(TOKEN);
      // The verdict is kept: later calls fail the same way without probing again.
      expect(((await caught(client.get("/dns/zones/43"))) as ApiError).code).toBe("base_url_not_api");
      expect(calls.filter((c) => c.path.endsWith("/me"))).toHaveLength(1);
    }
  });

  it("leaves a bodiless 404 as it is when the probe cannot tell, and probes again next time", async () => {
    const { client, calls } = makeClient([
      bodiless404(),
      apiError(401, "unauthorized", "bad token"),
      bodiless404(),
      json(200, ME),
    ]);
    const err = await caught(client.get("/dns/zones/42"));
    expect(isNotFound(err)).toBe(false);
    expect((err as ApiError).code).toBe("http_404");
    expect(isNotFound(await caught(client.get("/dns/zones/42")))).toBe(true);
    expect(calls.filter((c) => c.path === "/me")).toHaveLength(2);
  });
});

describe("redaction helpers", () => {
  it("scrub removes the raw and URL-encoded secret and any bearer credential; redactHeaders hides authorization", async () => {
    const { scrub, redactHeaders } = await import("../../provider/src/client");
    const secret = "svc_a/b+c";
    expect(scrub(`x ${secret} y ${encodeURIComponent(secret)} z`, [secret])).toBe("x [REDACTED] y [REDACTED] z");
    expect(scrub('{"authorization":"Bearer abc.def"}')).toBe('{"authorization":"Bearer [REDACTED]"}');
    expect(redactHeaders({ Authorization: `Bearer ${TOKEN}`, accept: "application/json" })).toEqual({
      Authorization: "[REDACTED]",
      accept: "application/json",
    });
  });
});
