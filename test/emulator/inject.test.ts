// The pipeline driven in-process: buildApp() and fastify's inject(), no socket. Each test checks
// one step of the onRequest hook, the error handler or the route table against a small app.
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { buildApp, route } from "../../emulator/src";

const TOKEN = "svc_0123456789abcdef0123456789abcdef";
const READ = "svc_fedcba9876543210fedcba9876543210";
const auth = (token = TOKEN) => ({ authorization: `Bearer ${token}` });

const routes = [
  route({
    method: "GET",
    path: "/things/:id",
    scope: "read",
    handler: (ctx) => ({ id: ctx.params.id, type: typeof ctx.params.id }),
  }),
  route({
    method: "GET",
    path: "/things/by-name/{name}",
    scope: "read",
    handler: (ctx) => ({ name: ctx.params.name }),
  }),
  route({
    method: "POST",
    path: "/things",
    scope: "write",
    body: z.strictObject({ name: z.string() }),
    handler: (ctx) => {
      ctx.status(201);
      ctx.header("Location", `/things/${ctx.body.name}`);
      return { name: ctx.body.name };
    },
  }),
  route({ method: "DELETE", path: "/things/:id", scope: "write", handler: () => undefined }),
  route({
    method: "GET",
    path: "/boom",
    scope: "read",
    handler: () => {
      throw new Error("handler bug");
    },
  }),
];

const app = buildApp({
  routes,
  rateLimitPerMinute: 10,
  now: () => 1_700_000_000_000,
  accounts: [
    { name: "acme", token: TOKEN },
    { name: "acme", token: READ, scope: "read" },
  ],
});
afterAll(() => app.fastify.close());

describe("buildApp() through inject", () => {
  it("hands a handler an integer id and a decoded string segment; a literal segment wins over a parameter", async () => {
    const byId = await app.fastify.inject({ method: "GET", url: "/api/v1/things/42", headers: auth() });
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toEqual({ id: 42, type: "number" });
    expect(byId.headers["x-service-api-version"]).toBe("1");
    expect(byId.headers["x-ratelimit-limit"]).toBe("10");
    const byName = await app.fastify.inject({ url: "/api/v1/things/by-name/a%20b/", headers: auth() });
    expect(byName.json()).toEqual({ name: "a b" });
  });

  it("answers a non-integer id not_found, and a missing method 405 with the path's methods", async () => {
    const bad = await app.fastify.inject({ url: "/api/v1/things/abc", headers: auth() });
    expect(bad.statusCode).toBe(404);
    expect(bad.json()).toEqual({ error: { code: "not_found", message: "path not found" } });
    const put = await app.fastify.inject({ method: "PUT", url: "/api/v1/things/7", headers: auth() });
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toBe("DELETE, GET");
    expect(put.json().error.code).toBe("method_not_allowed");
  });

  it("authenticates before it routes, and checks scope before the body", async () => {
    const anon = await app.fastify.inject({ url: "/api/v1/nowhere" });
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual({ error: { code: "unauthorized", message: "missing bearer token" } });
    const readOnly = await app.fastify.inject({
      method: "POST",
      url: "/api/v1/things",
      headers: auth(READ),
      payload: "{not json",
    });
    expect(readOnly.statusCode).toBe(403);
    expect(readOnly.json().error.code).toBe("forbidden");
  });

  it("validates the body against the route's schema, naming the field, and sends the handler's status and headers", async () => {
    const bad = await app.fastify.inject({ method: "POST", url: "/api/v1/things", headers: auth(), payload: { n: 1 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe("name: is required; n: unknown field");
    // No content type at all: the body is still read as JSON.
    const made = await app.fastify.inject({
      method: "POST",
      url: "/api/v1/things",
      headers: auth(),
      payload: Buffer.from('{"name":"x"}'),
    });
    expect(made.statusCode).toBe(201);
    expect(made.headers.location).toBe("/things/x");
    expect(made.headers["content-type"]).toBe("application/json; charset=utf-8");
    const gone = await app.fastify.inject({ method: "DELETE", url: "/api/v1/things/3", headers: auth() });
    expect(gone.statusCode).toBe(204);
    expect(gone.body).toBe("");
  });

  it("turns a handler's own failure into a 500 upstream_error", async () => {
    const stderr = process.stderr.write;
    process.stderr.write = () => true;
    try {
      const r = await app.fastify.inject({ url: "/api/v1/boom", headers: auth() });
      expect(r.statusCode).toBe(500);
      expect(r.json()).toEqual({ error: { code: "upstream_error", message: "internal emulator error" } });
    } finally {
      process.stderr.write = stderr;
    }
  });

  it("answers an injected 5xx fault and counts it, while the control API stays outside the stats", async () => {
    app.resetStats();
    const set = await app.fastify.inject({
      method: "PUT",
      url: "/_emulator/faults",
      payload: { rate: 1, kinds: ["error5xx"], count: 1, status: 503 },
    });
    expect(set.statusCode).toBe(200);
    const r = await app.fastify.inject({ url: "/api/v1/things/1", headers: auth() });
    expect(r.statusCode).toBe(503);
    expect(r.json().error.code).toBe("upstream_error");
    const stats = app.stats();
    expect(stats.total).toBe(1);
    expect(stats.faults).toEqual({ error5xx: 1 });
    expect(stats.byRoute).toEqual({ "GET /things/:id": 1 });
    const wrong = await app.fastify.inject({ method: "PATCH", url: "/_emulator/faults" });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe("DELETE, GET, PUT");
  });
});
