import { describe, expect, it } from "vitest";
import { pauseOutbound, setCallsUp } from "../../emulator/src/vgate/state";
import { expectError, ISO_MS, useAccounts } from "../helpers/emulator-http";

const h = useAccounts("pat");

let seq = 0;
async function newPbx(extra: Record<string, unknown> = {}): Promise<any> {
  const r = await h.api("POST", "/vgate/pbx", { name: `pbx ${++seq}`, ...extra });
  if (r.status !== 201) throw new Error(`PBX create failed: ${r.status} ${r.text}`);
  return r.body;
}

async function post(path: string, body: unknown): Promise<any> {
  const r = await h.api("POST", path, body);
  if (r.status !== 201 && r.status !== 200) throw new Error(`POST ${path}: ${r.status} ${r.text}`);
  return r.body;
}

describe("cities and templates", () => {
  it("lists the seeded cities, one of which takes no new PBXs", async () => {
    const r = await h.api("GET", "/vgate/cities");
    expect(r.status).toBe(200);
    expect(r.body.paging).toMatchObject({ offset: 0, next_offset: null });
    expect(r.body.data.map((c: any) => c.id)).toEqual(["fra", "lon", "nyc", "sgp", "syd"]);
    expect(r.body.data[0]).toEqual({
      id: "fra",
      name: "Frankfurt",
      country: "DE",
      timezone: "Europe/Berlin",
      accepting: true,
    });
    expect(r.body.data.find((c: any) => c.id === "syd").accepting).toBe(false);
    expect((await h.api("GET", "/vgate/cities", undefined, { token: h.tokens.read })).status).toBe(200);
  });

  it("lists the seven documented templates with what each makes", async () => {
    const r = await h.api("GET", "/vgate/templates");
    expect(r.body.data.map((t: any) => t.id)).toEqual([
      "small-office",
      "reception",
      "after-hours",
      "contact-centre",
      "conference",
      "personal",
      "blank",
    ]);
    const office = r.body.data[0];
    expect(office.extensions.map((e: any) => e.number)).toEqual(["101", "102", "103"]);
    expect(office.groups).toEqual([{ number: "600", name: "Office" }]);
  });
});

describe("PBXs", () => {
  it("creates a PBX from a template and shows the template extensions' SIP passwords once", async () => {
    const r = await h.api("POST", "/vgate/pbx", {
      name: "Head office",
      city: "lon",
      template: "small-office",
      language: "zh",
    });
    expect(r.status).toBe(201);
    const p = r.body;
    expect(p).toMatchObject({
      name: "Head office",
      city: "lon",
      timezone: "Europe/London",
      template: "small-office",
      language: "zh",
      settings: {},
      status: "active",
      calls_up: 0,
      reloaded_at: null,
    });
    expect(p.id).toMatch(/^pbx_[0-9a-f]{12}$/);
    expect(p.created_at).toMatch(ISO_MS);
    expect(p.extensions).toHaveLength(3);
    for (const e of p.extensions) expect(e.sip_password).toMatch(/^[A-Za-z0-9_-]{16}$/);

    const got = await h.api("GET", `/vgate/pbx/${p.id}`);
    expect(got.body).not.toHaveProperty("extensions");
    const { extensions: _, ...view } = p;
    expect(got.body).toEqual(view);
    const exts = await h.api("GET", `/vgate/pbx/${p.id}/extensions`);
    expect(exts.body.data.map((e: any) => e.number)).toEqual(["101", "102", "103"]);
    for (const e of exts.body.data) {
      expect(e).not.toHaveProperty("sip_password");
      expect(JSON.stringify(e)).not.toContain(p.extensions.find((x: any) => x.id === e.id).sip_password);
    }
    const groups = await h.api("GET", `/vgate/pbx/${p.id}/groups`);
    expect(groups.body.data[0]).toMatchObject({ number: "600", members: p.extensions.map((e: any) => e.id) });
    // The template's ring group routes to the extensions, so they cannot go first.
    expectError(
      await h.api("DELETE", `/vgate/pbx/${p.id}/extensions/${p.extensions[0].id}`),
      409,
      "conflict",
      /ring group "Office"/,
    );
  });

  it("defaults to Frankfurt, its time zone, English and the blank template", async () => {
    const p = await newPbx();
    expect(p).toMatchObject({
      city: "fra",
      timezone: "Europe/Berlin",
      language: "en",
      template: "blank",
      extensions: [],
    });
    expect(p.sip_domain).toBe(`${p.id.replace("_", "-")}.sip.nsp-emulator.test`);
  });

  it("validates the create body", async () => {
    const cases: [unknown, number, string, string | RegExp][] = [
      [{}, 400, "validation_error", "name: is required"],
      [{ name: "" }, 400, "validation_error", "name: must not be empty"],
      [{ name: "x", language: "fr" }, 400, "validation_error", "language: must be one of en, zh"],
      [{ name: "x", template: "office" }, 400, "validation_error", /^template: must be one of small-office, reception/],
      [
        { name: "x", timezone: "Mars/Olympus" },
        400,
        "validation_error",
        "timezone: must be an IANA time zone such as Europe/Berlin",
      ],
      [{ name: "x", city: "ber" }, 400, "validation_error", "city: no city ber; GET /vgate/cities lists them"],
      [{ name: "x", city: "syd" }, 409, "conflict", "city: Sydney (syd) does not accept new PBXs"],
      [{ name: "x", settings: {} }, 400, "validation_error", "settings: unknown field"],
    ];
    for (const [body, status, code, msg] of cases)
      expectError(await h.api("POST", "/vgate/pbx", body), status, code, msg);
    expectError(await h.api("POST", "/vgate/pbx", { name: "x" }, { token: h.tokens.read }), 403, "forbidden");
  });

  it("patches name, time zone, language and settings (replaced whole)", async () => {
    const p = await newPbx();
    const r = await h.api("PATCH", `/vgate/pbx/${p.id}`, {
      name: "Renamed",
      timezone: "Asia/Shanghai",
      language: "zh",
      settings: { record_calls: true, nested: { a: 1 } },
    });
    expect(r.body).toMatchObject({
      name: "Renamed",
      timezone: "Asia/Shanghai",
      language: "zh",
      settings: { record_calls: true, nested: { a: 1 } },
    });
    expect((await h.api("PATCH", `/vgate/pbx/${p.id}`, { settings: { b: 2 } })).body.settings).toEqual({ b: 2 });
    expectError(
      await h.api("PATCH", `/vgate/pbx/${p.id}`, { template: "blank" }),
      400,
      "validation_error",
      "template: unknown field",
    );
    expectError(
      await h.api("PATCH", `/vgate/pbx/${p.id}`, { city: "lon" }),
      400,
      "validation_error",
      "city: unknown field",
    );
  });

  it("moves to another city, but not while a call is up", async () => {
    const p = await newPbx();
    setCallsUp(h.emu.app.store, p.id, 1);
    expect((await h.api("GET", `/vgate/pbx/${p.id}`)).body.calls_up).toBe(1);
    expectError(
      await h.api("POST", `/vgate/pbx/${p.id}/move`, { city: "nyc" }),
      409,
      "conflict",
      /cannot move while a call is up \(1 up now\)/,
    );
    setCallsUp(h.emu.app.store, p.id, 0);
    const moved = await h.api("POST", `/vgate/pbx/${p.id}/move`, { city: "nyc" });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ city: "nyc", timezone: "Europe/Berlin" });
    expectError(
      await h.api("POST", `/vgate/pbx/${p.id}/move`, { city: "syd" }),
      409,
      "conflict",
      /does not accept new PBXs/,
    );
    expectError(await h.api("POST", `/vgate/pbx/${p.id}/move`, {}), 400, "validation_error", "city: is required");
    expect((await h.api("POST", `/vgate/pbx/${p.id}/move`, { city: "nyc" })).status).toBe(200);
  });

  it("resumes outbound calls and reloads", async () => {
    const p = await newPbx();
    pauseOutbound(h.emu.app.store, p.id);
    expect((await h.api("GET", `/vgate/pbx/${p.id}`)).body.status).toBe("paused");
    expect((await post(`/vgate/pbx/${p.id}/resume`, undefined)).status).toBe("active");
    expect((await post(`/vgate/pbx/${p.id}/reload`, undefined)).reloaded_at).toMatch(ISO_MS);
  });

  it("deletes a PBX with everything in it; other accounts never see it", async () => {
    const p = await newPbx({ template: "contact-centre" });
    expectError(
      await h.api("GET", `/vgate/pbx/${p.id}`, undefined, { token: h.tokens.other }),
      404,
      "not_found",
      "PBX not found",
    );
    expectError(await h.api("DELETE", `/vgate/pbx/${p.id}`, undefined, { token: h.tokens.other }), 404, "not_found");
    expect((await h.api("GET", "/vgate/pbx", undefined, { token: h.tokens.other })).body.data).toEqual([]);
    expect((await h.api("DELETE", `/vgate/pbx/${p.id}`)).status).toBe(204);
    expectError(await h.api("GET", `/vgate/pbx/${p.id}`), 404, "not_found");
    expectError(await h.api("GET", `/vgate/pbx/${p.id}/extensions`), 404, "not_found", "PBX not found");
  });
});

describe("extensions", () => {
  it("creates with defaults, shows the SIP password once, rotates it", async () => {
    const p = await newPbx();
    const r = await h.api("POST", `/vgate/pbx/${p.id}/extensions`, {});
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      pbx_id: p.id,
      number: "101",
      name: "Extension 101",
      user_email: null,
      caller_id_name: null,
      caller_id_number: null,
      outbound_class: "national",
      record: "never",
      voicemail: null,
      forward: null,
      dnd: false,
      ring_timeout: 30,
      max_calls: 2,
      sip_username: "101",
    });
    const first = r.body.sip_password;
    expect(first).toEqual(expect.any(String));
    const got = await h.api("GET", `/vgate/pbx/${p.id}/extensions/${r.body.id}`);
    expect(got.body).not.toHaveProperty("sip_password");
    const rot = await post(`/vgate/pbx/${p.id}/extensions/${r.body.id}/password`, undefined);
    expect(rot).toMatchObject({ id: r.body.id, number: "101" });
    expect(rot.sip_password).not.toBe(first);
    expect((await post(`/vgate/pbx/${p.id}/extensions`, {})).number).toBe("102");
  });

  it("takes every field, patches any of them, and keeps dial numbers unique", async () => {
    const p = await newPbx();
    const full = {
      number: "200",
      name: "Alice",
      user_email: "alice@example.test",
      caller_id_name: "Alice A",
      caller_id_number: "+4930123456",
      outbound_class: "international",
      record: "always",
      voicemail: { enabled: true, pin: "1234" },
      forward: { busy: "hangup" },
      dnd: true,
      ring_timeout: 45,
      max_calls: 4,
    };
    const e = await post(`/vgate/pbx/${p.id}/extensions`, full);
    expect(e).toMatchObject(full);
    const b = await post(`/vgate/pbx/${p.id}/extensions`, { number: "201" });
    const patched = await h.api("PATCH", `/vgate/pbx/${p.id}/extensions/${e.id}`, {
      name: "Alice B",
      forward: { noanswer: `voicemail:${b.id}` },
      user_email: null,
    });
    expect(patched.body).toMatchObject({
      name: "Alice B",
      forward: { noanswer: `voicemail:${b.id}` },
      user_email: null,
      number: "200",
    });
    expectError(
      await h.api("PATCH", `/vgate/pbx/${p.id}/extensions/${b.id}`, { number: "200" }),
      409,
      "conflict",
      `number: 200 is already dialled for extension 200 (${e.id})`,
    );
    await post(`/vgate/pbx/${p.id}/groups`, { number: "300", name: "G" });
    expectError(
      await h.api("POST", `/vgate/pbx/${p.id}/extensions`, { number: "300" }),
      409,
      "conflict",
      /ring group "G"/,
    );
    // b is now a forward target of e.
    expectError(
      await h.api("DELETE", `/vgate/pbx/${p.id}/extensions/${b.id}`),
      409,
      "conflict",
      `extension 201 (${b.id}) cannot be deleted while something routes to it: extension 200 (${e.id}); change or delete it first`,
    );
  });

  it("validates fields", async () => {
    const p = await newPbx();
    const cases: [unknown, string | RegExp][] = [
      [{ number: "0123" }, "number: must be 2 to 6 digits, not starting with 0"],
      [{ number: 101 }, "number: must be a string"],
      [{ user_email: "nope" }, "user_email: must be an email address"],
      [{ caller_id_number: "030123" }, "caller_id_number: must be an E.164 number such as +4930123456"],
      [{ outbound_class: "galactic" }, "outbound_class: must be one of internal, local, national, international"],
      [{ ring_timeout: 2 }, "ring_timeout: must be between 5 and 300"],
      [{ max_calls: 1.5 }, "max_calls: must be an integer"],
      [{ voicemail: { pin: "12" } }, "voicemail.pin: must be 4 to 10 digits"],
      [{ forward: { always: "somewhere" } }, /^forward.always: must be hangup, external:<E.164>/],
      [{ forward: { always: "group:grp_000000000000" } }, "forward.always: no ring group grp_000000000000 in this PBX"],
      [{ sip_password: "x" }, "sip_password: unknown field"],
    ];
    for (const [body, msg] of cases)
      expectError(await h.api("POST", `/vgate/pbx/${p.id}/extensions`, body), 400, "validation_error", msg);
    expectError(
      await h.api("GET", `/vgate/pbx/${p.id}/extensions/ext_000000000000`),
      404,
      "not_found",
      "extension not found",
    );
  });

  it("imports extensions from CSV, reporting each row by line", async () => {
    const p = await newPbx();
    await post(`/vgate/pbx/${p.id}/extensions`, { number: "105" });
    const csv = 'number,name,user_email\n101,Ann,ann@example.test\n\n"102","Bob, Jr.",\n105,Dup,\n1x,Bad,\n,Auto,\n';
    const r = await post(`/vgate/pbx/${p.id}/extensions/import`, { csv });
    expect(r).toMatchObject({ created: 3, failed: 2 });
    expect(r.rows.map((x: any) => [x.line, x.status])).toEqual([
      [2, "created"],
      [4, "created"],
      [5, "failed"],
      [6, "failed"],
      [7, "created"],
    ]);
    expect(r.rows[1]).toMatchObject({ number: "102", sip_password: expect.any(String) });
    expect(r.rows[2].error).toMatch(/number: 105 is already dialled/);
    expect(r.rows[3].error).toBe("number: must be 2 to 6 digits, not starting with 0");
    expect(r.rows[4].number).toBe("103");
    const names = (await h.api("GET", `/vgate/pbx/${p.id}/extensions`)).body.data.map((e: any) => e.name);
    expect(names).toEqual(["Extension 105", "Ann", "Bob, Jr.", "Auto"]);
  });
});

describe("trunks and numbers", () => {
  it("keeps a trunk's password write-only and checks the mode's needs", async () => {
    const p = await newPbx();
    expectError(
      await h.api("POST", `/vgate/pbx/${p.id}/trunks`, { host: "sip.carrier.example" }),
      400,
      "validation_error",
      "username: is required when mode is register",
    );
    expectError(
      await h.api("POST", `/vgate/pbx/${p.id}/trunks`, { mode: "peer" }),
      400,
      "validation_error",
      "auth_ips: a peer trunk needs host or auth_ips",
    );
    expectError(
      await h.api("POST", `/vgate/pbx/${p.id}/trunks`, { mode: "peer", auth_ips: ["198.51.100.0/33"] }),
      400,
      "validation_error",
      "auth_ips[0]: must be an IP address or prefix",
    );
    expectError(
      await h.api("POST", `/vgate/pbx/${p.id}/trunks`, { mode: "peer", host: "x.example", codecs: ["opus", "opus"] }),
      400,
      "validation_error",
      "codecs[1]: duplicate of item 0",
    );
    const t = await post(`/vgate/pbx/${p.id}/trunks`, {
      name: "Carrier",
      host: "sip.carrier.example",
      username: "acct1",
      password: "s3cret-pass",
      transport: "tls",
    });
    expect(t).toMatchObject({
      name: "Carrier",
      mode: "register",
      transport: "tls",
      port: 5061,
      max_channels: 0,
      auth_ips: [],
      codecs: ["ulaw", "alaw"],
      password_set: true,
      state: "registered",
    });
    expect(JSON.stringify(t)).not.toContain("s3cret-pass");
    const patched = await h.api("PATCH", `/vgate/pbx/${p.id}/trunks/${t.id}`, {
      host: "down.invalid",
      password: "other",
    });
    expect(patched.body).toMatchObject({ host: "down.invalid", state: "failed", password_set: true });
    expect((await post(`/vgate/pbx/${p.id}/trunks/${t.id}/test`, undefined)).state).toBe("failed");
    expectError(
      await h.api("PATCH", `/vgate/pbx/${p.id}/trunks/${t.id}`, { password: null }),
      400,
      "validation_error",
      "password: is required when mode is register",
    );
    const peer = await post(`/vgate/pbx/${p.id}/trunks`, { mode: "peer", auth_ips: ["198.51.100.7", "2001:db8::/48"] });
    expect(peer).toMatchObject({ state: "up", password_set: false, port: 5060 });
  });

  it("refuses a number or route's trunk to go first, naming what uses it", async () => {
    const p = await newPbx();
    const t = await post(`/vgate/pbx/${p.id}/trunks`, { mode: "peer", host: "192.0.2.10" });
    const n = await post(`/vgate/pbx/${p.id}/numbers`, { e164: "+4930555000", trunk_id: t.id });
    expect(n).toMatchObject({
      e164: "+4930555000",
      trunk_id: t.id,
      source: "byo",
      flow: null,
      flow_group_id: null,
      flow_timecond_id: null,
    });
    const out = await post(`/vgate/pbx/${p.id}/outbound`, {
      name: "Out",
      patterns: [{ match: "0.", strip: 1, prepend: "+49" }],
      trunks: [t.id],
    });
    expect(out).toMatchObject({ priority: 10, emergency: false, caller_id_override: null });
    expectError(
      await h.api("DELETE", `/vgate/pbx/${p.id}/trunks/${t.id}`),
      409,
      "conflict",
      `trunk "Trunk" (${t.id}) cannot be deleted while something routes to it: number +4930555000 ` +
        `(${n.id}), outbound route "Out" (${out.id}); change or delete them first`,
    );
    expectError(
      await h.api("POST", `/vgate/pbx/${p.id}/numbers`, { e164: "+4930555000" }),
      409,
      "conflict",
      /already number/,
    );
    expectError(await h.api("POST", `/vgate/pbx/${p.id}/numbers`, {}), 400, "validation_error", "e164: is required");
    expectError(
      await h.api("POST", `/vgate/pbx/${p.id}/numbers`, { e164: "4930" }),
      400,
      "validation_error",
      /^e164: must be an E.164 number/,
    );
    expectError(
      await h.api("POST", `/vgate/pbx/${p.id}/numbers`, { e164: "+4930555001", trunk_id: "trk_nope" }),
      400,
      "validation_error",
      "trunk_id: no trunk trk_nope in this PBX",
    );
    expect(
      (await h.api("PATCH", `/vgate/pbx/${p.id}/numbers/${n.id}`, { trunk_id: null, e164: "+4930555002" })).body,
    ).toMatchObject({ trunk_id: null, e164: "+4930555002" });
    expect((await h.api("DELETE", `/vgate/pbx/${p.id}/outbound/${out.id}`)).status).toBe(204);
    expect((await h.api("DELETE", `/vgate/pbx/${p.id}/trunks/${t.id}`)).status).toBe(204);
  });

  it("sells platform numbers from the balance and releases them on delete", async () => {
    const p = await newPbx();
    const before = (await h.api("GET", "/vgate/balance")).body;
    expect(before).toMatchObject({ currency: "EUR" });
    const avail = (await h.api("GET", "/vgate/numbers/available")).body.data;
    expect(avail[0]).toEqual({
      id: expect.any(String),
      e164: expect.stringMatching(/^\+\d+$/),
      city: "fra",
      monthly_micros: 1000000,
    });
    const bought = await h.api("POST", `/vgate/pbx/${p.id}/numbers/buy`, { number_id: avail[0].id });
    expect(bought.status).toBe(201);
    expect(bought.body).toMatchObject({ e164: avail[0].e164, source: "platform" });
    const after = (await h.api("GET", "/vgate/balance")).body;
    expect(after.balance_micros).toBe(before.balance_micros - 1000000);
    expect(after.movements[0]).toMatchObject({ amount_micros: -1000000, kind: "number" });
    expect((await h.api("GET", "/vgate/numbers/available")).body.data.map((x: any) => x.id)).not.toContain(avail[0].id);
    expectError(
      await h.api("POST", `/vgate/pbx/${p.id}/numbers/buy`, { number_id: avail[0].id }),
      409,
      "conflict",
      /bought already/,
    );
    expectError(
      await h.api("PATCH", `/vgate/pbx/${p.id}/numbers/${bought.body.id}`, { e164: "+4930999999" }),
      409,
      "conflict",
      /platform number/,
    );
    await h.api("DELETE", `/vgate/pbx/${p.id}/numbers/${bought.body.id}`);
    expect((await h.api("GET", "/vgate/numbers/available")).body.data.map((x: any) => x.id)).toContain(avail[0].id);
    expectError(
      await h.api("POST", "/vgate/balance/topup", { amount_micros: 5, idempotency_key: "k" }),
      403,
      "forbidden",
      /console only/,
    );
  });
});

describe("routes, IVRs, ring groups, queues and time conditions", () => {
  it("creates each with its defaults and refuses deletes while anything routes to it", async () => {
    const p = await newPbx();
    const a = await post(`/vgate/pbx/${p.id}/extensions`, { number: "101" });
    const b = await post(`/vgate/pbx/${p.id}/extensions`, { number: "102" });
    const g = await post(`/vgate/pbx/${p.id}/groups`, { number: "600", name: "Sales", members: [a.id, b.id] });
    expect(g).toMatchObject({ strategy: "ringall", noanswer: "hangup", moh: "default", ring_s: 20 });
    const q = await post(`/vgate/pbx/${p.id}/queues`, {
      name: "Support",
      agents: [b.id],
      timeout: `voicemail:${a.id}`,
    });
    expect(q).toMatchObject({
      number: null,
      strategy: "ringall",
      moh: "default",
      max_wait_s: 300,
      announce_every_s: 0,
      announce_position: false,
      announce_wait: false,
    });
    const ivr = await post(`/vgate/pbx/${p.id}/ivrs`, {
      name: "Main",
      greeting: "hello",
      options: { "1": `group:${g.id}`, "2": `queue:${q.id}`, "#": "hangup" },
    });
    expect(ivr).toMatchObject({ invalid: "hangup", timeout: "hangup", direct_dial: false, timeout_s: 10, repeat: 2 });
    const n = await post(`/vgate/pbx/${p.id}/numbers`, { e164: "+4930555100" });
    const inr = await post(`/vgate/pbx/${p.id}/inbound`, {
      name: "Main line",
      number_id: n.id,
      destination: `ivr:${ivr.id}`,
    });
    expect(inr).toMatchObject({ did: null, cid_pattern: null });
    const tc = await post(`/vgate/pbx/${p.id}/timeconds`, {
      name: "Hours",
      schedule: [{ days: ["mon", "fri"], from: "08:00", to: "18:00" }],
    });
    expect(tc).toMatchObject({ name: "Hours", schedule: [{ days: ["mon", "fri"], from: "08:00", to: "18:00" }] });

    const refused: [string, RegExp][] = [
      [`extensions/${a.id}`, new RegExp(`ring group "Sales" \\(${g.id}\\), queue "Support" \\(${q.id}\\)`)],
      [`groups/${g.id}`, new RegExp(`IVR "Main" \\(${ivr.id}\\)`)],
      [`queues/${q.id}`, /IVR "Main"/],
      [`ivrs/${ivr.id}`, /inbound route "Main line"/],
      [`numbers/${n.id}`, /inbound route "Main line"/],
    ];
    for (const [path, msg] of refused)
      expectError(await h.api("DELETE", `/vgate/pbx/${p.id}/${path}`), 409, "conflict", msg);

    // Dependents first, then what they routed to: every delete succeeds.
    for (const path of [
      `inbound/${inr.id}`,
      `numbers/${n.id}`,
      `ivrs/${ivr.id}`,
      `queues/${q.id}`,
      `groups/${g.id}`,
      `extensions/${a.id}`,
      `extensions/${b.id}`,
      `timeconds/${tc.id}`,
    ]) {
      expect((await h.api("DELETE", `/vgate/pbx/${p.id}/${path}`)).status, path).toBe(204);
    }
  });

  it("validates references, patterns and schedules", async () => {
    const p = await newPbx();
    const a = await post(`/vgate/pbx/${p.id}/extensions`, {});
    const cases: [string, unknown, string | RegExp][] = [
      ["groups", { members: [a.id, a.id] }, "members[1]: duplicate of item 0"],
      ["groups", { members: ["ext_missing"] }, "members[0]: no extension ext_missing in this PBX"],
      ["groups", { strategy: "shout" }, "strategy: must be one of ringall, hunt, memoryhunt, random"],
      ["queues", { agents: ["x"], max_wait_s: -1 }, "max_wait_s: must be between 0 and 7200"],
      ["ivrs", { options: { "12": "hangup" } }, /^options.12: must be one key/],
      ["ivrs", { options: { "1": `ivr:ivr_missing` } }, "options.1: no IVR ivr_missing in this PBX"],
      ["ivrs", { timeout_s: 0 }, "timeout_s: must be between 1 and 60"],
      ["inbound", {}, "destination: is required"],
      ["inbound", { destination: "hangup", did: "+49 30" }, /^did: must be digits/],
      ["inbound", { destination: "hangup", number_id: "num_x" }, "number_id: no number num_x in this PBX"],
      ["outbound", { trunks: ["trk_x"], patterns: [{ match: "X." }] }, "trunks[0]: no trunk trk_x in this PBX"],
      ["outbound", { trunks: ["trk_x"], patterns: [] }, "patterns: must have at least 1 items"],
      ["outbound", { trunks: ["trk_x"], patterns: [{ match: "X.", colour: 1 }] }, "patterns[0].colour: unknown field"],
      ["timeconds", { name: "x" }, "schedule: is required"],
      [
        "timeconds",
        { schedule: [{ days: ["mon"], from: "18:00", to: "08:00" }] },
        "schedule[0].to: must be later than from",
      ],
      [
        "timeconds",
        { schedule: [{ days: ["monday"], from: "08:00", to: "18:00" }] },
        /^schedule\[0\].days\[0\]: must be one of mon, tue/,
      ],
    ];
    for (const [path, body, msg] of cases)
      expectError(await h.api("POST", `/vgate/pbx/${p.id}/${path}`, body), 400, "validation_error", msg);
  });

  it("patches routes, IVRs, groups, queues and time conditions", async () => {
    const p = await newPbx();
    const a = await post(`/vgate/pbx/${p.id}/extensions`, {});
    const t = await post(`/vgate/pbx/${p.id}/trunks`, { mode: "peer", host: "192.0.2.1" });
    const checks: [string, unknown, unknown][] = [
      ["groups", { name: "G" }, { strategy: "hunt", members: [a.id], ring_s: 30, number: "650" }],
      ["queues", { name: "Q" }, { agents: [a.id], announce_position: true, timeout: `extension:${a.id}` }],
      ["ivrs", { name: "I" }, { direct_dial: true, options: { "0": `extension:${a.id}` }, greeting: null }],
      [
        "inbound",
        { destination: "hangup" },
        { destination: `extension:${a.id}`, did: "+4930XXXX", cid_pattern: "+49." },
      ],
      [
        "outbound",
        { patterns: [{ match: "X." }], trunks: [t.id] },
        { priority: 5, emergency: true, caller_id_override: "+4930111111" },
      ],
      [
        "timeconds",
        { schedule: [{ days: ["sat"], from: "10:00", to: "12:00" }] },
        { name: "Weekend", schedule: [{ days: ["sat", "sun"], from: "10:00", to: "24:00" }] },
      ],
    ];
    for (const [path, create, patch] of checks) {
      const obj = await post(`/vgate/pbx/${p.id}/${path}`, create);
      const r = await h.api("PATCH", `/vgate/pbx/${p.id}/${path}/${obj.id}`, patch);
      expect(r.status, path).toBe(200);
      expect(r.body).toMatchObject(patch as object);
      expect((await h.api("GET", `/vgate/pbx/${p.id}/${path}/${obj.id}`)).body).toEqual(r.body);
    }
  });
});

describe("number flows", () => {
  it("makes, updates and removes the ring group and business hours a flow needs", async () => {
    const p = await newPbx();
    const a = await post(`/vgate/pbx/${p.id}/extensions`, {});
    const b = await post(`/vgate/pbx/${p.id}/extensions`, {});
    const n = await post(`/vgate/pbx/${p.id}/numbers`, { e164: "+4930555200" });
    const hours = [{ days: ["mon", "tue", "wed", "thu", "fri"], from: "09:00", to: "17:00" }];
    const flow = { ring: [a.id], ring_s: 25, hours, after_hours: `voicemail:${a.id}` };
    const r = await h.api("PUT", `/vgate/pbx/${p.id}/numbers/${n.id}/flow`, flow);
    expect(r.status).toBe(200);
    expect(r.body.flow).toEqual(flow);
    const group = (await h.api("GET", `/vgate/pbx/${p.id}/groups/${r.body.flow_group_id}`)).body;
    expect(group).toMatchObject({ name: "Flow +4930555200", members: [a.id], ring_s: 25, number: null });
    const tc = (await h.api("GET", `/vgate/pbx/${p.id}/timeconds/${r.body.flow_timecond_id}`)).body;
    expect(tc).toMatchObject({ name: "Hours +4930555200", schedule: hours });
    expect((await h.api("GET", `/vgate/pbx/${p.id}/numbers/${n.id}`)).body.flow).toEqual(flow);
    expectError(
      await h.api("DELETE", `/vgate/pbx/${p.id}/groups/${group.id}`),
      409,
      "conflict",
      /the flow of number \+4930555200/,
    );
    expectError(
      await h.api("DELETE", `/vgate/pbx/${p.id}/extensions/${a.id}`),
      409,
      "conflict",
      /ring group "Flow \+4930555200"/,
    );

    // The next flow updates the same group.
    const r2 = await h.api("PUT", `/vgate/pbx/${p.id}/numbers/${n.id}/flow`, { ring: [a.id, b.id] });
    expect(r2.body.flow_group_id).toBe(group.id);
    expect(r2.body.flow_timecond_id).toBeNull();
    expect((await h.api("GET", `/vgate/pbx/${p.id}/groups/${group.id}`)).body.members).toEqual([a.id, b.id]);
    expectError(await h.api("GET", `/vgate/pbx/${p.id}/timeconds/${tc.id}`), 404, "not_found");

    const cases: [unknown, string][] = [
      [{ ring_s: 20 }, "ring: give exactly one of ring and destination (or an empty body to clear the flow)"],
      [
        { ring: [a.id], destination: "hangup" },
        "ring: give exactly one of ring and destination (or an empty body to clear the flow)",
      ],
      [{ destination: "hangup", ring_s: 10 }, "ring_s: only with ring"],
      [{ destination: "hangup", after_hours: "hangup" }, "after_hours: only with hours"],
      [{ ring: ["ext_x"] }, "ring[0]: no extension ext_x in this PBX"],
      [{ destination: "hangup", colour: "red" }, "colour: unknown field"],
    ];
    for (const [body, msg] of cases)
      expectError(await h.api("PUT", `/vgate/pbx/${p.id}/numbers/${n.id}/flow`, body), 400, "validation_error", msg);

    const cleared = await h.api("PUT", `/vgate/pbx/${p.id}/numbers/${n.id}/flow`, {});
    expect(cleared.body).toMatchObject({ flow: null, flow_group_id: null });
    expectError(await h.api("GET", `/vgate/pbx/${p.id}/groups/${group.id}`), 404, "not_found");
    expect((await h.api("DELETE", `/vgate/pbx/${p.id}/extensions/${a.id}`)).status).toBe(204);
  });
});

describe("simulate", () => {
  it("traces inbound calls through flows, routes, IVRs and groups, and outbound calls over trunks", async () => {
    const p = await newPbx({ timezone: "UTC" });
    const a = await post(`/vgate/pbx/${p.id}/extensions`, { voicemail: { enabled: true } });
    const b = await post(`/vgate/pbx/${p.id}/extensions`, {});
    const g = await post(`/vgate/pbx/${p.id}/groups`, {
      name: "Both",
      members: [a.id, b.id],
      noanswer: `voicemail:${a.id}`,
    });
    const ivr = await post(`/vgate/pbx/${p.id}/ivrs`, {
      name: "Menu",
      options: { "1": `group:${g.id}` },
      direct_dial: true,
    });
    const n1 = await post(`/vgate/pbx/${p.id}/numbers`, { e164: "+4930555301" });
    await post(`/vgate/pbx/${p.id}/numbers`, { e164: "+4930555302" });
    await post(`/vgate/pbx/${p.id}/inbound`, { number_id: n1.id, destination: `ivr:${ivr.id}` });
    await h.api(
      "PUT",
      `/vgate/pbx/${p.id}/numbers/${(await h.api("GET", `/vgate/pbx/${p.id}/numbers`)).body.data[1].id}/flow`,
      {
        ring: [b.id],
        hours: [{ days: ["mon"], from: "09:00", to: "17:00" }],
        after_hours: `voicemail:${a.id}`,
      },
    );

    const sim = (body: unknown) => post(`/vgate/pbx/${p.id}/simulate`, body);
    const viaGroup = await sim({ to: "+4930555301", presses: ["1"], answer: { [a.id]: false } });
    expect(viaGroup).toMatchObject({ outcome: "answered", answered_by: b.id, kind: "inbound" });
    expect(viaGroup.steps.map((s: any) => s.object)).toEqual(["number", "inbound", "ivr", "group"]);
    expect((await sim({ to: "+4930555301", presses: ["1"], answer: { [a.id]: false, [b.id]: false } })).outcome).toBe(
      "voicemail",
    );
    expect((await sim({ to: "+4930555301", presses: [b.number] })).answered_by).toBe(b.id);
    expect((await sim({ to: "+4930555301" })).outcome).toBe("hangup");
    // 2026-11-23 is a Monday.
    expect((await sim({ to: "+4930555302", at: "2026-11-23T10:00:00Z" })).answered_by).toBe(b.id);
    expect((await sim({ to: "+4930555302", at: "2026-11-24T10:00:00Z" })).outcome).toBe("voicemail");
    expect((await sim({ to: "+4930555399" })).outcome).toBe("no_route");

    const t1 = await post(`/vgate/pbx/${p.id}/trunks`, { name: "Primary", mode: "peer", host: "192.0.2.1" });
    const t2 = await post(`/vgate/pbx/${p.id}/trunks`, { name: "Backup", mode: "peer", host: "192.0.2.2" });
    await post(`/vgate/pbx/${p.id}/outbound`, {
      patterns: [{ match: "0ZX.", strip: 1, prepend: "+49" }],
      trunks: [t1.id, t2.id],
    });
    const out = await sim({ kind: "internal", ext: a.number, to: "03012345" });
    expect(out).toMatchObject({ outcome: "external", trunk_id: t1.id, dialled: "+493012345" });
    expect((await sim({ kind: "internal", to: "03012345", fail_trunks: [t1.id] })).trunk_id).toBe(t2.id);
    expect((await sim({ kind: "internal", to: "03012345", fail_trunks: [t1.id, t2.id] })).outcome).toBe("failed");
    expect((await sim({ kind: "internal", to: b.number })).answered_by).toBe(b.id);
    pauseOutbound(h.emu.app.store, p.id);
    expect((await sim({ kind: "internal", to: "03012345" })).outcome).toBe("paused");
    expectError(
      await h.api("POST", `/vgate/pbx/${p.id}/simulate`, { kind: "outbound", to: "1" }),
      400,
      "validation_error",
      "kind: must be one of inbound, internal",
    );
  });
});
