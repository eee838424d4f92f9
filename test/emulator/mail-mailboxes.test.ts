// The mail area of the emulator over HTTP: mailboxes and their app passwords.
import { describe, expect, it } from "vitest";
import { expectError } from "../helpers/emulator-http";
import { useMailAccounts } from "../helpers/emulator-mail";

const h = useMailAccounts();
const { other, created, newDomain, newMailbox, newMailboxRaw } = h;

describe("mailboxes and app passwords", () => {
  it("creates a mailbox with the defaults, patches every field, and deletes it with its passwords and aliases", async () => {
    const { domain } = await newDomain();
    const r = await h.api("POST", `/mail/domains/${domain.id}/mailboxes`, {
      domain_id: domain.id,
      local: " Alice.Smith ",
      display: "Alice",
    });
    expect(r.status).toBe(201);
    const m = r.body;
    expect(Object.keys(m).sort()).toEqual(
      [
        "id",
        "domain_id",
        "local",
        "address",
        "display",
        "quota_bytes",
        "used_bytes",
        "state",
        "user_email",
        "send_limit_hour",
        "shared_with",
        "collab",
        "app_passwords",
        "created_at",
      ].sort(),
    );
    expect(m).toMatchObject({
      domain_id: domain.id,
      local: "alice.smith",
      address: `alice.smith@${domain.name}`,
      display: "Alice",
      quota_bytes: domain.default_quota_bytes,
      used_bytes: 0,
      state: "active",
      user_email: null,
      send_limit_hour: 200,
      shared_with: [],
      collab: false,
      app_passwords: [],
    });
    expect(m.id).toMatch(/^mbx_[0-9a-f]{12}$/);
    expect((await h.api("GET", `/mail/domains/${domain.id}/mailboxes`)).body.data).toEqual([m]);

    const p = await h.api("PATCH", `/mail/mailboxes/${m.id}`, {
      display: null,
      quota_bytes: 2 * 1024 ** 3,
      state: "disabled",
      user_email: "Alice@Corp.Example",
      send_limit_hour: 0,
      shared_with: ["bob@corp.example", "Carol@Corp.Example"],
      collab: true,
    });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({
      display: null,
      quota_bytes: 2 * 1024 ** 3,
      state: "disabled",
      user_email: "alice@corp.example",
      send_limit_hour: 0,
      shared_with: ["bob@corp.example", "carol@corp.example"],
      collab: true,
    });
    expect((await h.api("PATCH", `/mail/mailboxes/${m.id}`, { state: "active" })).body.state).toBe("active");

    const pw = await created("POST", `/mail/mailboxes/${m.id}/apppasswords`, { mailbox_id: m.id, label: "phone" });
    const alias = await created("POST", `/mail/domains/${domain.id}/aliases`, {
      local_part: "al",
      target_mailbox_id: m.id,
    });
    expect((await h.api("DELETE", `/mail/mailboxes/${m.id}`)).status).toBe(204);
    expect((await h.api("GET", `/mail/domains/${domain.id}/mailboxes`)).body.data).toEqual([]);
    expect((await h.api("GET", `/mail/domains/${domain.id}/aliases`)).body.data).toEqual([]);
    expectError(await h.api("DELETE", `/mail/apppasswords/${pw.id}`), 404, "not_found");
    expectError(await h.api("DELETE", `/mail/aliases/${alias.id}`), 404, "not_found");
    expectError(await h.api("PATCH", `/mail/mailboxes/${m.id}`, { collab: false }), 404, "not_found");
  });

  it("validates mailboxes", async () => {
    const { domain } = await newDomain();
    const path = `/mail/domains/${domain.id}/mailboxes`;
    const cases: [unknown, string | RegExp][] = [
      [{ local: "x" }, "domain_id: is required"],
      [{ domain_id: domain.id + 1000, local: "x" }, `domain_id: must be the domain in the path (${domain.id})`],
      [{ domain_id: domain.id }, "local: is required"],
      [{ domain_id: domain.id, local: ".x" }, /^local: must be 1 to 64 letters/],
      [{ domain_id: domain.id, local: "a..b" }, /^local: must be 1 to 64 letters/],
      [{ domain_id: domain.id, local: "a+b" }, /^local: must be 1 to 64 letters/],
      [{ domain_id: domain.id, local: "x".repeat(65) }, /^local: must be 1 to 64 letters/],
      [
        { domain_id: domain.id, local: "x", quota_bytes: 10 },
        `quota_bytes: must be between ${1024 ** 2} and ${1024 ** 4}`,
      ],
      [{ domain_id: domain.id, local: "x", display: "d".repeat(129) }, "display: must be at most 128 characters"],
      [{ domain_id: domain.id, local: "x", state: "disabled" }, "state: unknown field"],
    ];
    for (const [body, message] of cases) expectError(await h.api("POST", path, body), 400, "validation_error", message);
    const m = await newMailbox(domain.id, "dup", { quota_bytes: 1024 ** 2 });
    expect(m.quota_bytes).toBe(1024 ** 2);
    expectError(
      await h.api("POST", path, { domain_id: domain.id, local: "DUP" }),
      409,
      "conflict",
      `dup@${domain.name} is already used by mailbox ${m.id}`,
    );
    const patches: [unknown, string][] = [
      [{ state: "frozen" }, "state: must be one of active, disabled"],
      [{ send_limit_hour: 10001 }, "send_limit_hour: must be between 0 and 10000"],
      [{ user_email: "nobody" }, "user_email: must be an email address such as ops@example.com"],
      [{ shared_with: ["a@example.com", "A@example.com"] }, "shared_with[1]: duplicate of shared_with[0]"],
      [{ shared_with: ["x"] }, "shared_with[0]: must be an email address such as ops@example.com"],
      [{ local: "y" }, "local: unknown field"],
    ];
    for (const [body, message] of patches)
      expectError(await h.api("PATCH", `/mail/mailboxes/${m.id}`, body), 400, "validation_error", message);

    const fwd = await newDomain({ mode: "forward" });
    expectError(await newMailboxRaw(fwd.domain.id, "x"), 409, "conflict", /forward-only/);
    expectError(await other("GET", path), 404, "not_found");
    expectError(await other("PATCH", `/mail/mailboxes/${m.id}`, { collab: true }), 404, "not_found");
    expectError(await h.api("GET", `/mail/mailboxes/${m.id}`), 405, "method_not_allowed");
  });

  it("returns an app password once and lists passwords on the mailbox without it", async () => {
    const { domain } = await newDomain();
    const m = await newMailbox(domain.id, "bob");
    const r = await h.api("POST", `/mail/mailboxes/${m.id}/apppasswords`, { mailbox_id: m.id, label: "laptop" });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(["created_at", "id", "label", "last_used_at", "mailbox_id", "password"]);
    expect(r.body.password).toMatch(/^[a-z]{4}(-[a-z]{4}){4}$/);
    expect(r.body.id).toMatch(/^app_[0-9a-f]{12}$/);
    const second = await created("POST", `/mail/mailboxes/${m.id}/apppasswords`, { mailbox_id: m.id });
    expect(second.label).toBeNull();
    expect(second.password).not.toBe(r.body.password);
    const list = await h.api("GET", `/mail/domains/${domain.id}/mailboxes`);
    expect(list.body.data[0].app_passwords).toEqual([
      { id: r.body.id, mailbox_id: m.id, label: "laptop", created_at: r.body.created_at, last_used_at: null },
      { id: second.id, mailbox_id: m.id, label: null, created_at: second.created_at, last_used_at: null },
    ]);
    expect(list.text).not.toContain(r.body.password);

    expectError(
      await h.api("POST", `/mail/mailboxes/${m.id}/apppasswords`, { label: "x" }),
      400,
      "validation_error",
      "mailbox_id: is required",
    );
    expectError(
      await h.api("POST", `/mail/mailboxes/${m.id}/apppasswords`, { mailbox_id: "mbx_000000000000" }),
      400,
      "validation_error",
      `mailbox_id: must be the mailbox in the path (${m.id})`,
    );
    expectError(
      await h.api("POST", `/mail/mailboxes/${m.id}/apppasswords`, { mailbox_id: m.id, label: "l".repeat(65) }),
      400,
      "validation_error",
      "label: must be at most 64 characters",
    );
    expectError(await other("POST", `/mail/mailboxes/${m.id}/apppasswords`, { mailbox_id: m.id }), 404, "not_found");
    expectError(await other("DELETE", `/mail/apppasswords/${r.body.id}`), 404, "not_found");

    for (let i = 2; i < 20; i++) await created("POST", `/mail/mailboxes/${m.id}/apppasswords`, { mailbox_id: m.id });
    expectError(
      await h.api("POST", `/mail/mailboxes/${m.id}/apppasswords`, { mailbox_id: m.id }),
      422,
      "limit_exceeded",
      /already has 20 app passwords/,
    );
    expect((await h.api("DELETE", `/mail/apppasswords/${r.body.id}`)).status).toBe(204);
    expect((await h.api("GET", `/mail/domains/${domain.id}/mailboxes`)).body.data[0].app_passwords).toHaveLength(19);
  });
});
