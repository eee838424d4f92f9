// Customer-run (BYO) mail servers: registered with their addresses, installed with a command that
// carries the agent's credential (shown on create and on rotation only), refused deletion while
// mail domains use them.
import { z } from "zod";
import { ApiError, invalid } from "../pipeline/errors";
import { MAIL_ZONE, type MailServerRow, installCommand, mail, newInstallToken } from "./state";
import { uniqueId } from "../model/tables";
import { serverView } from "./views";
import { collection } from "../model/collection";
import type { Store } from "../model/store";
import { isIPv4, isIPv6 } from "../util/ip";

const createServerBody = z.strictObject({
  name: z
    .string()
    .transform((s) => s.trim())
    .pipe(z.string().min(1).max(64)),
  ip4: z.string(),
  ip6: z.string().nullable().optional(),
});

/** The agent's credential is shown in the install command of the create and token answers only. */
const withInstallCommand = (server: MailServerRow, { store }: { store: Store }) => ({
  ...serverView(store, server),
  install_command: installCommand(server),
});

const servers = collection({
  path: "/mail/servers",
  item: "/mail/servers/{id}",
  what: "mail server",
  table: ({ store }) => mail(store).servers,
  view: (s, { store }) => serverView(store, s),
  create: {
    body: createServerBody,
    answer: withInstallCommand,
    build: ({ store, account, body }): MailServerRow => {
      const ip4 = body.ip4.trim();
      if (!isIPv4(ip4)) throw invalid("ip4", "must be an IPv4 address");
      const ip6 = body.ip6 ? body.ip6.trim().toLowerCase() : null;
      if (ip6 !== null && !isIPv6(ip6)) throw invalid("ip6", "must be an IPv6 address");
      const id = uniqueId("srv", mail(store).servers);
      const now = store.timestamp();
      return {
        id,
        account: account.name,
        name: body.name,
        ip4,
        ip6,
        hostname: `${id.replace("_", "-")}.byo.${MAIL_ZONE}`,
        install_token: newInstallToken(),
        token_issued_at: now,
        last_check: null,
        created_at: now,
      };
    },
  },
  remove: ({ store }, server) => {
    const users = store.list(mail(store).domains, server.account).filter((d) => d.server_id === server.id);
    if (users.length) {
      throw new ApiError(
        "conflict",
        `mail server ${server.id} (${server.name}) is used by mail domain(s) ` +
          `${users.map((d) => `${d.name} (id ${d.id})`).join(", ")}; delete those domains first`,
      );
    }
  },
});

export const mailServerRoutes = [
  ...servers.routes,

  servers.member("POST", "token", (server, ctx) => {
    server.install_token = newInstallToken();
    server.token_issued_at = ctx.store.timestamp();
    return withInstallCommand(server, ctx);
  }),

  servers.member("GET", "deliverability", (server, { store }) => {
    const domains = store.list(mail(store).domains, server.account).filter((d) => d.server_id === server.id);
    const check = server.last_check;
    const byKind = (kind: string) =>
      domains.map((d) => {
        const recs = d.records.filter((r) => r.kind === kind);
        const bad = recs.find((r) => r.check !== "ok");
        return { domain: d.name, status: bad ? (bad.check ?? "unchecked") : "ok" };
      });
    const ptr = {
      expected: server.hostname,
      seen: check?.ptr ?? null,
      ok: check !== null && check.ptr === server.hostname,
    };
    const port25 = { ok: check?.port25 ?? null };
    const spf = byKind("spf");
    const dkim = byKind("dkim");
    const dmarc = byKind("dmarc");
    const advice: string[] = [];
    if (check === null) advice.push("The agent has not reported yet: run the install command on the server.");
    if (check !== null && !ptr.ok)
      advice.push(`Ask the owner of ${server.ip4} to set its PTR record to ${server.hostname}.`);
    if (check !== null && !check.port25)
      advice.push("Outbound port 25 is blocked; ask the hosting provider to open it or relay through the service.");
    for (const [name, list] of [
      ["SPF", spf],
      ["DKIM", dkim],
      ["DMARC", dmarc],
    ] as const) {
      for (const item of list)
        if (item.status !== "ok")
          advice.push(
            `${name} of ${item.domain} is ${item.status}; run POST /mail/domains/{id}/check after publishing it.`,
          );
    }
    return { server_id: server.id, checked_at: check?.at ?? null, ptr, port25, spf, dkim, dmarc, advice };
  }),
];
