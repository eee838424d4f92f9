// The registry-database link: a maintainer key stored here, what it discovers (blocks, ASNs,
// organisations, domain objects), the domain objects' name servers and DS records, and the ROA
// plan from what was discovered. Every write here is also open to `link`-scope tokens.
import { z } from "zod";
import { collection, settings } from "../model/collection";
import { ApiError, invalid, notFound } from "../pipeline/errors";
import { type Env, route } from "../pipeline/route";
import { NAME_SERVERS } from "../model/store";
import { rpki } from "../rpki/state";
import { roaMatches, storedCidr } from "../rpki/prefix";
import {
  type DomainObject,
  KEY_ID,
  type LinkRow,
  MAINTAINER_ASNS,
  MAINTAINER_BLOCKS,
  MNTNER,
  maintainerDomains,
  registryTables,
  verifyKey,
} from "./state";

const NSERVER_MAX = 10;
const DS_MAX = 10;
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const DS_RDATA = /^\d{1,5} \d{1,3} \d{1,3} [0-9A-Fa-f]{20,128}$/;

const linkBody = z.strictObject({
  key_id: z.string().regex(KEY_ID, { error: "must be 1 to 64 letters, digits, '.', '_' or '-'" }),
  key_secret: z.string().min(1).max(512),
  mntner: z
    .string()
    .trim()
    .toUpperCase()
    .pipe(z.string().regex(MNTNER, { error: "must be a maintainer name ending in -MNT, such as EXAMPLE-MNT" })),
});

const domainBody = z.strictObject({
  nserver: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .transform((s) => s.replace(/\.$/, ""))
        .pipe(z.string().regex(HOST, { error: "must be a host name such as ns1.example.net" })),
    )
    .max(NSERVER_MAX)
    .optional(),
  ds_rdata: z
    .array(
      z
        .string()
        .trim()
        .transform((s) => s.replace(/\s+/g, " "))
        .pipe(
          z
            .string()
            .regex(DS_RDATA, { error: "must be DS record data: '<key tag> <algorithm> <digest type> <hex digest>'" }),
        ),
    )
    .max(DS_MAX)
    .optional(),
  dry_run: z.boolean().optional(),
});

type Ctx = Env & { account: { name: string } };

function linkView(link: LinkRow | undefined) {
  if (!link) return { linked: false, key_id: null, mntner: null, verified_at: null, synced_at: null, created_at: null };
  return { linked: true, ...link };
}

function requireLink(ctx: Ctx): LinkRow {
  const link = registryTables(ctx.store).links.get(ctx.account.name);
  if (!link) throw new ApiError("conflict", "no registry link for this account; PUT /registry/link first");
  return link;
}

/** The account's link, marked as just synced with the registry. */
function synced(ctx: Ctx): LinkRow {
  const link = requireLink(ctx);
  link.synced_at = ctx.store.timestamp();
  return link;
}

function normalizeDomain(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, "");
}

/** Only the reverse zones of the maintainer's blocks, and names under them, are its to change. */
function requireControlled(link: LinkRow, name: string): void {
  if (!MAINTAINER_BLOCKS.some((b) => name === b.zone || name.endsWith(`.${b.zone}`))) {
    throw new ApiError("forbidden", `maintainer ${link.mntner} does not control the domain object ${name}`);
  }
}

function domainView(d: DomainObject) {
  return {
    name: d.name,
    nserver: [...d.nserver],
    ds_rdata: [...d.ds_rdata],
    mntner: d.mntner,
    updated_at: d.updated_at,
  };
}

function resourcesView(ctx: Ctx, link: LinkRow) {
  if (link.synced_at === null)
    return { mntner: link.mntner, synced_at: null, organisations: [], blocks: [], asns: [], domains: [] };
  const domains = maintainerDomains(ctx.store, link.mntner);
  const zones = ctx.store.list(ctx.store.zones, ctx.account.name);
  const blocks = MAINTAINER_BLOCKS.map((b) => {
    const zone = zones.find((z) => z.name === b.zone);
    const obj = domains.get(b.zone);
    const pointsHere =
      obj !== undefined && obj.nserver.length > 0 && obj.nserver.every((n) => NAME_SERVERS.includes(n));
    const status = zone ? (pointsHere ? "delegated" : "zone_not_delegated") : "not_hosted";
    return {
      prefix: b.prefix,
      rdns: { zone: b.zone, zone_id: zone?.id ?? null, status, nserver: obj ? [...obj.nserver] : [] },
    };
  });
  const base = link.mntner.replace(/-MNT$/, "");
  return {
    mntner: link.mntner,
    synced_at: link.synced_at,
    organisations: [{ handle: `ORG-${base.replace(/-/g, "").slice(0, 8)}1-RIPE`, name: `${base} Networks` }],
    blocks,
    asns: [...MAINTAINER_ASNS],
    domains: [...domains.keys()],
  };
}

function rpkiPlan(ctx: Ctx, link: LinkRow) {
  const t = rpki(ctx.store);
  const roas = ctx.store.list(t.roas, ctx.account.name);
  const cas = ctx.store.list(t.cas, ctx.account.name);
  const suggestions =
    link.synced_at === null
      ? []
      : MAINTAINER_BLOCKS.map((b) => {
          const cidr = storedCidr(b.prefix);
          const covered = roas.some((r) =>
            roaMatches({ asn: r.asn, cidr: storedCidr(r.prefix), maxLength: r.max_length }, { asn: b.asn, cidr }),
          );
          return { asn: b.asn, prefix: b.prefix, max_length: cidr.len, covered };
        });
  const active = cas.some((c) => c.state === "active");
  return {
    suggestions,
    steps: [
      {
        step: "sync",
        done: link.synced_at !== null,
        detail: "discover the maintainer's resources: POST /registry/sync",
      },
      { step: "create_ca", done: cas.length > 0, detail: "create a hosted CA: POST /rpki/cas" },
      {
        step: "parent_response",
        done: active,
        detail: "hand the CA's child request to the registry and POST its parent response",
      },
      {
        step: "roas",
        done: suggestions.length > 0 && suggestions.every((s) => s.covered),
        detail: "create a ROA for every suggestion: POST /rpki/cas/{id}/roas",
      },
    ],
  };
}

// The maintainer's domain objects: they belong to the maintainer the account's link names (one
// registry table per maintainer), and PUT both creates and replaces one, so only list and delete fit.
const domains = collection({
  path: "/registry/domains",
  item: "/registry/domains/{name}",
  what: "domain object",
  linkWrite: true,
  table: (ctx) => maintainerDomains(ctx.store, requireLink(ctx).mntner),
  key: (d: DomainObject) => d.name,
  perAccount: true,
  own: (ctx, name) => {
    const d = maintainerDomains(ctx.store, requireLink(ctx).mntner).get(normalizeDomain(String(name)));
    if (!d) throw notFound("domain object");
    return d;
  },
  view: domainView,
  get: false,
  remove: true,
});

export const registryRoutes = [
  ...settings({
    path: "/registry/link",
    method: "PUT",
    linkWrite: true,
    read: (ctx) => linkView(registryTables(ctx.store).links.get(ctx.account.name)),
    body: linkBody,
    write: (ctx) => {
      const { key_id, key_secret, mntner } = ctx.body;
      const refused = verifyKey(mntner, key_id, key_secret);
      if (refused) throw invalid(refused.field, refused.message);
      const links = registryTables(ctx.store).links;
      const prior = links.get(ctx.account.name);
      const now = ctx.store.timestamp();
      // The key secret is checked and then only used towards the registry; it is never shown again.
      const link: LinkRow = {
        key_id,
        mntner,
        verified_at: now,
        synced_at: prior?.mntner === mntner ? prior.synced_at : null,
        created_at: prior?.created_at ?? now,
      };
      links.set(ctx.account.name, link);
      maintainerDomains(ctx.store, mntner);
      return linkView(link);
    },
  }),

  route({
    method: "DELETE",
    path: "/registry/link",
    scope: "write",
    linkWrite: true,
    handler: (ctx) => {
      if (!registryTables(ctx.store).links.delete(ctx.account.name)) throw notFound("registry link");
    },
  }),

  route({
    method: "POST",
    path: "/registry/sync",
    scope: "write",
    linkWrite: true,
    handler: (ctx) => resourcesView(ctx, synced(ctx)),
  }),

  route({
    method: "GET",
    path: "/registry/resources",
    scope: "read",
    handler: (ctx) => resourcesView(ctx, requireLink(ctx)),
  }),

  route({
    method: "GET",
    path: "/registry/rpki/plan",
    scope: "read",
    handler: (ctx) => rpkiPlan(ctx, requireLink(ctx)),
  }),

  ...domains.routes,

  route({
    method: "PUT",
    path: "/registry/domains/{name}",
    scope: "write",
    linkWrite: true,
    body: domainBody,
    handler: (ctx) => {
      const link = requireLink(ctx);
      const name = normalizeDomain(ctx.params.name);
      requireControlled(link, name);
      const nserver = ctx.body.nserver ?? [];
      const ds = ctx.body.ds_rdata ?? [];
      if (new Set(nserver).size !== nserver.length) throw invalid("nserver", "must not repeat a name server");
      if (new Set(ds).size !== ds.length) throw invalid("ds_rdata", "must not repeat a DS record");
      if (ds.length > 0 && nserver.length === 0)
        throw invalid("ds_rdata", "needs at least one nserver: a DS record without a delegation cannot be published");
      const obj: DomainObject = { name, nserver, ds_rdata: ds, mntner: link.mntner, updated_at: ctx.store.timestamp() };
      if (!ctx.body.dry_run) maintainerDomains(ctx.store, link.mntner).set(name, obj);
      return { ...domainView(obj), dry_run: ctx.body.dry_run ?? false };
    },
  }),
];
