// The mail area of the emulator over HTTP: the addresses of a domain besides its mailboxes (aliases,
// groups) and its domain rules.
import { describe, expect, it } from "vitest";
import { expectError, ISO_MS } from "../helpers/emulator-http";
import { useMailAccounts } from "../helpers/emulator-mail";

const h = useMailAccounts();
const { other, created, newDomain, newMailbox, newMailboxRaw } = h;

describe("aliases and groups", () => {
  it("creates and deletes aliases, sharing the local-part space with mailboxes", async () => {
    const { domain } = await newDomain();
    const m = await newMailbox(domain.id, "carol");
    const r = await h.api("POST", `/mail/domains/${domain.id}/aliases`, {
      local_part: "Info",
      target_mailbox_id: m.id,
      enabled: false,
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.any(Number),
      domain_id: domain.id,
      local_part: "info",
      address: `info@${domain.name}`,
      target_mailbox_id: m.id,
      target_address: `carol@${domain.name}`,
      enabled: false,
      created_at: expect.stringMatching(ISO_MS),
    });
    expect((await h.api("GET", `/mail/domains/${domain.id}/aliases`)).body.data).toEqual([r.body]);
    expectError(
      await h.api("POST", `/mail/domains/${domain.id}/aliases`, { local_part: "carol", target_mailbox_id: m.id }),
      409,
      "conflict",
      `carol@${domain.name} is already used by mailbox ${m.id}`,
    );
    expectError(
      await newMailboxRaw(domain.id, "info"),
      409,
      "conflict",
      `info@${domain.name} is already used by alias ${r.body.id}`,
    );
    expectError(
      await h.api("POST", `/mail/domains/${domain.id}/aliases`, { local_part: "x", target_mailbox_id: "mbx_nope" }),
      400,
      "validation_error",
      "target_mailbox_id: no mailbox mbx_nope in this account",
    );
    expectError(
      await h.api("POST", `/mail/domains/${domain.id}/aliases`, { local_part: "x" }),
      400,
      "validation_error",
      "target_mailbox_id: is required",
    );
    expectError(await h.api("PATCH", `/mail/aliases/${r.body.id}`, { enabled: true }), 405, "method_not_allowed");
    expectError(await other("DELETE", `/mail/aliases/${r.body.id}`), 404, "not_found");
    expect((await h.api("DELETE", `/mail/aliases/${r.body.id}`)).status).toBe(204);
    expectError(await h.api("DELETE", `/mail/aliases/${r.body.id}`), 404, "not_found");
  });

  it("creates a group with defaults, patches it (local_part required), and replaces an alias when asked", async () => {
    const { domain } = await newDomain();
    const r = await h.api("POST", `/mail/domains/${domain.id}/groups`, {
      local_part: "team",
      members: [{ address: "A@example.com" }, { address: "b@example.com", role: "owner" }],
    });
    expect(r.status).toBe(201);
    const g = r.body;
    expect(g).toEqual({
      id: expect.stringMatching(/^grp_[0-9a-f]{12}$/),
      domain_id: domain.id,
      local_part: "team",
      address: `team@${domain.name}`,
      name: "team",
      members: [
        { address: "a@example.com", role: "member" },
        { address: "b@example.com", role: "owner" },
      ],
      allow_external_senders: false,
      members_can_send: true,
      enabled: true,
      archive: false,
      posting: "members",
      reply_to: "sender",
      subject_tag: null,
      created_at: expect.stringMatching(ISO_MS),
    });
    expectError(
      await h.api("PATCH", `/mail/groups/${g.id}`, { name: "x" }),
      400,
      "validation_error",
      "local_part: is required",
    );
    const p = await h.api("PATCH", `/mail/groups/${g.id}`, {
      local_part: "crew",
      name: "The crew",
      members: [],
      allow_external_senders: true,
      members_can_send: false,
      enabled: false,
      archive: true,
      posting: "anyone",
      reply_to: "group",
      subject_tag: "[crew]",
    });
    expect(p.body).toMatchObject({
      local_part: "crew",
      address: `crew@${domain.name}`,
      name: "The crew",
      members: [],
      allow_external_senders: true,
      members_can_send: false,
      enabled: false,
      archive: true,
      posting: "anyone",
      reply_to: "group",
      subject_tag: "[crew]",
    });
    expect(
      (await h.api("PATCH", `/mail/groups/${g.id}`, { local_part: "crew", subject_tag: "" })).body.subject_tag,
    ).toBeNull();

    const m = await newMailbox(domain.id, "dana");
    const alias = await created("POST", `/mail/domains/${domain.id}/aliases`, {
      local_part: "support",
      target_mailbox_id: m.id,
    });
    expectError(
      await h.api("POST", `/mail/domains/${domain.id}/groups`, { local_part: "support" }),
      409,
      "conflict",
      /already used by alias .*; set replace_alias to replace the alias/,
    );
    expectError(
      await h.api("POST", `/mail/domains/${domain.id}/groups`, { local_part: "dana", replace_alias: true }),
      409,
      "conflict",
      `dana@${domain.name} is already used by mailbox ${m.id}`,
    );
    const replaced = await created("POST", `/mail/domains/${domain.id}/groups`, {
      local_part: "support",
      replace_alias: true,
    });
    expect(replaced.local_part).toBe("support");
    expectError(await h.api("DELETE", `/mail/aliases/${alias.id}`), 404, "not_found");
    // Renaming onto a taken local part is refused too.
    expectError(
      await h.api("PATCH", `/mail/groups/${g.id}`, { local_part: "support" }),
      409,
      "conflict",
      /already used by group/,
    );

    const cases: [unknown, string | RegExp][] = [
      [{}, "local_part: is required"],
      [{ local_part: "x", posting: "all" }, "posting: must be one of anyone, org, members"],
      [{ local_part: "x", reply_to: "list" }, "reply_to: must be one of sender, group"],
      [
        { local_part: "x", members: [{ address: "nope" }] },
        "members[0].address: must be an email address such as ops@example.com",
      ],
      [{ local_part: "x", members: [{ address: "a@example.com", name: "A" }] }, "members[0].name: unknown field"],
      [
        { local_part: "x", members: [{ address: "a@example.com" }, { address: "a@example.com" }] },
        "members[1].address: duplicate of members[0].address",
      ],
      [
        { local_part: "x", members: [{ address: "a@example.com", role: "admin" }] },
        "members[0].role: must be one of member, manager, owner",
      ],
      [{ local_part: "x", subject_tag: "t".repeat(33) }, "subject_tag: must be at most 32 characters"],
    ];
    for (const [body, message] of cases)
      expectError(await h.api("POST", `/mail/domains/${domain.id}/groups`, body), 400, "validation_error", message);
    expect((await h.api("GET", `/mail/domains/${domain.id}/groups`)).body.data.map((x: any) => x.id)).toEqual([
      g.id,
      replaced.id,
    ]);
    expectError(await other("PATCH", `/mail/groups/${g.id}`, { local_part: "x" }), 404, "not_found");
    expect((await h.api("DELETE", `/mail/groups/${g.id}`)).status).toBe(204);
    expectError(await h.api("DELETE", `/mail/groups/${g.id}`), 404, "not_found");
  });
});

describe("domain rules", () => {
  it("creates, patches and deletes rules, with the target each kind needs", async () => {
    const { domain } = await newDomain();
    const path = `/mail/domains/${domain.id}/rules`;
    const copy = await h.api("POST", path, { kind: "forward_copy", pattern: " CEO@* ", target: "Archive@Example.NET" });
    expect(copy.status).toBe(201);
    expect(copy.body).toEqual({
      id: expect.any(Number),
      domain_id: domain.id,
      kind: "forward_copy",
      pattern: "ceo@*",
      target: "archive@example.net",
      enabled: true,
      created_at: expect.stringMatching(ISO_MS),
    });
    const reject = await created("POST", path, { kind: "reject_sender", pattern: "*@spam.example", enabled: false });
    expect(reject).toMatchObject({ target: null, enabled: false });
    const relay = await created("POST", path, {
      kind: "relay_rcpt",
      pattern: `*@legacy.${domain.name}`,
      target: "Relay.Example.NET:2525",
    });
    expect(relay.target).toBe("relay.example.net:2525");
    await created("POST", path, { kind: "relay_rcpt", pattern: "x", target: "[2001:db8::25]:25" });
    await created("POST", path, { kind: "quarantine_sender", pattern: "bulk.example", target: "" });

    const cases: [unknown, string | RegExp][] = [
      [{ pattern: "x" }, "kind: is required"],
      [
        { kind: "drop", pattern: "x" },
        "kind: must be one of forward_copy, reject_sender, quarantine_sender, relay_rcpt",
      ],
      [{ kind: "reject_sender" }, "pattern: is required"],
      [{ kind: "reject_sender", pattern: "a b" }, "pattern: must not contain spaces"],
      [
        { kind: "reject_sender", pattern: "x", target: "ops@example.com" },
        "target: must be empty for reject_sender rules",
      ],
      [{ kind: "forward_copy", pattern: "x" }, "target: forward_copy needs the address that receives the copy"],
      [
        { kind: "forward_copy", pattern: "x", target: "ops" },
        "target: must be an email address such as ops@example.com for forward_copy",
      ],
      [{ kind: "relay_rcpt", pattern: "x" }, /^target: relay_rcpt needs the relay host/],
      [{ kind: "relay_rcpt", pattern: "x", target: "relay:99999" }, /^target: must be a host name or address/],
    ];
    for (const [body, message] of cases) expectError(await h.api("POST", path, body), 400, "validation_error", message);

    const p = await h.api("PATCH", `/mail/domainrules/${copy.body.id}`, {
      enabled: false,
      target: "legal@example.net",
    });
    expect(p.body).toMatchObject({
      kind: "forward_copy",
      pattern: "ceo@*",
      target: "legal@example.net",
      enabled: false,
    });
    expect(
      (
        await h.api("PATCH", `/mail/domainrules/${copy.body.id}`, {
          kind: "reject_sender",
          pattern: "x@y",
          target: null,
        })
      ).body,
    ).toMatchObject({ kind: "reject_sender", target: null });
    expectError(
      await h.api("PATCH", `/mail/domainrules/${copy.body.id}`, { kind: "forward_copy" }),
      400,
      "validation_error",
      "target: forward_copy needs the address that receives the copy",
    );
    expect((await h.api("GET", path)).body.data.map((x: any) => x.id).slice(0, 2)).toEqual([copy.body.id, reject.id]);
    expectError(await other("PATCH", `/mail/domainrules/${copy.body.id}`, { enabled: true }), 404, "not_found");
    expect((await h.api("DELETE", `/mail/domainrules/${copy.body.id}`)).status).toBe(204);
    expectError(await h.api("DELETE", `/mail/domainrules/${copy.body.id}`), 404, "not_found");
  });
});
