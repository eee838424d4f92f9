// The real undici fetch and keep-alive Agent against a real HTTP server on loopback.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, NetworkError } from "../../provider/src/client";
import { TOKEN } from "../helpers/scripted-client";

let server: Server;
let base: string;
let connections = 0;
const requestsPerSocket = new Map<number, number>();
let limitedHits = 0;
const seenAuth = new Set<string>();

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "x-service-api-version": "1",
    "x-ratelimit-limit": "300",
    "x-ratelimit-remaining": "250",
    "x-ratelimit-reset": "10",
    ...headers,
  });
  res.end(text);
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  seenAuth.add(req.headers.authorization ?? "");
  const port = req.socket.remotePort ?? 0;
  requestsPerSocket.set(port, (requestsPerSocket.get(port) ?? 0) + 1);
  const url = new URL(req.url ?? "/", "http://localhost");
  if (url.pathname === "/api/v1/me") {
    limitedHits++;
    if (limitedHits === 1) {
      send(
        res,
        429,
        { error: { code: "rate_limited", message: "slow down" } },
        { "retry-after": "1", "x-ratelimit-remaining": "0" },
      );
    } else {
      send(res, 200, { id: 1, auth: "token" });
    }
    return;
  }
  if (url.pathname === "/api/v1/dns/zones") {
    const limit = Number(url.searchParams.get("limit"));
    const offset = Number(url.searchParams.get("offset"));
    const all = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, name: `z${i + 1}.test` }));
    const data = all.slice(offset, offset + limit);
    const next = offset + limit < all.length ? offset + limit : null;
    send(res, 200, { data, paging: { limit, offset, count: data.length, next_offset: next } });
    return;
  }
  if (url.pathname === "/api/v1/drop") {
    // Read the whole request, then kill the socket: the POST was sent and maybe processed.
    req.resume();
    req.on("end", () => req.socket.destroy());
    return;
  }
  send(res, 404, { error: { code: "not_found", message: "no route" } });
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  server = createServer(handle);
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("ApiClient over real HTTP", () => {
  it("waits out a 429 and reads a 3-page list over kept-alive connections", async () => {
    const logs: string[] = [];
    const client = new ApiClient({ baseUrl: base, token: TOKEN, onLog: (_l, m) => logs.push(m) });
    try {
      const started = Date.now();
      await expect(client.get("/me")).resolves.toEqual({ id: 1, auth: "token" });
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);

      const zones = await client.listAll<{ id: number }>("/dns/zones", { pageSize: 2 });
      expect(zones.map((z) => z.id)).toEqual([1, 2, 3, 4, 5]);

      expect(client.stats()).toMatchObject({ requests: 5, retries: 1, rateLimited: 1 });
      // undici may open a second socket when a request is dispatched in the same tick that the
      // previous response is released, so "1" would be flaky; reuse is what matters.
      expect(connections).toBeLessThanOrEqual(2);
      expect(Math.max(...requestsPerSocket.values())).toBeGreaterThanOrEqual(2);
      expect([...requestsPerSocket.values()].reduce((a, b) => a + b, 0)).toBe(5);
      expect([...seenAuth]).toEqual([`Bearer ${TOKEN}`]);
      expect(logs.join("\n")).not.toContain(TOKEN);
    } finally {
      await client.close();
    }
  });

  it("classifies real undici failures: a refused POST is retried, a POST dropped after sending is not", async () => {
    const client = new ApiClient({ baseUrl: base, token: TOKEN, sleep: async () => {}, maxRetries: 2 });
    try {
      const err = await client.post("/drop", { a: 1 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NetworkError);
      expect((err as NetworkError).notSent).toBe(false);
      expect(client.stats().requests).toBe(1);
    } finally {
      await client.close();
    }

    // A port that was just free: nothing listens there, so the connection is refused before
    // anything is sent. (Port 1 would not do: fetch refuses it as a "bad port" without connecting.)
    const closedPort = await freePort();
    const refused = new ApiClient({
      baseUrl: `http://127.0.0.1:${closedPort}/api/v1`,
      token: TOKEN,
      sleep: async () => {},
      maxRetries: 2,
    });
    try {
      const err = await refused.post("/dns/zones", { name: "a.test" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NetworkError);
      expect((err as NetworkError).notSent).toBe(true);
      expect((err as NetworkError).causeCode).toBe("ECONNREFUSED");
      expect((err as Error).message).not.toContain(TOKEN);
      expect(refused.stats().requests).toBe(3);
    } finally {
      await refused.close();
    }
  });
});
