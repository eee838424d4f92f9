// The fleet's webhooks against a real HTTP receiver on 127.0.0.1: what it receives, its
// signature, the retries, the address rules. The queue's side runs against a stand-in for pg-boss
// and the database here; test/e2e/fleet-alerts.test.ts runs it on PostgreSQL.
import { spawn } from "node:child_process";
import { createHmac, timingSafeEqual } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InputError } from "../../fleet/src/customers";
import {
  DELIVERY_HEADER,
  deliverOnce,
  deliverWithRetries,
  EVENT_HEADER,
  fleetEvent,
  handleDelivery,
  queueDelivery,
  sign,
  SIGNATURE_HEADER,
  verify,
  WEBHOOK_QUEUE,
  webhookSettings,
  webhookUrl,
  type FleetEvent,
} from "../../fleet/src/webhooks";
import { until } from "../helpers/until";

const SECRET = "whsec-test-0123456789abcdef";

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  servers = [];
});

/** A receiver answering each request with the next status of `statuses` (the last one repeated). */
async function receiver(...statuses: number[]): Promise<{ url: URL; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(statuses[Math.min(received.length - 1, statuses.length - 1)]!).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/fleet`), received };
}

const failed = fleetEvent({
  type: "stack.failed",
  run: "0b6c7d9e-3f52-4b0e-9d43-5a8e1c2f7a10",
  operation: "up",
  stack: "acme",
  attempts: 3,
  error: "error: 409 conflict on dns/zones",
});

/** The receiver's side, as the guide shows it: node:crypto only. */
function receiverVerifies(body: string, header: string | undefined, secret: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(body).digest("hex")}`);
  const given = Buffer.from(header ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe("deliverOnce", () => {
  it("POSTs the event as JSON with its type, its id and a signature that verifies with the secret and with no other", async () => {
    const { url, received } = await receiver(204);
    expect(await deliverOnce(url, failed, SECRET)).toEqual({ status: 204 });
    expect(received).toHaveLength(1);
    const [{ headers, body }] = received as [Received];
    expect(JSON.parse(body)).toEqual(failed);
    expect(headers["content-type"]).toBe("application/json");
    expect(headers[EVENT_HEADER]).toBe("stack.failed");
    expect(headers[DELIVERY_HEADER]).toBe(failed.id);
    const signature = headers[SIGNATURE_HEADER] as string;
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verify(body, signature, SECRET)).toBe(true);
    expect(receiverVerifies(body, signature, SECRET)).toBe(true);
    expect(verify(body, signature, "another-secret-0123456789")).toBe(false);
    expect(receiverVerifies(body, signature, "another-secret-0123456789")).toBe(false);
    // A body changed on the way no longer matches its signature.
    expect(verify(body.replace("acme", "acne"), signature, SECRET)).toBe(false);
    expect(verify(body, "sha256=00", SECRET)).toBe(false);
    expect(verify(body, "", SECRET)).toBe(false);
  });

  it("reports a receiver's error status, a redirect (not followed) and a receiver that is not there", async () => {
    const { url } = await receiver(500);
    expect(await deliverOnce(url, failed, SECRET)).toEqual({
      status: 500,
      error: "the receiver answered 500 Internal Server Error",
    });
    const moved = await receiver(302);
    const redirected = await deliverOnce(moved.url, failed, SECRET);
    expect(redirected.status).toBe(302);
    expect(redirected.error).toMatch(/a redirect, not followed/);
    expect(moved.received).toHaveLength(1);
    // The port of a closed receiver: nothing listens there.
    const gone = await receiver(200);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    expect(await deliverOnce(gone.url, failed, SECRET)).toEqual({ error: expect.stringMatching(/^ECONNREFUSED/) });
  });

  it("sends nothing unsigned: no secret, or one too short to sign with, is an error naming FLEET_WEBHOOK_SECRET", async () => {
    const { url, received } = await receiver(200);
    await expect(deliverOnce(url, failed, undefined)).rejects.toThrow(/^FLEET_WEBHOOK_SECRET: not set/);
    await expect(deliverOnce(url, failed, "short")).rejects.toThrow(/^FLEET_WEBHOOK_SECRET: 5 characters, too short/);
    expect(received).toHaveLength(0);
  });
});

describe("deliverWithRetries", () => {
  it("delivers again after a 500, waiting with backoff, until the receiver takes the event", async () => {
    const { url, received } = await receiver(500, 200);
    const waits: number[] = [];
    const attempts: [number, number | undefined][] = [];
    const result = await deliverWithRetries(url, failed, SECRET, {
      sleep: async (ms) => void waits.push(ms),
      onAttempt: (n, r) => attempts.push([n, r.status]),
      random: () => 0.5,
    });
    expect(result).toEqual({ status: 200, attempts: 2 });
    expect(attempts).toEqual([
      [1, 500],
      [2, 200],
    ]);
    expect(waits).toEqual([750]);
    // The same event both times, each signed.
    expect(received.map((r) => JSON.parse(r.body).id)).toEqual([failed.id, failed.id]);
    for (const r of received) expect(verify(r.body, r.headers[SIGNATURE_HEADER] as string, SECRET)).toBe(true);
  });

  it("doubles each wait, drawn between half and all of it, and gives up after the retries with the last error", async () => {
    const { url, received } = await receiver(503);
    const waits: number[] = [];
    let draw = 0;
    const draws = [0, 0.999, 0.5];
    const result = await deliverWithRetries(url, failed, SECRET, {
      retries: 3,
      firstDelayMs: 100,
      sleep: async (ms) => void waits.push(ms),
      random: () => draws[draw++]!,
    });
    expect(result).toEqual({ status: 503, error: "the receiver answered 503 Service Unavailable", attempts: 4 });
    expect(received).toHaveLength(4);
    expect(waits[0]).toBe(50);
    expect(waits[1]).toBeCloseTo(199.9, 5);
    expect(waits[2]).toBe(300);
  });

  it("stops retrying once its signal is aborted", async () => {
    const { url, received } = await receiver(500);
    const stop = new AbortController();
    const result = await deliverWithRetries(url, failed, SECRET, {
      signal: stop.signal,
      sleep: async () => stop.abort(),
    });
    expect(result.attempts).toBe(1);
    expect(received).toHaveLength(1);
  });
});

describe("webhookUrl", () => {
  it.each([
    ["https anywhere", "https://alerts.example.com/hooks/nsp?team=dns"],
    ["http on 127.0.0.1", "http://127.0.0.1:8788/events"],
    ["http on the rest of 127.0.0.0/8", "http://127.9.8.7/events"],
    ["http on [::1]", "http://[::1]:8788/events"],
    ["http on localhost", "http://localhost:8788/events"],
  ])("accepts %s", (_, value) => {
    expect(webhookUrl(value, "--webhook").href).toBe(new URL(value).href);
  });

  it.each([
    [
      "a plain http address off the machine",
      "http://alerts.example.com/hook",
      /^--webhook: http:\/\/alerts\.example\.com\/hook uses plain http to alerts\.example\.com, which would cross the network unencrypted; use https/,
    ],
    [
      "plain http to a private address",
      "http://10.0.0.5/hook",
      /^--webhook: http:\/\/10\.0\.0\.5\/hook uses plain http/,
    ],
    [
      "a host that only starts like loopback",
      "http://127.0.0.1.example.com/hook",
      /uses plain http to 127\.0\.0\.1\.example\.com/,
    ],
    [
      "an ftp URL",
      "ftp://files.example.com/hook",
      /^--webhook: ftp:\/\/files\.example\.com\/hook is not an http or https URL; use https/,
    ],
    ["a non-URL", "alerts.example.com/hook", /^--webhook: not a URL; expected https:\/\/host\/path/],
    [
      "a password in the URL",
      "https://fleet:pw-1234@alerts.example.com/hook",
      /^--webhook: https:\/\/alerts\.example\.com\/hook holds a user name or password; remove it/,
    ],
  ])("refuses %s, naming the flag", (_, value, message) => {
    expect(() => webhookUrl(value, "--webhook")).toThrow(InputError);
    expect(() => webhookUrl(value, "--webhook")).toThrow(message);
  });

  it("never repeats a refused value's password or query, nor a value that is not a URL", () => {
    const messages = [
      "http://fleet:pw-1234@alerts.example.com/hook?token=q-5678",
      "https://fleet:pw-1234@alerts.example.com/",
      "svc_0123456789abcdef not a url",
    ].map((v) => {
      try {
        webhookUrl(v, "FLEET_WEBHOOK_URL");
        return "";
      } catch (e) {
        return (e as Error).message;
      }
    });
    expect(messages.every((m) => m.startsWith("FLEET_WEBHOOK_URL: "))).toBe(true);
    for (const secret of ["pw-1234", "q-5678", "svc_0123456789abcdef"])
      expect(messages.join("\n")).not.toContain(secret);
  });

  it("webhookSettings: none without a URL; the flag before the variable; a URL needs its secret", () => {
    expect(webhookSettings({})).toBeUndefined();
    const env = { FLEET_WEBHOOK_URL: "https://env.example.com/hook", FLEET_WEBHOOK_SECRET: SECRET };
    expect(webhookSettings(env)).toEqual({ url: new URL("https://env.example.com/hook"), secret: SECRET });
    expect(webhookSettings(env, "https://flag.example.com/hook")?.url.host).toBe("flag.example.com");
    expect(() => webhookSettings({ FLEET_WEBHOOK_URL: "http://alerts.example.com/" })).toThrow(/^FLEET_WEBHOOK_URL: /);
    expect(() => webhookSettings({ FLEET_WEBHOOK_SECRET: SECRET }, "http://alerts.example.com/")).toThrow(
      /^--webhook: /,
    );
    expect(() => webhookSettings({ FLEET_WEBHOOK_URL: "https://env.example.com/hook" })).toThrow(
      /^FLEET_WEBHOOK_SECRET: not set/,
    );
    const short = "0123456789";
    expect(() => webhookSettings({ ...env, FLEET_WEBHOOK_SECRET: short })).toThrow(
      /^FLEET_WEBHOOK_SECRET: 10 characters, too short/,
    );
    try {
      webhookSettings({ ...env, FLEET_WEBHOOK_SECRET: short });
    } catch (e) {
      expect((e as Error).message).not.toContain(short);
    }
  });
});

describe("through the queue", () => {
  it("queueDelivery: a job of the webhook queue holding the URL and the event, never the secret, retried with backoff", async () => {
    const sent: { name: string; data: unknown; options: Record<string, unknown> }[] = [];
    const boss = {
      send: async (name: string, data: unknown, options: Record<string, unknown>) => {
        sent.push({ name, data, options });
        return "job-1";
      },
    };
    const url = new URL("https://alerts.example.com/hook");
    expect(await queueDelivery(boss as never, url, failed, { retries: 3, retryDelaySeconds: 5 })).toBe("job-1");
    expect(sent).toEqual([
      {
        name: WEBHOOK_QUEUE,
        data: { url: url.href, event: failed },
        options: expect.objectContaining({ retryLimit: 3, retryDelay: 5, retryBackoff: true }),
      },
    ]);
    expect(JSON.stringify(sent)).not.toContain(SECRET);
  });

  it(
    "handleDelivery: each attempt a row (attempt = retries + 1), a failure thrown for pg-boss to retry, " +
      "the URL shown without its query",
    async () => {
      const { url, received } = await receiver(500, 202);
      url.search = "?token=q-5678";
      const rows: unknown[][] = [];
      const db = { query: async (_text: string, values: unknown[]) => void rows.push(values) };
      const job = { id: "job-1", data: { url: url.href, event: failed }, retryCount: 0 };
      await expect(handleDelivery(job, db, SECRET)).rejects.toThrow(
        /^webhook stack\.failed \S+ to http:\/\/127\.0\.0\.1:\d+\/hooks\/fleet, attempt 1: the receiver answered 500/,
      );
      expect(await handleDelivery({ ...job, retryCount: 1 }, db, SECRET)).toEqual({ status: 202 });
      const shown = `http://127.0.0.1:${url.port}/hooks/fleet`;
      expect(rows).toEqual([
        [
          failed.id,
          "stack.failed",
          failed.run,
          "acme",
          shown,
          1,
          500,
          "the receiver answered 500 Internal Server Error",
        ],
        [failed.id, "stack.failed", failed.run, "acme", shown, 2, 202, null],
      ]);
      expect(received).toHaveLength(2);
    },
  );

  it("handleDelivery: a run's event has no stack; a job whose URL is no longer acceptable is refused without a request", async () => {
    const finished: FleetEvent = fleetEvent({
      type: "run.finished",
      run: failed.run,
      operation: "up",
      summary: { stacks: 3, succeeded: 2, failed: 1 },
    });
    const { url, received } = await receiver(200);
    const rows: unknown[][] = [];
    const db = { query: async (_text: string, values: unknown[]) => void rows.push(values) };
    await handleDelivery({ id: "j", data: { url: url.href, event: finished }, retryCount: 0 }, db, SECRET);
    expect(rows[0]!.slice(1, 4)).toEqual(["run.finished", failed.run, null]);
    await expect(
      handleDelivery(
        { id: "j2", data: { url: "http://alerts.example.com/", event: finished }, retryCount: 0 },
        db,
        SECRET,
      ),
    ).rejects.toThrow(/^the delivery job j2's url: .* uses plain http/);
    expect(received).toHaveLength(1);
  });
});

describe("sign", () => {
  it("is GitHub's: sha256= and the hex HMAC-SHA256 of the raw body", () => {
    // HMAC-SHA256("key", "The quick brown fox jumps over the lazy dog"), a published test value.
    expect(sign("The quick brown fox jumps over the lazy dog", "key")).toBe(
      "sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8",
    );
  });
});

describe("the guide's receiver (docs/guides/fleet.md, `receiver.mjs`)", () => {
  const guide = readFileSync(join(__dirname, "..", "..", "docs", "guides", "fleet.md"), "utf8");
  const program = /^`receiver\.mjs`[^\n]*\n(?:[^\n]+\n)*\n```js\n([\s\S]*?)```/m.exec(guide)?.[1];

  it("keeps an event the fleet signed, once however often it is delivered, and refuses one signed with another secret", async () => {
    expect(program, "a js block under a paragraph starting with `receiver.mjs`").toBeDefined();
    expect(program).toContain('.listen(8788, "127.0.0.1")');
    const dir = mkdtempSync(join(tmpdir(), "nsp-receiver-"));
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, "127.0.0.1", resolve));
    const port = (free.address() as AddressInfo).port;
    await new Promise((resolve) => free.close(resolve));
    writeFileSync(join(dir, "receiver.mjs"), program!.replace(".listen(8788,", `.listen(${port},`));
    const child = spawn(process.execPath, ["receiver.mjs"], {
      cwd: dir,
      env: { ...process.env, FLEET_WEBHOOK_SECRET: SECRET },
      stdio: "ignore",
    });
    try {
      const listening = () =>
        new Promise<boolean>((resolve) => {
          const socket = connect(port, "127.0.0.1");
          socket
            .on("connect", () => {
              socket.destroy();
              resolve(true);
            })
            .on("error", () => resolve(false));
        });
      await until(listening);
      const url = new URL(`http://127.0.0.1:${port}/nsp-fleet`);
      expect(await deliverOnce(url, failed, "another-secret-0123456789")).toEqual({
        status: 401,
        error: "the receiver answered 401 Unauthorized",
      });
      expect(existsSync(join(dir, "events.log"))).toBe(false);
      expect(await deliverOnce(url, failed, SECRET)).toEqual({ status: 204 });
      expect(await deliverOnce(url, failed, SECRET)).toEqual({ status: 204 });
      expect(readFileSync(join(dir, "events.log"), "utf8")).toBe(`stack.failed ${failed.run} acme\n`);
      expect(JSON.parse(readFileSync(join(dir, "stack.failed.json"), "utf8"))).toEqual(failed);
    } finally {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
