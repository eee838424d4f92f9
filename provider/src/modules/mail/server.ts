import { isIPv4, isIPv6 } from "node:net";
import { z } from "zod";
import { oneTimeSecret, rotationTrigger } from "../../framework/api/validators";
import { deepEqual } from "../../framework/engine/diff";
import { isApiError } from "../../client";
import { collection, apiId, postOnce } from "../../framework/api/shapes/collection";
import { STRING_ID, ownIdOf } from "../../framework/api/ids";
import { domainWire } from "./domain";

const TOKEN = "nsp:mail:Server";

// The API has no patch for servers: a change replaces the server.
const serverArgs = z.object({
  name: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(64, "must be at most 64 characters")
    .meta({ key: true, description: "Name of the server, for people.", create: true, replace: true }),
  ip4: z
    .string()
    .trim()
    .refine(isIPv4, "must be an IPv4 address")
    .meta({ description: "IPv4 address the server sends and receives mail from.", create: true, replace: true }),
  ip6: z
    .string()
    .trim()
    .toLowerCase()
    .refine(isIPv6, "must be an IPv6 address")
    .optional()
    .meta({ description: "IPv6 address of the server, if it has one.", create: true, replace: true }),
  tokenRotation: rotationTrigger(
    "Any string or number; changing it issues a fresh install command (a new agent credential in " +
      "`installCommand`) and ends the agent's current session. The API never sees it.",
  ),
});

const serverState = z.object({
  hostname: z.string().meta({
    description:
      "The name the service gives the server; MX records of its domains point here, and its PTR record should too.",
  }),
  status: z.string().meta({
    description: "`waiting` until the agent first reports, then `online` or `degraded` after its last self-check.",
  }),
  lastCheck: z
    .object({
      at: z.string().meta({ description: "When the agent checked." }),
      ok: z.boolean().meta({ description: "Whether every check passed." }),
      port25: z.boolean().meta({ description: "Whether outbound port 25 is open." }),
      ptr: z.string().nullable().optional().meta({ description: "The PTR name of the server's IPv4 address." }),
      version: z.string().optional().meta({ description: "Agent version." }),
    })
    .nullable()
    .optional()
    .meta({ typeName: "MailServerCheck", description: "The agent's last self-check." }),
  domainIds: z
    .array(z.string().meta({ wireInteger: true }))
    .meta({ description: "Ids of the mail domains the server serves." }),
  tokenIssuedAt: z.string().optional().meta({ description: "When the current install command was issued." }),
  installCommand: oneTimeSecret(
    "Command that installs the agent on the server; it carries the agent's credential. The API shows it " +
      "only when the server is created and on rotation, so it is kept from the state on every refresh; null " +
      "after an import (change `tokenRotation` to get one).",
  ),
  createdAt: z.string().meta({ description: "When the server was registered." }),
});

function serverIdOf(id: string): string {
  return ownIdOf(TOKEN, id, {
    what: "mail server",
    form: "<serverId>",
    pattern: STRING_ID,
    example: "srv_0123456789ab",
  });
}

// Absent from every answer but the create and the rotation (see oneTime): null until then.
const servers = collection({
  token: TOKEN,
  path: "/mail/servers",
  args: serverArgs,
  state: serverState,
  idOnWire: z.string(),
  id: apiId(serverIdOf),
  adjust: (state) => ({ ...state, installCommand: state.installCommand ?? null }),
});

export const server = servers.resource({
  since: "0.1.0",
  description:
    "A customer-run (BYO) mail server. Its `installCommand` (a secret, shown by the API once) installs " +
    "the agent; change `tokenRotation` to issue a new one. The API refuses to delete a server while mail " +
    "domains use it: delete those domains (or move them to another server) first; the engine does so when " +
    "the domains depend on the server (`serverId: server.id`).",
  importId: "<serverId>",

  // No natural key: a lost answer is not looked up, and the client never repeats a POST blindly.
  create: (ctx, args) => servers.create(ctx, `mail server ${args.name}`, args, postOnce),

  async update(ctx, id, news, olds, changed) {
    if (!changed.includes("tokenRotation") || deepEqual(news.tokenRotation, olds.tokenRotation))
      return { ...olds, ...news };
    const rotated = servers.toState(
      await ctx.client.post(`${servers.itemPath(id)}/token`, undefined, { schema: servers.wire, signal: ctx.signal }),
    );
    return { ...rotated.state, tokenRotation: news.tokenRotation };
  },

  async delete(ctx, id, olds) {
    try {
      await servers.delete(ctx, id);
    } catch (e) {
      if (!(isApiError(e) && e.code === "conflict")) throw e;
      // Name the domains in the way, whatever the API's message says.
      const domains = await ctx.client
        .listAll("/mail/domains", { itemSchema: domainWire, signal: ctx.signal })
        .catch(() => []);
      const users = domains.filter((d) => d.server_id === id);
      if (users.length === 0) throw e;
      throw new Error(
        `${TOKEN}: cannot delete mail server ${id} (${olds.name ?? "?"}) while mail domains use it: ` +
          `${users.map((d) => `${d.name} (id ${d.id})`).join(", ")}. ` +
          ("Delete those domains, or move them to another server, first; with `serverId: server.id` in the " +
            "program the engine deletes them before the server."),
        { cause: e },
      );
    }
  },
});
