// The mail area of the emulator over HTTP: forwarding routes to registered destinations, and what
// deleting a domain takes with it.
import { describe, expect, it } from "vitest";
import { confirmDestination } from "../../emulator/src/mail/state";
import { expectError, ISO_MS } from "../helpers/emulator-http";
import { useMailAccounts } from "../helpers/emulator-mail";

const h = useMailAccounts();
const { other, created, newDomain, newMailbox, newMailboxRaw } = h;

describe("forwarding routes and destinations", () => {
  it("forwards local parts to registered destinations and shows whether they are confirmed", async () => {
    const { domain } = await newDomain({ mode: "forward" });
    const d = await h.api("POST", "/mail/destinations", { addr: " Ops@Example.NET " });
    expect(d.status).toBe(201);
    expect(d.body).toEqual({
      id: expect.stringMatching(/^dst_[0-9a-f]{12}$/),
      addr: "ops@example.net",
      confirmed: false,
      confirmed_at: null,
      created_at: expect.stringMatching(ISO_MS),
    });
    expectError(
      await h.api("POST", "/mail/destinations", { addr: "ops@example.net" }),
      409,
      "conflict",
      "addr: ops@example.net is already a destination of this account",
    );
    expectError(
      await h.api("POST", "/mail/destinations", { addr: "ops" }),
      400,
      "validation_error",
      "addr: must be an email address such as ops@example.com",
    );
    expect((await other("POST", "/mail/destinations", { addr: "ops@example.net" })).status).toBe(201);

    const routes = `/mail/domains/${domain.id}/routes`;
    expectError(
      await h.api("PUT", routes, { local_part: "sales", dest: "unknown@example.net" }),
      400,
      "validation_error",
      /^dest: unknown@example.net is not a forwarding destination of this account/,
    );
    const r = await h.api("PUT", routes, { local_part: "Sales", dest: "OPS@example.net" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      domain_id: domain.id,
      local_part: "sales",
      address: `sales@${domain.name}`,
      dest: "ops@example.net",
      dest_confirmed: false,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });

    confirmDestination(h.emu.app.store, "mailer", "ops@example.net");
    const list = await h.api("GET", "/mail/destinations");
    expect(list.body.data).toContainEqual({ ...d.body, confirmed: true, confirmed_at: expect.stringMatching(ISO_MS) });
    expect((await h.api("GET", routes)).body.data).toEqual([{ ...r.body, dest_confirmed: true }]);

    // PUT again changes the destination of the same local part.
    await created("POST", "/mail/destinations", { addr: "team@example.net" });
    const moved = (await h.api("PUT", routes, { local_part: "sales", dest: "team@example.net" })).body;
    expect(moved).toMatchObject({ dest: "team@example.net", dest_confirmed: false, created_at: r.body.created_at });
    expect((await h.api("GET", routes)).body.data).toHaveLength(1);

    expectError(
      await h.api("DELETE", "/mail/destinations/team%40example.net"),
      409,
      "conflict",
      `destination team@example.net is used by the forwarding routes of sales@${domain.name}; delete or change them first`,
    );
    expect((await h.api("DELETE", `${routes}/sales`)).status).toBe(204);
    expectError(await h.api("DELETE", `${routes}/sales`), 404, "not_found");
    expect((await h.api("DELETE", "/mail/destinations/team@example.net")).status).toBe(204);
    expectError(await h.api("DELETE", "/mail/destinations/team@example.net"), 404, "not_found");
  });

  it("refuses routes in mailbox-only domains and on local parts already in use", async () => {
    await created("POST", "/mail/destinations", { addr: "rules@example.net" });
    const mailboxOnly = await newDomain();
    expectError(
      await h.api("PUT", `/mail/domains/${mailboxOnly.domain.id}/routes`, {
        local_part: "x",
        dest: "rules@example.net",
      }),
      409,
      "conflict",
      /is in mailbox mode/,
    );
    const both = await newDomain({ mode: "both" });
    const m = await newMailbox(both.domain.id, "eve");
    expectError(
      await h.api("PUT", `/mail/domains/${both.domain.id}/routes`, { local_part: "eve", dest: "rules@example.net" }),
      409,
      "conflict",
      `eve@${both.domain.name} is already used by mailbox ${m.id}`,
    );
    expectError(
      await h.api("PUT", `/mail/domains/${both.domain.id}/routes`, { local_part: "a b", dest: "rules@example.net" }),
      400,
      "validation_error",
      /^local_part: must be 1 to 64/,
    );
    expectError(
      await h.api("PUT", `/mail/domains/${both.domain.id}/routes`, { local_part: "x" }),
      400,
      "validation_error",
      "dest: is required",
    );
    await created("PUT", `/mail/domains/${both.domain.id}/routes`, { local_part: "fwd", dest: "rules@example.net" });
    expectError(
      await newMailboxRaw(both.domain.id, "fwd"),
      409,
      "conflict",
      `fwd@${both.domain.name} is already used by route fwd`,
    );
    // Deleting the domain takes its routes, so the destination is free again.
    expect((await h.api("DELETE", `/mail/domains/${both.domain.id}`)).status).toBe(204);
    expect((await h.api("DELETE", "/mail/destinations/rules@example.net")).status).toBe(204);
  });

  it("deletes a domain's mailboxes, aliases, groups, rules and routes with it", async () => {
    const { domain } = await newDomain({ mode: "both" });
    const m = await newMailbox(domain.id, "frank");
    const pw = await created("POST", `/mail/mailboxes/${m.id}/apppasswords`, { mailbox_id: m.id });
    const g = await created("POST", `/mail/domains/${domain.id}/groups`, { local_part: "all" });
    const rule = await created("POST", `/mail/domains/${domain.id}/rules`, { kind: "reject_sender", pattern: "x" });
    expect((await h.api("DELETE", `/mail/domains/${domain.id}`)).status).toBe(204);
    expectError(await h.api("PATCH", `/mail/mailboxes/${m.id}`, {}), 404, "not_found");
    expectError(await h.api("DELETE", `/mail/apppasswords/${pw.id}`), 404, "not_found");
    expectError(await h.api("DELETE", `/mail/groups/${g.id}`), 404, "not_found");
    expectError(await h.api("DELETE", `/mail/domainrules/${rule.id}`), 404, "not_found");
    expectError(await h.api("GET", `/mail/domains/${domain.id}/routes`), 404, "not_found");
  });

  it("counts mail domains and mailboxes in the quota usage", async () => {
    const usage = (await h.api("GET", "/account/quota")).body.usage;
    expect(usage.mail_domains).toBe((await h.api("GET", "/mail/domains?limit=500")).body.data.length);
    expect(typeof usage.mailboxes).toBe("number");
  });
});
