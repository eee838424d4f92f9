// Webhook endpoints over HTTP: the public https:// rule, events, the ten-endpoint limit, the
// secret shown once, patching, test pings and their delivery records, ownership and scopes.
import { describe, expect, it } from "vitest";
import { expectError, ISO_MS, useAccounts } from "../helpers/emulator-http";

const h = useAccounts("hooks");
const { ro, other } = h;

async function clear(): Promise<void> {
  for (const w of (await h.api("GET", "/webhooks")).body.data) await h.api("DELETE", `/webhooks/${w.id}`);
}

describe("webhook events", () => {
  it("lists the subscribable event names", async () => {
    const r = await ro("GET", "/webhook-events");
    expect(r.status).toBe(200);
    const names = r.body.data.map((e: any) => e.name);
    expect(names).toEqual([
      "ping",
      "sgate.verification.approved",
      "sgate.verification.failed",
      "sgate.verification.expired",
      "sgate.verification.canceled",
      "sgate.broadcast.completed",
    ]);
    for (const e of r.body.data) expect(typeof e.description).toBe("string");
  });
});

describe("webhook endpoints", () => {
  it("creates with the secret once, defaults to all events, and never shows the secret again", async () => {
    await clear();
    const r = await h.api("POST", "/webhooks", { url: "https://Hooks.Example.com/in", note: "ops" });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      url: "https://hooks.example.com/in",
      events: ["*"],
      enabled: true,
      note: "ops",
      last_status: null,
      last_at: null,
      failures: 0,
    });
    expect(r.body.created_at).toMatch(ISO_MS);
    expect(r.body.secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    const got = await ro("GET", `/webhooks/${r.body.id}`);
    expect(got.body.secret).toBeNull();
    expect(got.body.url).toBe("https://hooks.example.com/in");
    const list = await ro("GET", "/webhooks");
    expect(list.body.data.map((w: any) => w.secret)).toEqual([null]);
    expect(list.body.paging).toMatchObject({ offset: 0, count: 1, next_offset: null });
  });

  it("accepts only public https:// URLs and known events", async () => {
    const bad: [unknown, RegExp][] = [
      [{ url: "http://hooks.example.com/" }, /^url: must use https/],
      [{ url: "not a url" }, /^url: must be an absolute/],
      [{ url: "https://localhost/x" }, /^url: must be a public host/],
      [{ url: "https://intranet/x" }, /^url: must be a public host/],
      [{ url: "https://10.1.2.3/x" }, /^url: must be a public address/],
      [{ url: "https://[::1]/x" }, /^url: must be a public address/],
      [{ url: "https://169.254.169.254/x" }, /^url: must be a public address/],
      [{ url: "https://u:p@hooks.example.com/" }, /^url: must not carry credentials/],
      [{ url: "https://hooks.example.com/", events: ["nope"] }, /^events: unknown event "nope"/],
      [{ url: "https://hooks.example.com/", events: ["*", "ping"] }, /^events: `\*` already/],
      [{ url: "https://hooks.example.com/", events: [] }, /^events: must name at least one/],
      [{ events: ["ping"] }, /^url: is required/],
      [{ url: "https://hooks.example.com/", secret: "x" }, /secret/],
    ];
    for (const [body, msg] of bad) expectError(await h.api("POST", "/webhooks", body), 400, "validation_error", msg);
    const ok = await h.api("POST", "/webhooks", {
      url: "https://203.0.113.9/hook",
      events: ["ping", "ping", "sgate.broadcast.completed"],
    });
    expect(ok.status).toBe(201);
    expect(ok.body.events).toEqual(["ping", "sgate.broadcast.completed"]);
  });

  it("patches url, events, enabled and note, validating before changing anything", async () => {
    const w = (await h.api("POST", "/webhooks", { url: "https://a.example.com/" })).body;
    const p = await h.api("PATCH", `/webhooks/${w.id}`, {
      url: "https://b.example.com/x",
      events: ["ping"],
      enabled: false,
      note: "n",
    });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({
      url: "https://b.example.com/x",
      events: ["ping"],
      enabled: false,
      note: "n",
      secret: null,
    });
    expectError(
      await h.api("PATCH", `/webhooks/${w.id}`, { enabled: true, url: "http://c.example.com/" }),
      400,
      "validation_error",
      /^url/,
    );
    expect((await h.api("GET", `/webhooks/${w.id}`)).body).toMatchObject({
      enabled: false,
      url: "https://b.example.com/x",
    });
    expect((await h.api("PATCH", `/webhooks/${w.id}`, { note: null })).body.note).toBeNull();
  });

  it("refuses an eleventh endpoint with limit_exceeded", async () => {
    await clear();
    for (let i = 0; i < 10; i++)
      expect((await h.api("POST", "/webhooks", { url: `https://h${i}.example.com/` })).status).toBe(201);
    expectError(
      await h.api("POST", "/webhooks", { url: "https://h10.example.com/" }),
      422,
      "limit_exceeded",
      /at most 10 webhook endpoints/,
    );
    // Another account has its own ten.
    expect((await other("POST", "/webhooks", { url: "https://x.example.com/" })).status).toBe(201);
    const first = (await h.api("GET", "/webhooks")).body.data[0];
    expect((await h.api("DELETE", `/webhooks/${first.id}`)).status).toBe(204);
    expect((await h.api("POST", "/webhooks", { url: "https://h10.example.com/" })).status).toBe(201);
    await clear();
  });

  it("records a ping delivery for a test and lists deliveries", async () => {
    const w = (await h.api("POST", "/webhooks", { url: "https://ping.example.com/" })).body;
    const t = await h.api("POST", `/webhooks/${w.id}/test`);
    expect(t.status).toBe(202);
    expect(t.body).toMatchObject({
      webhook_id: w.id,
      event: "ping",
      status: "pending",
      attempts: 0,
      http_status: null,
      payload: { event: "ping", webhook_id: w.id },
    });
    const d = await ro("GET", `/webhooks/${w.id}/deliveries`);
    expect(d.body.data).toHaveLength(1);
    expect(d.body.data[0].id).toBe(t.body.id);
    expect(d.body.data[0].account).toBeUndefined();
    expect((await h.api("DELETE", `/webhooks/${w.id}`)).status).toBe(204);
    expectError(await h.api("GET", `/webhooks/${w.id}/deliveries`), 404, "not_found");
  });

  it("keeps endpoints per account and needs write scope to change them", async () => {
    const w = (await h.api("POST", "/webhooks", { url: "https://mine.example.com/" })).body;
    expectError(await other("GET", `/webhooks/${w.id}`), 404, "not_found");
    expectError(await other("DELETE", `/webhooks/${w.id}`), 404, "not_found");
    expectError(await ro("POST", "/webhooks", { url: "https://r.example.com/" }), 403, "forbidden");
    expectError(await ro("PATCH", `/webhooks/${w.id}`, { enabled: false }), 403, "forbidden");
    expectError(await ro("POST", `/webhooks/${w.id}/test`), 403, "forbidden");
    expectError(await h.api("GET", "/webhooks/999999"), 404, "not_found");
  });
});
