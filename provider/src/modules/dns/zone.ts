import { isIP } from "node:net";
import { z } from "zod";
import { dnsName } from "../../framework/api/validators";
import { idRef } from "../../framework/api/wire";
import { collection, apiId, naturalKey } from "../../framework/api/shapes/collection";
import { ownIdOf } from "../../framework/api/ids";
import { isApiError } from "../../client";
import type { OperationContext } from "../../framework/definition";
import { listServices } from "./service";
import type { HeldItem, HeldKind, Holds } from "../../framework/definition/holds";
import { heldRules } from "../security/held-rules";
import { range } from "./range";
import { record } from "./record";

const domainName = dnsName(
  z
    .string()
    .regex(
      /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/,
      "must be a domain name such as example.com",
    ),
);

const zoneArgs = z.object({
  // Optional, so that a program need not look the service up (an API call on every run, even
  // one that changes nothing) only to create its zone once.
  serviceId: idRef(
    "Id of the auth_dns service that serves the zone (see `nsp:dns:getServices`). A zone made without one " +
      "is on the account's auth_dns service (the create fails, naming them, if the account has several) and " +
      "keeps it: naming that service later, or none again, changes nothing.",
  )
    .optional()
    .meta({ create: true, replace: true, keptWhenUnset: true }),
  name: domainName.meta({
    key: true,
    description: "Zone name, such as `example.com`. Stored lower-case without a trailing dot.",
    create: true,
    replace: true,
  }),
  mode: z.enum(["zone", "host"]).default("zone").meta({
    description:
      "`zone` hosts a whole domain; `host` hosts one hostname delegated by NS records inside an existing zone elsewhere.",
    create: true,
    replace: true,
  }),
  // The create body takes only service, name and mode; the rest is set by a patch.
  enabled: z.boolean().default(true).meta({ description: "Whether the zone is served.", patch: true }),
  secondaryMaster: z
    .string()
    .refine((s) => isIP(s) !== 0, "must be an IPv4 or IPv6 address")
    .nullable()
    .optional()
    .meta({
      description: "Master IP when the zone is served as a secondary; unset (or null) serves it as a primary.",
      patch: true,
    }),
  // The API cannot unset it (not nullable): dropping it from the program leaves the last value.
  negativeTtl: z
    .number()
    .int()
    .min(60)
    .max(86400)
    .optional()
    .meta({ description: "TTL of negative answers (NXDOMAIN), in seconds.", patch: true }),
});

const zoneState = z.object({
  status: z.string().meta({ description: "`pending` until the delegation is verified, then `active`." }),
  serial: z.number().int().meta({ description: "SOA serial; it grows with every change." }),
  dnssec: z.boolean().meta({ description: "Whether DNSSEC signing is on." }),
  delegation: z
    .object({
      checkedAt: z.string().nullable().optional().meta({ description: "When the delegation was last checked." }),
      lostAt: z
        .string()
        .nullable()
        .optional()
        .meta({ description: "Set while public DNS reports other name servers; the zone keeps being served." }),
    })
    .meta({ typeName: "ZoneDelegation", description: "Result of the delegation checks." }),
  transfer: z
    .object({
      allow: z.array(z.string()).meta({ description: "Addresses allowed to transfer the zone (AXFR)." }),
      notify: z.array(z.string()).meta({ description: "Addresses sent NOTIFY on change." }),
      tsigName: z.string().nullable().optional().meta({ description: "Name of the TSIG key, when one is configured." }),
      tsigConfigured: z.boolean().meta({ description: "Whether a TSIG key is configured." }),
    })
    .meta({ typeName: "ZoneTransferSettings", description: "Outbound zone-transfer settings." }),
  nameServers: z
    .array(z.string())
    .optional()
    .meta({ description: "The service's name servers, which the delegation must point at." }),
  verifiedAt: z.string().nullable().optional().meta({ description: "When the zone became active." }),
  createdAt: z.string().meta({ description: "When the zone was created." }),
});

/** A zone as nsp:dns:getZone returns it: every zone has its service, named by the program or not. */
export const zoneProperties = zoneArgs
  .extend({ serviceId: idRef("Id of the auth_dns service that serves the zone (see `nsp:dns:getServices`).") })
  .extend(zoneState.shape);
export type ZoneArgs = z.output<typeof zoneArgs>;
const zones = collection({
  token: "nsp:dns:Zone",
  path: "/dns/zones",
  args: zoneArgs,
  state: zoneState,
  idOnWire: z.number().int(),
  id: apiId((id) => ownIdOf("nsp:dns:Zone", id, { what: "zone", form: "<zoneId>" })),
});
/** A zone as the API returns it (getZone reads the same object). */
export const zoneWire = zones.wire as z.ZodType<Record<string, unknown> & { id: number; name: string }>;

/**
 * A refused `service_id` is usually an id copied from an example: the error names the account's
 * auth_dns services and the function that finds them, so the fix needs no second look-up.
 */
async function explainUnknownService(ctx: OperationContext, serviceId: string, error: unknown): Promise<never> {
  if (!(isApiError(error) && error.code === "validation_error" && /^service_id\b/.test(error.serverMessage)))
    throw error;
  const services = await listServices(ctx).catch(() => undefined);
  if (!services) throw error;
  throw new Error(`${unknownServiceMessage(serviceId, services)} (${error.message})`);
}

/**
 * The service of a zone whose program leaves `serviceId` unset: the account's one auth_dns
 * service. Several are not guessed between, as moving a zone later means replacing it.
 */
async function accountAuthDns(ctx: OperationContext, zoneName: string): Promise<string> {
  const authDns = (await listServices(ctx)).filter((s) => s.type === "auth_dns");
  if (authDns.length === 1) return String(authDns[0]!.id);
  const which =
    authDns.length === 0
      ? "the account has no auth_dns service"
      : `the account has ${authDns.length} auth_dns services: ${authDns.map((s) => `${s.id} (${JSON.stringify(s.name)})`).join(", ")}`;
  throw new Error(
    `serviceId is unset for zone ${JSON.stringify(zoneName)} and ${which}; set serviceId to the auth_dns service that should serve it`,
  );
}

function unknownServiceMessage(serviceId: string, services: { id: unknown; name: string; type: string }[]): string {
  const authDns = services.filter((s) => s.type === "auth_dns").map((s) => `${s.id} (${JSON.stringify(s.name)})`);
  const choices = authDns.length ? `its auth_dns services: ${authDns.join(", ")}` : "it has no auth_dns service";
  return (
    `serviceId ${JSON.stringify(serviceId)} is not an auth_dns service of this account (${choices}). ` +
    `Look the id up in the program with nsp:dns:getServices and type auth_dns instead of writing it.`
  );
}

const heldRecords: HeldKind = {
  of: record,
  alsoDeletedBy: ["nsp:dns:ZoneRecords"],
  names: ["record", "records"],
  nameOf: (r: HeldItem) => `${String(r.name)} ${String(r.type)}`,
};

/**
 * A zone's delete takes its records, its zone-wide security rules and its address-range grants
 * (its edge sites are those of its proxied records). Its own records are not the program's:
 * the SOA, the apex NS the service manages, and what its mail domains publish (a mail domain
 * unpublishes them when it is deleted, and a zone's delete keeps the mail domain).
 */
const zoneHolds: Holds = {
  what: "zone",
  kinds: [
    heldRecords,
    heldRules("zone_id"),
    { of: range, names: ["address range", "address ranges"], nameOf: (r) => String(r.prefix) },
  ],
  ownCost: "one list of the account's mail domains, for the records they publish",
  async own(ctx, id, zone) {
    const domains = await ctx.client.listAll<{ zone_id?: unknown; records?: { record_id?: unknown }[] }>(
      "/mail/domains",
      { signal: ctx.signal },
    );
    const published = new Set(
      domains.filter((d) => String(d.zone_id) === id).flatMap((d) => (d.records ?? []).map((r) => String(r.record_id))),
    );
    const apex = new Set(["@", "", String(zone.name)]);
    return (kind, item) =>
      kind === heldRecords &&
      (item.type === "SOA" ||
        (item.type === "NS" && apex.has(String(item.name).replace(/\.$/, ""))) ||
        published.has(String(item.id)));
  },
  note:
    "The people the zone is shared with (`nsp:dns:ZoneGrant`) lose their access with it and do not count: " +
    "a grant holds nothing of its own. The records of an `nsp:dns:ZoneRecords` are deleted before the " +
    "zone, like any child's, unless the program skips that delete with `deletedWith: zone`: then the zone " +
    "holds them at its delete, and it needs `forceDestroy: true`, with which it goes in one request.",
};

export const zone = zones.resource({
  since: "0.1.0",
  list: { filters: { serviceId: "query" }, zoneOf: (z) => z.id, discovery: { zoneName: (z) => String(z.name) } },
  description:
    "An authoritative DNS zone. It stays `pending` until its delegation points at the service's name " +
    "servers (see `nameServers`), then becomes `active`. Deleting a zone deletes its records, security " +
    "rules and address ranges: see Deleting.",
  holds: zoneHolds,
  // Zone names are unique within an account, so a replacement with the same name must wait for the delete.
  deleteBeforeReplace: (olds, news) => olds.name === news.name,
  // Moving a zone to another service is such a replacement (the API cannot move one): a service
  // the create would refuse is found before the zone, and every record in it, is deleted.
  async beforeDeleteFirst(ctx, olds, news) {
    // Unset, the new zone's create looks its service up: a look-up that would fail fails now.
    if (news.serviceId === undefined) {
      await accountAuthDns(ctx, news.name);
      return;
    }
    if (String(news.serviceId) === String(olds.serviceId)) return;
    const services = await listServices(ctx);
    if (services.some((s) => s.type === "auth_dns" && String(s.id) === String(news.serviceId))) return;
    throw new Error(
      `${unknownServiceMessage(String(news.serviceId), services)} The zone ${JSON.stringify(olds.name)} is kept: replacing it would delete it first.`,
    );
  },
  importId: "<zoneId>",
  // The program `pulumi import` writes refers to another imported object wherever a value equals
  // that object's id or name, and only one object's does. A mail domain named as its zone (the
  // usual case) would make the zone's name refer to the domain while the domain's zoneId refers
  // to the zone: the importer sees the cycle and writes every reference of the program as a
  // literal id. The absolute spelling of the zone's own name matches no other object's name.
  importSpelling: { name: (name) => `${name}.` },
  // ...and a refresh keeps that spelling in the inputs.
  sameValue: { name: (prev, next) => prev.replace(/\.$/, "") === next.replace(/\.$/, "") },

  async create(ctx, args) {
    // Zone names are unique in an account: the natural key.
    const serviceId = args.serviceId ?? (await accountAuthDns(ctx, args.name));
    const created = await zones
      .create(
        ctx,
        `zone ${args.name}`,
        { ...args, serviceId },
        naturalKey((z) => z.name === args.name),
      )
      .catch((e: unknown) => explainUnknownService(ctx, serviceId, e));
    ctx.progress(created.id, created.state);
    // What differs from the API's defaults (enabled, no secondary master, its own negative TTL) takes a patch.
    const differing = zones.api
      .patchKeys(Object.keys(zoneArgs.shape))
      .filter((k) => (k === "enabled" ? args.enabled === false : args[k] !== undefined && args[k] !== null));
    if (Object.keys(zones.api.patchBody(args, differing)).length === 0) return created;
    return { id: created.id, state: await zones.update(ctx, created.id, args, created.state, differing) };
  },
});
