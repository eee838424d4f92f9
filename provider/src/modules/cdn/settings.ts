// What nsp:cdn:Site and nsp:cdn:SiteSettings share: the patchable settings of an edge site, how
// they go on the wire (PATCH /cdn/sites/{id} and PUT /cdn/sites/{id}/origin) and how the site
// comes back into state.
import { z } from "zod";
import { ownIdOf } from "../../framework/api/ids";
import type { CheckFailure, OperationContext } from "../../framework/definition";
import { deepEqual } from "../../framework/engine/diff";
import { body, fromWire, idRef } from "../../framework/api/wire";
import { keysWithRole } from "../../framework/definition/zod-walk";

export const ORIGIN_SCHEMES = ["http", "https", "strict"] as const;

const nonNegative = (description: string) => z.number().int().min(0).optional().meta({ description, patch: true });

export const ORIGIN_SCHEME_DESCRIPTION =
  "How the edge talks to the origin: `http`, `https` (certificate not checked) or `strict` (certificate checked).";

/** The settings PATCH /cdn/sites/{id} takes. Unset means left as the API has it. */
export const settingsShape = {
  originScheme: z.enum(ORIGIN_SCHEMES).optional().meta({ description: ORIGIN_SCHEME_DESCRIPTION, patch: true }),
  originHostHeader: z.boolean().optional().meta({
    description: "Send the site's hostname as the Host header to the origin, instead of the origin's own name.",
    patch: true,
  }),
  waf: z
    .object({
      enabled: z.boolean().meta({ description: "Whether the web application firewall inspects requests." }),
      mode: z
        .enum(["block", "log"])
        .default("block")
        .meta({ description: "`block` stops matching requests; `log` only records them." }),
    })
    .optional()
    .meta({ typeName: "SiteWaf", description: "Web application firewall.", patch: true }),
  cacheTtl: nonNegative("How long the edge caches responses, in seconds."),
  cacheMode: z.enum(["all", "static", "origin"]).optional().meta({
    description: "What the edge caches: `all` responses, `static` assets only, or what the `origin` headers allow.",
    patch: true,
  }),
  cacheHtmlTtl: nonNegative("How long the edge caches HTML, in seconds (0: not cached)."),
  forceHttps: z.boolean().optional().meta({ description: "Redirect plain HTTP requests to HTTPS.", patch: true }),
  underAttack: z
    .boolean()
    .optional()
    .meta({ description: 'Challenge every visitor before passing requests on ("under attack" mode).', patch: true }),
  botFight: z
    .boolean()
    .optional()
    .meta({ description: "Challenge or block traffic recognised as automated.", patch: true }),
  rateLimit: nonNegative("Requests per minute allowed from one client address (0: no limit)."),
  waitingRoom: z
    .object({
      capacity: z
        .number()
        .int()
        .min(0)
        .meta({ description: "Visitors let in at once; further visitors wait (0: no waiting room)." }),
      sessionMin: z
        .number()
        .int()
        .min(1)
        .meta({ description: "Minutes a visitor keeps their place after the last request." }),
    })
    .optional()
    .meta({ typeName: "SiteWaitingRoom", description: "Waiting room in front of the origin.", patch: true }),
  sense: z
    .object({
      enabled: z.boolean().meta({ description: "Whether requests are scored for risk." }),
      action: z
        .enum(["log", "challenge", "block"])
        .default("challenge")
        .meta({ description: "What happens to requests scoring at or above `threshold`." }),
      threshold: z
        .number()
        .int()
        .min(1)
        .max(100)
        .default(50)
        .meta({ description: "Risk score (1-100) from which `action` applies." }),
    })
    .optional()
    .meta({
      typeName: "SiteSense",
      description: "Risk scoring of requests (what the threats view reports on).",
      patch: true,
    }),
  // The certificate goes on the patch with its key, apart from the other settings (see settingsPatch).
  certPem: z
    .string()
    .min(1, "must not be empty")
    .optional()
    .meta({
      description:
        "A custom certificate (PEM, leaf first) for the hostname, used instead of the service's own. Needs " +
        "`keyPem`; removing it from the program removes the certificate.",
    }),
  keyPem: z.string().min(1, "must not be empty").optional().meta({
    description: "Private key (PEM) of `certPem`. Stored as a secret; the API never returns it.",
    secret: true,
    writeOnly: true,
  }),
  // The origin is set by its own PUT (see originPut).
  pagesProjectId: idRef(
    "Static-site project that serves the hostname. At most one of `pagesProjectId` and `linkTunnelId`; " +
      "with neither the site uses its own origin.",
  )
    .nullable()
    .default(null),
  linkTunnelId: idRef(
    "Tunnel that serves the hostname. At most one of `pagesProjectId` and `linkTunnelId`; with neither " +
      "the site uses its own origin.",
  )
    .nullable()
    .default(null),
};

const settingsObject = z.object(settingsShape);
export type Settings = z.output<typeof settingsObject>;

/** What the API reports about any site, whatever resource manages it. */
export const siteStateShape = {
  zoneId: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "Hosting zone of a zone-mode site; null in cname mode." }),
  dnsMode: z.string().meta({
    description:
      "`zone` (a proxied record in a hosted zone) or `cname` (the customer's DNS points a CNAME at `target`).",
  }),
  hasCertificate: z.boolean().meta({ description: "Whether the edge has a certificate for the hostname." }),
  verifiedAt: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "When the site was verified (cname mode) or its zone delegated (zone mode)." }),
  createdAt: z.string().meta({ description: "When the site was created." }),
};

/** The PATCH body's keys, in the order they are compared; the certificate is handled apart. */
const PATCHABLE = keysWithRole(settingsShape, "patch") as (keyof Settings & string)[];
const ORIGIN_KEYS = ["pagesProjectId", "linkTunnelId"] as const;

export function settingsCheck(args: Partial<Settings>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  if (args.keyPem !== undefined && args.certPem === undefined)
    failures.push({ property: "keyPem", reason: "is only used with certPem; set both or neither" });
  if (args.certPem !== undefined && args.keyPem === undefined)
    failures.push({ property: "keyPem", reason: "is required with certPem (the certificate's private key)" });
  if (args.pagesProjectId && args.linkTunnelId)
    failures.push({
      property: "linkTunnelId",
      reason: "a site has one origin: set at most one of pagesProjectId and linkTunnelId",
    });
  return failures;
}

// Written by hand: siteFromWire keeps from the prior state what the site does not send and makes
// `waf` out of two fields, so the state is not a straight mapping of the response.
export const siteWire = z.looseObject({
  id: z.number().int(),
  hostname: z.string(),
  dns_mode: z.string(),
  waf: z.unknown().optional(),
  waf_mode: z.unknown().optional(),
});
export type SiteWire = z.output<typeof siteWire>;

/**
 * The site as state. Fields the API does not document on the site (cache mode, HTML TTL, host
 * header, sense, the origin ids, the WAF mode) are taken from it when it sends them and kept from
 * `prior` otherwise, so a differently shaped answer never reads as drift. On import (no prior)
 * the certificate is left out: without its key, which the API never returns, the program could
 * not manage it, and `certPem` alone would not pass Check.
 */
export function siteFromWire<T extends z.ZodObject>(schema: T, raw: SiteWire, prior: Partial<Settings>): z.output<T> {
  const wired = fromWire(schema, raw) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of [...PATCHABLE, ...ORIGIN_KEYS, "certPem"] as const)
    if (prior[key] !== undefined) out[key] = prior[key];
  for (const [key, value] of Object.entries(wired)) if (value !== undefined && key !== "waf") out[key] = value;
  if (Object.keys(prior).length === 0) delete out.certPem;
  if (typeof raw.waf === "boolean") {
    const mode = typeof raw.waf_mode === "string" ? raw.waf_mode : (prior.waf?.mode ?? "block");
    out.waf = { enabled: raw.waf, mode };
  }
  return out as z.output<T>;
}

/** Whether a setting the program gives differs from what the site has. Unset settings are the API's. */
function differs(news: Partial<Settings>, olds: Partial<Settings>, key: keyof Settings): boolean {
  return news[key] !== undefined && !deepEqual(news[key], olds[key]);
}

/**
 * The PATCH body that brings the site from `olds` to `news`, or undefined when nothing changes.
 * A certificate goes with its key; dropping it from the program (the key was known) removes it.
 */
function settingsPatch(
  schema: z.ZodObject,
  news: Partial<Settings>,
  olds: Partial<Settings>,
  skip: readonly string[] = [],
): Record<string, unknown> | undefined {
  const patch = body(
    schema,
    news as Record<string, unknown>,
    PATCHABLE.filter((k) => !skip.includes(k) && differs(news, olds, k)),
  );
  if (news.certPem !== undefined && news.keyPem !== undefined) {
    if (news.certPem !== olds.certPem || news.keyPem !== olds.keyPem) {
      patch.cert_pem = news.certPem;
      patch.key_pem = news.keyPem;
    }
  } else if (olds.keyPem !== undefined && olds.certPem) {
    patch.cert_pem = null;
  }
  return Object.keys(patch).length ? patch : undefined;
}

/** The PUT /origin body when the site's origin must change, or undefined. */
function originPut(news: Partial<Settings>, olds: Partial<Settings>): Record<string, unknown> | undefined {
  const want = { pages: news.pagesProjectId ?? null, tunnel: news.linkTunnelId ?? null };
  if (want.pages === (olds.pagesProjectId ?? null) && want.tunnel === (olds.linkTunnelId ?? null)) return undefined;
  return {
    pages_project_id: want.pages === null ? null : Number(want.pages),
    link_tunnel_id: want.tunnel === null ? null : Number(want.tunnel),
  };
}

/** Applies the settings to site `id`: PATCH, then PUT origin. Returns the site as the API last answered, if anything was sent. */
export async function applySettings(
  ctx: OperationContext,
  schema: z.ZodObject,
  id: string,
  news: Partial<Settings>,
  olds: Partial<Settings>,
  skip: readonly string[] = [],
): Promise<SiteWire | undefined> {
  let site: SiteWire | undefined;
  const patch = settingsPatch(schema, news, olds, skip);
  if (patch) site = await ctx.client.patch(`/cdn/sites/${id}`, patch, { schema: siteWire, signal: ctx.signal });
  const origin = originPut(news, olds);
  if (origin) site = await ctx.client.put(`/cdn/sites/${id}/origin`, origin, { schema: siteWire, signal: ctx.signal });
  return site;
}

/** Site `siteId` as the API has it, or undefined when it is gone. */
export function readSite(ctx: OperationContext, siteId: string): Promise<SiteWire | undefined> {
  return ctx.client.getOrUndefined(`/cdn/sites/${siteId}`, { schema: siteWire, signal: ctx.signal });
}

export function siteIdOf(token: string, id: string): string {
  return ownIdOf(token, id, { what: "site", form: "<siteId>" });
}
