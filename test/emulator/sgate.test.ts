// The messaging gateway of the emulator over HTTP: numbers, brands and campaigns, senders,
// templates with versions, consents kept as revoked, broadcasts (drafts, start, delete refused
// while sending), sends with opt-outs and scheduling, and one-time-code verifications.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { receiveMessage, verificationCode } from "../../emulator/src/sgate/messaging";
import { SEED_NUMBERS } from "../../emulator/src/sgate/state";
import { expectError, type Harness, startHarness, useAccounts } from "../helpers/emulator-http";

const [N1, N2] = SEED_NUMBERS;

const h = useAccounts("texter");
const { ro, other } = h;

async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const r = await h.api(method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  return r.body;
}

const enc = encodeURIComponent;

describe("numbers and providers", () => {
  it("lists the seeded numbers and patches their settings", async () => {
    const list = await ok("GET", "/sgate/numbers");
    expect(list.data.map((n: any) => n.number)).toEqual([...SEED_NUMBERS]);
    expect(list.data[0]).toEqual({
      number: N1,
      enabled: true,
      provider: "primary",
      campaign_id: null,
      help_text: null,
      sends: true,
      receives: true,
    });
    const patched = await ok("PATCH", `/sgate/numbers/${enc(N1!)}`, {
      enabled: false,
      provider: "secondary",
      help_text: "Reply STOP to stop",
    });
    expect(patched).toMatchObject({
      enabled: false,
      provider: "secondary",
      help_text: "Reply STOP to stop",
      sends: false,
    });
    expectError(
      await h.api("PATCH", `/sgate/numbers/${enc(N1!)}`, { provider: "nope" }),
      400,
      "validation_error",
      /^provider/,
    );
    expectError(
      await h.api("PATCH", `/sgate/numbers/${enc(N1!)}`, { campaign_id: "cmp_missing" }),
      404,
      "not_found",
      /campaign/,
    );
    expectError(
      await h.api("PATCH", `/sgate/numbers/${enc("+15550000000")}`, { enabled: true }),
      404,
      "not_found",
      /number/,
    );
    expectError(await ro("PATCH", `/sgate/numbers/${enc(N1!)}`, { enabled: true }), 403, "forbidden");
    expect((await ok("GET", "/sgate/providers")).data.map((p: any) => p.name)).toEqual(["primary", "secondary"]);
    expect((await ok("GET", "/sgate/overview")).numbers.total).toBe(3);
    expect((await ok("GET", "/sgate/usage")).data).toHaveLength(13);
  });
});

describe("brands and campaigns", () => {
  it("creates a draft brand, submits it, refuses to go back, and refuses deletion while campaigns exist", async () => {
    const brand = await ok("POST", "/sgate/brands", { legal_name: "Acme Inc", country: "US", entity_type: "private" });
    expect(brand).toMatchObject({
      id: expect.stringMatching(/^brd_[0-9a-f]{12}$/),
      status: "draft",
      display_name: null,
      campaign_ids: [],
    });
    expectError(await h.api("POST", "/sgate/brands", { country: "US" }), 400, "validation_error", /^legal_name/);
    expectError(
      await h.api("POST", "/sgate/brands", { legal_name: "X", entity_type: "club" }),
      400,
      "validation_error",
      /^entity_type/,
    );
    expect(await ok("PATCH", `/sgate/brands/${brand.id}`, { status: "submitted", display_name: "Acme" })).toMatchObject(
      { status: "submitted", display_name: "Acme" },
    );
    expectError(
      await h.api("PATCH", `/sgate/brands/${brand.id}`, { status: "draft" }),
      409,
      "conflict",
      /cannot go back to draft/,
    );

    expectError(await h.api("POST", "/sgate/campaigns", { brand_id: brand.id }), 400, "validation_error", /^use_case/);
    expectError(
      await h.api("POST", "/sgate/campaigns", { brand_id: "brd_missing", use_case: "2fa" }),
      404,
      "not_found",
      /brand/,
    );
    const campaign = await ok("POST", "/sgate/campaigns", {
      brand_id: brand.id,
      use_case: "2fa",
      samples: ["Your code is 1234"],
    });
    expect(campaign).toMatchObject({ status: "draft", samples: ["Your code is 1234"], description: null });
    expect((await ok("GET", "/sgate/brands")).data.find((b: any) => b.id === brand.id).campaign_ids).toEqual([
      campaign.id,
    ]);
    expectError(
      await h.api("DELETE", `/sgate/brands/${brand.id}`),
      409,
      "conflict",
      new RegExp(`has campaign\\(s\\) ${campaign.id}`),
    );

    // A number sending under the campaign is detached when the campaign goes.
    await ok("PATCH", `/sgate/numbers/${enc(N2!)}`, { campaign_id: campaign.id });
    await ok("DELETE", `/sgate/campaigns/${campaign.id}`);
    expect((await ok("GET", "/sgate/numbers")).data.find((n: any) => n.number === N2).campaign_id).toBeNull();
    await ok("DELETE", `/sgate/brands/${brand.id}`);
    expect((await ok("GET", "/sgate/brands")).data.map((b: any) => b.id)).not.toContain(brand.id);
    expect((await other("GET", "/sgate/brands")).body.data).toEqual([]);
  });
});

describe("senders", () => {
  it("sends a new name to review and accepts only the account's numbers", async () => {
    const s = await ok("POST", "/sgate/senders", { name: "Acme", numbers: [N1] });
    expect(s).toMatchObject({
      id: expect.stringMatching(/^snd_/),
      name: "Acme",
      numbers: [N1],
      name_status: "in_review",
    });
    expectError(
      await h.api("POST", "/sgate/senders", { name: "Acme", numbers: ["+15550000000"] }),
      400,
      "validation_error",
      /^numbers: not numbers of this account/,
    );
    expectError(
      await h.api("POST", "/sgate/senders", { name: "far too long a name" }),
      400,
      "validation_error",
      /^name/,
    );
    expect(await ok("PATCH", `/sgate/senders/${s.id}`, { name: "AcmeCo", description: "main" })).toMatchObject({
      name: "AcmeCo",
      description: "main",
      name_status: "in_review",
    });
    expectError(await other("DELETE", `/sgate/senders/${s.id}`), 404, "not_found");
    await ok("DELETE", `/sgate/senders/${s.id}`);
    expectError(await h.api("PATCH", `/sgate/senders/${s.id}`, { name: "X" }), 404, "not_found");
  });
});

describe("templates", () => {
  it("creates version 1, makes a new version for new text, submits the newest, and previews", async () => {
    expectError(
      await h.api("POST", "/sgate/templates", { name: "t", default_lang: "fr", category: "otp", bodies: { en: "x" } }),
      400,
      "validation_error",
      /default language fr/,
    );
    const t = await ok("POST", "/sgate/templates", {
      name: "otp",
      default_lang: "en",
      category: "otp",
      bodies: { en: "Code {{code}}" },
    });
    expect(t).toMatchObject({
      version: 1,
      status: "draft",
      bodies: { en: "Code {{code}}" },
      versions: [{ version: 1, status: "draft" }],
    });
    // Same text: no new version.
    expect(
      (await ok("PATCH", `/sgate/templates/${t.id}`, { name: "otp2", bodies: { en: "Code {{code}}" } })).version,
    ).toBe(1);
    const v2 = await ok("PATCH", `/sgate/templates/${t.id}`, {
      bodies: { en: "Your code: {{code}}", de: "Ihr Code: {{code}}" },
      submit: true,
    });
    expect(v2).toMatchObject({ name: "otp2", version: 2, status: "submitted" });
    expect(v2.versions.map((v: any) => [v.version, v.status])).toEqual([
      [1, "draft"],
      [2, "submitted"],
    ]);
    const v3 = await ok("PATCH", `/sgate/templates/${t.id}`, { bodies: { en: "Code: {{code}}" } });
    expect(v3).toMatchObject({ version: 3, status: "draft" });
    expect((await ok("POST", `/sgate/templates/${t.id}/submit`)).status).toBe("submitted");
    expect((await ok("GET", "/sgate/templates")).data.find((x: any) => x.id === t.id).versions).toBeUndefined();
    expect(await ok("POST", `/sgate/templates/${t.id}/preview`, { variables: { code: "4711" } })).toEqual({
      version: 3,
      lang: "en",
      text: "Code: 4711",
    });
    expectError(
      await h.api("POST", `/sgate/templates/${t.id}/preview`, { lang: "de" }),
      400,
      "validation_error",
      /^lang/,
    );
    await ok("DELETE", `/sgate/templates/${t.id}`);
    expectError(await h.api("GET", `/sgate/templates/${t.id}`), 404, "not_found");
  });
});

describe("consents", () => {
  it("records a consent, keeps it as revoked on delete, filters, and imports in bulk", async () => {
    const c = await ok("POST", "/sgate/consents", { recipient: "+447700900123", proof: "form 42", source: "web_form" });
    expect(c).toMatchObject({
      id: expect.stringMatching(/^cns_/),
      status: "granted",
      source: "web_form",
      revoked_at: null,
      granted_at: expect.any(String),
    });
    expectError(
      await h.api("POST", "/sgate/consents", { recipient: "0770", proof: "x" }),
      400,
      "validation_error",
      /^recipient/,
    );
    expectError(
      await h.api("POST", "/sgate/consents", { recipient: "+447700900123" }),
      400,
      "validation_error",
      /^proof/,
    );
    await ok("DELETE", `/sgate/consents/${c.id}`);
    const revoked = (await ok("GET", "/sgate/consents?status=revoked&q=%2B4477009001")).data;
    expect(revoked).toEqual([expect.objectContaining({ id: c.id, status: "revoked", revoked_at: expect.any(String) })]);
    expect((await ok("GET", "/sgate/consents?status=granted")).data.map((x: any) => x.id)).not.toContain(c.id);
    const imported = await ok("POST", "/sgate/consents/import", {
      records: [
        { recipient: "+12025550199", proof: "paper 1" },
        { recipient: "+12025550198", proof: "paper 2" },
      ],
    });
    expect(imported.imported).toBe(2);
    expectError(await h.api("POST", "/sgate/consents/import", { records: [] }), 400, "validation_error", /^records/);
  });
});

describe("broadcasts", () => {
  it("patches only drafts, marks recipients without consent, refuses deletion while sending, and skips the rest on cancel", async () => {
    expectError(
      await h.api("POST", "/sgate/broadcasts", { body: "Hi", recipients: { numbers: [] } }),
      400,
      "validation_error",
      /^recipients/,
    );
    expectError(
      await h.api("POST", "/sgate/broadcasts", { recipients: { numbers: ["+12025550111"] } }),
      400,
      "validation_error",
      /^body/,
    );
    expectError(
      await h.api("POST", "/sgate/broadcasts", {
        body: "Hi",
        from: "+15550000000",
        recipients: { numbers: ["+12025550111"] },
      }),
      400,
      "validation_error",
      /^from/,
    );
    await ok("POST", "/sgate/consents", { recipient: "+12025550111", proof: "kw" });
    const b = await ok("POST", "/sgate/broadcasts", {
      name: "sale",
      body: "Sale!",
      from: N1,
      recipients: { numbers: ["+12025550111", "+12025550112"] },
    });
    expect(b).toMatchObject({
      state: "draft",
      category: "marketing",
      rate_per_min: 60,
      report: { total: 2, pending: 0 },
    });
    expect((await ok("PATCH", `/sgate/broadcasts/${b.id}`, { rate_per_min: 120 })).rate_per_min).toBe(120);
    const started = await ok("POST", `/sgate/broadcasts/${b.id}/start`, {});
    expect(started).toMatchObject({ state: "sending", report: { total: 2, pending: 1, no_consent: 1 } });
    expectError(
      await h.api("PATCH", `/sgate/broadcasts/${b.id}`, { name: "x" }),
      409,
      "conflict",
      /only a draft can be changed/,
    );
    expectError(
      await h.api("DELETE", `/sgate/broadcasts/${b.id}`),
      409,
      "conflict",
      /is sending and cannot be deleted/,
    );
    expect((await ok("GET", `/sgate/broadcasts/${b.id}/recipients?status=no_consent`)).data).toEqual([
      { number: "+12025550112", status: "no_consent" },
    ]);
    expect((await ok("POST", `/sgate/broadcasts/${b.id}/pause`)).state).toBe("paused");
    expect((await ok("POST", `/sgate/broadcasts/${b.id}/resume`)).state).toBe("sending");
    expect(await ok("POST", `/sgate/broadcasts/${b.id}/cancel`)).toMatchObject({
      state: "cancelled",
      report: { skipped: 1, pending: 0 },
    });
    expectError(await h.api("POST", `/sgate/broadcasts/${b.id}/resume`), 409, "conflict");
    await ok("DELETE", `/sgate/broadcasts/${b.id}`);
    expectError(await h.api("GET", `/sgate/broadcasts/${b.id}`), 404, "not_found");
  });

  it("schedules a start in the future", async () => {
    const b = await ok("POST", "/sgate/broadcasts", {
      body: "Later",
      category: "transactional",
      recipients: { numbers: ["+12025550113"] },
    });
    expect((await ok("POST", `/sgate/broadcasts/${b.id}/start`, { start_at: "2099-01-01T00:00:00Z" })).state).toBe(
      "scheduled",
    );
  });
});

describe("messages, opt-outs and scheduled messages", () => {
  it("sends now or later, skips opted-out and unconsented recipients, logs newest first, and cancels a scheduled message", async () => {
    receiveMessage(h.emu.app.store, "texter", "+12025550140", N1!, "stop");
    expect((await ok("GET", "/sgate/optouts")).data).toEqual([
      expect.objectContaining({ number: "+12025550140", status: "opted_out" }),
    ]);
    const now = await ok("POST", "/sgate/messages", {
      from: N1,
      to: ["+12025550140", "+12025550141"],
      body: "Hi {{name}}",
      variables: { name: "Ann" },
    });
    expect(now.messages.map((m: any) => [m.to, m.status, m.body])).toEqual([
      ["+12025550140", "opted_out", "Hi Ann"],
      ["+12025550141", "sent", "Hi Ann"],
    ]);
    expect(
      (await ok("POST", "/sgate/messages", { to: ["+12025550142"], body: "Promo", category: "marketing" })).messages[0]
        .status,
    ).toBe("no_consent");
    expectError(await h.api("POST", "/sgate/messages", { to: ["+12025550142"] }), 400, "validation_error", /^body/);
    expectError(await h.api("POST", "/sgate/messages", { to: [], body: "x" }), 400, "validation_error", /^to/);
    expectError(
      await h.api("POST", "/sgate/messages", { to: ["+12025550142"], body: "x", from: "+15550000000" }),
      400,
      "validation_error",
      /^from/,
    );

    const log = (await ok("GET", `/sgate/messages?direction=out&number=${enc("+12025550141")}`)).data;
    expect(log.map((m: any) => m.id)).toEqual([now.messages[1].id]);
    expect((await ok("GET", "/sgate/messages?direction=in")).data[0]).toMatchObject({
      from: "+12025550140",
      body: "stop",
      status: "received",
    });

    const later = await ok("POST", "/sgate/messages", {
      to: ["+12025550143"],
      body: "Later",
      send_at: "2099-01-01T00:00:00Z",
    });
    expect(later).toMatchObject({ messages: [], scheduled: [{ to: "+12025550143", status: "scheduled" }] });
    const id = later.scheduled[0].id;
    await ok("DELETE", `/sgate/scheduled/${id}`);
    expect((await ok("GET", "/sgate/scheduled?status=cancelled")).data.map((s: any) => s.id)).toContain(id);
    expectError(await h.api("DELETE", `/sgate/scheduled/${id}`), 409, "conflict");

    receiveMessage(h.emu.app.store, "texter", "+12025550140", N1!, "START");
    expect((await ok("GET", "/sgate/optouts")).data[0].status).toBe("opted_in");
  });
});

describe("verifications", () => {
  let clock = Date.parse("2026-03-01T00:00:00Z");
  let v: Harness;
  beforeAll(async () => {
    v = await startHarness({
      accounts: [{ name: "otp", token: h.tokens.write.replace("5a", "5e") }],
      rateLimitPerMinute: 0,
      now: () => clock,
    });
  });
  afterAll(() => v.emu.close());
  const call = async (method: string, path: string, body?: unknown) => await v.api(method, path, body);

  it("uses an attempt per check, resends after 30 s up to four times with a new code, and cancels only pending ones", async () => {
    const created = (
      await call("POST", "/sgate/verifications", { to: "+12025550150", code_length: 4, max_attempts: 3 })
    ).body;
    expect(created).toMatchObject({ status: "pending", attempts_left: 3, code_length: 4, resends: 0 });
    expect(created.code).toBeUndefined();
    const first = verificationCode(v.emu.app.store, created.id);
    expect(first).toMatch(/^[0-9]{4}$/);

    expect((await call("POST", `/sgate/verifications/${created.id}/check`, { code: "wrong" })).body).toMatchObject({
      valid: false,
      attempts_left: 2,
      status: "pending",
    });
    expectError(
      await call("POST", `/sgate/verifications/${created.id}/resend`),
      409,
      "conflict",
      /can be resent in 30 s/,
    );
    clock += 30_000;
    await call("POST", `/sgate/verifications/${created.id}/resend`);
    // The old code stops working (and the check still uses an attempt).
    expect((await call("POST", `/sgate/verifications/${created.id}/check`, { code: first })).body).toMatchObject({
      valid: false,
      attempts_left: 1,
    });
    const ok2 = (
      await call("POST", `/sgate/verifications/${created.id}/check`, {
        code: verificationCode(v.emu.app.store, created.id),
      })
    ).body;
    expect(ok2).toMatchObject({ valid: true, status: "approved", attempts_left: 0 });
    expectError(
      await call("POST", `/sgate/verifications/${created.id}/cancel`),
      409,
      "conflict",
      /only a pending verification can be cancelled/,
    );

    const other = (await call("POST", "/sgate/verifications", { to: "+12025550151", ttl_s: 600 })).body;
    for (let i = 0; i < 4; i++) {
      clock += 30_000;
      expect((await call("POST", `/sgate/verifications/${other.id}/resend`)).status).toBe(200);
    }
    clock += 30_000;
    expectError(await call("POST", `/sgate/verifications/${other.id}/resend`), 409, "conflict", /4 times/);
    clock += 600_000;
    expect((await call("GET", `/sgate/verifications/${other.id}`)).body.status).toBe("expired");

    const third = (await call("POST", "/sgate/verifications", { to: "+12025550152", max_attempts: 1 })).body;
    expect((await call("POST", `/sgate/verifications/${third.id}/check`, { code: "nope" })).body).toMatchObject({
      status: "failed",
      attempts_left: 0,
    });
    const fourth = (await call("POST", "/sgate/verifications", { to: "+12025550153" })).body;
    expect((await call("POST", `/sgate/verifications/${fourth.id}/cancel`)).body.status).toBe("canceled");
    expect((await call("GET", "/sgate/verifications?limit=2")).body.data.map((x: any) => x.id)).toEqual([
      fourth.id,
      third.id,
    ]);
    expectError(
      await call("POST", "/sgate/verifications", { to: "+12025550153", code_length: 3 }),
      400,
      "validation_error",
      /^code_length/,
    );
  });
});
