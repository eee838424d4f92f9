// Edge sites: onboarding by CNAME, settings, origin, verification, certificates and purge
// (the onboarding advice is in onboard.ts). Zone-mode sites are made by proxying a DNS record (see ../cdn/state.ts).
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { ApiError, invalid } from "../pipeline/errors";
import { normalizeZoneName } from "../model/names";
import { assignDefined, collection } from "../model/collection";
import { isIP } from "../util/ip";
import { httpUrl } from "../util/url";
import {
  CACHE_MODES,
  ORIGIN_SCHEMES,
  SENSE_ACTIONS,
  WAF_MODES,
  type SiteRow,
  acmeName,
  acmeTarget,
  cdnFor,
  defaultCdnService,
  deleteSite,
  newSite,
  originCa,
  siteTarget,
  siteView,
} from "./state";
import { certificateProblem, issueCertificate } from "./x509";
import { intBetween } from "../pipeline/validation";

const CACHE_TTL_MAX = 31_536_000;

const createBody = z.strictObject({
  hostname: z.string(),
  origin: z.string(),
  origin_scheme: z.enum(ORIGIN_SCHEMES).optional(),
  origin_host_header: z.boolean().optional(),
  service_id: z.int().optional(),
});

// Inside the waf, waiting_room and sense objects every field is optional: a field left out keeps
// its value, so a patch can switch the WAF on without restating its mode.
const patchBody = z.strictObject({
  waf: z.strictObject({ enabled: z.boolean().optional(), mode: z.enum(WAF_MODES).optional() }).optional(),
  cache_ttl: intBetween(0, CACHE_TTL_MAX).optional(),
  cache_mode: z.enum(CACHE_MODES).optional(),
  cache_html_ttl: intBetween(0, CACHE_TTL_MAX).optional(),
  force_https: z.boolean().optional(),
  origin_scheme: z.enum(ORIGIN_SCHEMES).optional(),
  origin_host_header: z.boolean().optional(),
  under_attack: z.boolean().optional(),
  bot_fight: z.boolean().optional(),
  rate_limit: intBetween(0, 1_000_000).optional(),
  cert_pem: z.string().nullable().optional(),
  key_pem: z.string().nullable().optional(),
  waiting_room: z
    .strictObject({ capacity: intBetween(0, 1_000_000).optional(), session_min: intBetween(1, 1440).optional() })
    .optional(),
  sense: z
    .strictObject({
      enabled: z.boolean().optional(),
      action: z.enum(SENSE_ACTIONS).optional(),
      threshold: intBetween(1, 100).optional(),
    })
    .optional(),
});

const originBody = z.strictObject({
  pages_project_id: z.int().min(1).nullable().optional(),
  link_tunnel_id: z.int().min(1).nullable().optional(),
});

const purgeBody = z.strictObject({ urls: z.array(z.string()).max(30).optional() });

function normalizeOrigin(input: string): string | null {
  const v = input.trim().toLowerCase();
  if (isIP(v)) return v;
  return normalizeZoneName(v);
}

function requireCname(site: SiteRow, what: string): void {
  if (site.dns_mode === "zone") {
    throw new ApiError("conflict", `site ${site.id} (${site.hostname}) is a zone-mode site; ${what}`);
  }
}

function applyCertificate(
  site: SiteRow,
  certPem: string | null | undefined,
  keyPem: string | null | undefined,
  nowMs: number,
): Pick<SiteRow, "cert_pem" | "key_pem"> {
  if (certPem === undefined) {
    if (keyPem !== undefined) throw invalid("key_pem", "can only be sent together with cert_pem");
    return { cert_pem: site.cert_pem, key_pem: site.key_pem };
  }
  if (certPem === null || certPem.trim() === "") {
    if (keyPem !== undefined && keyPem !== null && keyPem !== "")
      throw invalid("key_pem", "must be null when cert_pem removes the certificate");
    return { cert_pem: null, key_pem: null };
  }
  if (keyPem === undefined || keyPem === null || keyPem.trim() === "")
    throw invalid("key_pem", "is required with cert_pem");
  const problem = certificateProblem(certPem, keyPem, site.hostname, nowMs);
  if (problem) throw invalid(problem.field, problem.reason);
  return { cert_pem: certPem, key_pem: keyPem };
}

function urlProblem(u: string, hostname: string): string | null {
  const url = httpUrl(u);
  if (!url) return "must be an absolute http:// or https:// URL";
  if (url.hostname.toLowerCase() !== hostname) return `must be a URL on ${hostname}`;
  return null;
}

export const cdnSites = collection({
  path: "/cdn/sites",
  what: "site",
  table: (ctx) => cdnFor(ctx).sites,
  view: (site, { store }) => siteView(store, site),
  create: {
    body: createBody,
    build: (ctx) => {
      const { store, account, body } = ctx;
      const st = cdnFor(ctx);
      const hostname = normalizeZoneName(body.hostname);
      if (hostname === null) throw invalid("hostname", "must be a host name such as www.example.com");
      const origin = normalizeOrigin(body.origin);
      if (origin === null) throw invalid("origin", "must be an IP address or a host name such as origin.example.net");
      if (origin === hostname) throw invalid("origin", "must not be the site's own hostname; requests would loop");
      let serviceId = defaultCdnService(store, account.name);
      if (body.service_id !== undefined) {
        const svc = store.services.get(body.service_id);
        if (!svc || svc.account !== account.name)
          throw invalid("service_id", `no service ${body.service_id} in this account`);
        if (svc.type !== "cdn") throw invalid("service_id", `service ${svc.id} is a ${svc.type} service, not cdn`);
        serviceId = svc.id;
      }
      const clash = store.list(st.sites, account.name).find((s) => s.hostname === hostname);
      if (clash)
        throw new ApiError(
          "conflict",
          `${hostname} is already an edge site of this account (site ${clash.id}, ${clash.dns_mode} mode)`,
        );
      return newSite(store, {
        account: account.name,
        service_id: serviceId,
        zone_id: null,
        hostname,
        dns_mode: "cname",
        origin,
        ...(body.origin_scheme !== undefined ? { origin_scheme: body.origin_scheme } : {}),
        ...(body.origin_host_header !== undefined ? { origin_host_header: body.origin_host_header } : {}),
      });
    },
  },
  patch: {
    body: patchBody,
    apply: (ctx, site) => {
      const { body } = ctx;
      const cert = applyCertificate(site, body.cert_pem, body.key_pem, ctx.now());
      Object.assign(site, {
        ...cert,
        waf: { ...site.waf, ...body.waf },
        waiting_room: { ...site.waiting_room, ...body.waiting_room },
        sense: { ...site.sense, ...body.sense },
      });
      assignDefined(site, body, [
        "cache_ttl",
        "cache_mode",
        "cache_html_ttl",
        "force_https",
        "origin_scheme",
        "origin_host_header",
        "under_attack",
        "bot_fight",
        "rate_limit",
      ]);
    },
  },
  remove: (ctx, site) => {
    requireCname(site, "un-proxy its DNS records to remove it");
    deleteSite(cdnFor(ctx), site);
    // A proxied record of the same hostname was waiting for this name; it now gets its zone-mode site.
    cdnFor(ctx);
  },
});

export const cdnSiteRoutes = [
  ...cdnSites.routes,

  cdnSites.member(
    "PUT",
    "origin",
    (site, ctx) => {
      const pages = ctx.body.pages_project_id ?? null;
      const tunnel = ctx.body.link_tunnel_id ?? null;
      if (pages !== null && tunnel !== null)
        throw invalid("link_tunnel_id", "cannot be combined with pages_project_id; a site has one origin");
      site.pages_project_id = pages;
      site.link_tunnel_id = tunnel;
      return siteView(ctx.store, site);
    },
    { body: originBody },
  ),

  cdnSites.member("POST", "verify", (site, ctx) => {
    requireCname(site, "it is verified through its zone's delegation (POST /dns/zones/{id}/verify)");
    const expected = siteTarget(site) as string;
    const cname = ctx.publicDns.get(site.hostname)?.cname ?? null;
    const verified = cname === expected;
    if (verified) {
      site.verified_at ??= ctx.store.timestamp();
      // The emulator's certificate authority answers at once, so the certificate is also there.
      site.certificate_requested = true;
      site.managed_certificate = true;
    }
    return {
      verified,
      cname,
      acme_cname: ctx.publicDns.get(acmeName(site))?.cname ?? null,
      expected,
      certificate_requested: site.certificate_requested,
    };
  }),

  cdnSites.member(
    "POST",
    "purge",
    (site, ctx) => {
      const urls = ctx.body.urls;
      if (urls !== undefined) {
        if (urls.length === 0) throw invalid("urls", "must not be empty; leave it out to purge everything");
        urls.forEach((u, i) => {
          const p = urlProblem(u, site.hostname);
          if (p) throw invalid(`urls[${i}]`, p);
        });
      }
      return {
        id: `purge_${randomBytes(8).toString("hex")}`,
        site_id: site.id,
        scope: urls === undefined ? "everything" : "urls",
        urls: urls ?? [],
        created_at: ctx.store.timestamp(),
      };
    },
    { body: purgeBody },
  ),

  cdnSites.member("POST", "origin-certificate", (site, ctx) => {
    return { site_id: site.id, ...issueCertificate(originCa(cdnFor(ctx)), [site.hostname], ctx.now()) };
  }),

  cdnSites.member("POST", "acme", (site, ctx) => {
    let challenge: { name: string; type: string; content: string };
    if (site.dns_mode === "zone") {
      const zone = site.zone_id === null ? undefined : ctx.store.zones.get(site.zone_id);
      if (zone?.status !== "active") {
        throw new ApiError(
          "conflict",
          `zone ${zone?.name ?? "?"} is not active yet; the dns-01 challenge would not be visible in public DNS`,
        );
      }
      challenge = { name: acmeName(site), type: "TXT", content: randomBytes(32).toString("base64url") };
    } else {
      const expected = acmeTarget(site) as string;
      const seen = ctx.publicDns.get(acmeName(site))?.cname ?? null;
      if (seen !== expected) {
        throw new ApiError(
          "conflict",
          `public DNS shows ${seen ?? "no CNAME"} for ${acmeName(site)}; expected a CNAME to ${expected}`,
        );
      }
      challenge = { name: acmeName(site), type: "CNAME", content: expected };
    }
    site.managed_certificate = true;
    return {
      site_id: site.id,
      status: "issued",
      method: "dns-01",
      authority: "emulated ACME authority",
      challenge,
      expires_at: new Date(ctx.now() + 90 * 86_400_000).toISOString(),
    };
  }),
];
