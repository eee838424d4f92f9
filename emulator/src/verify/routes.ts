// Bot verification: site keys for the challenge widget. The server secret is shown by the create
// and rotate answers only (see ../verify/state.ts).
import { z } from "zod";
import { normalizeHostnames } from "../model/names";
import { assignDefined, checkUniqueName, collection } from "../model/collection";
import type { Env } from "../pipeline/route";
import { VERIFY_INTERACTIONS, VERIFY_MODES, type VerifySiteRow, newSecret, newSitekey, verifySites } from "./state";

const VERIFY_NAME_MAX = 100;
const VERIFY_HOSTNAMES_MAX = 50;

const name = z.string().trim().min(1).max(VERIFY_NAME_MAX);
const hostnames = z.array(z.string()).max(VERIFY_HOSTNAMES_MAX);
const mode = z.enum(VERIFY_MODES);

const createBody = z.strictObject({
  name,
  hostnames: hostnames.optional(),
  mode: mode.optional(),
  fingerprint: z.boolean().optional(),
  interaction: z.enum(VERIFY_INTERACTIONS).optional(),
});

const patchBody = z.strictObject({
  name: name.optional(),
  hostnames: hostnames.optional(),
  mode: mode.optional(),
  enabled: z.boolean().optional(),
  fingerprint: z.boolean().optional(),
});

type Ctx = Env & { account: { name: string } };

function checkName(ctx: Ctx, value: string, self?: number): void {
  checkUniqueName(ctx.store.list(verifySites(ctx.store), ctx.account.name), value, "a verify site", self);
}

const hostList = (list: string[]) => normalizeHostnames(list, "www.example.com");

function siteView(s: VerifySiteRow) {
  const { account: _account, secret: _secret, ...shown } = s;
  return { ...shown, hostnames: [...s.hostnames] };
}

/** The secret is shown by the create and rotate answers only. */
const withSecret = (s: VerifySiteRow) => ({ ...siteView(s), secret: s.secret });

const sites = collection({
  path: "/verify/sites",
  what: "verify site",
  table: ({ store }) => verifySites(store),
  view: siteView,
  create: {
    body: createBody,
    answer: withSecret,
    build: (ctx) => {
      const { store, account, body } = ctx;
      const hosts = hostList(body.hostnames ?? []);
      checkName(ctx, body.name);
      const now = store.timestamp();
      return {
        id: store.nextId(),
        account: account.name,
        name: body.name,
        hostnames: hosts,
        mode: body.mode ?? "managed",
        fingerprint: body.fingerprint ?? false,
        interaction: body.interaction ?? "off",
        enabled: true,
        sitekey: newSitekey(),
        secret: newSecret(),
        secret_issued_at: now,
        created_at: now,
      };
    },
  },
  patch: {
    body: patchBody,
    check: ({ body }) => body.hostnames === undefined || hostList(body.hostnames),
    apply: (ctx, site) => {
      const { body } = ctx;
      const hostnames = body.hostnames === undefined ? undefined : hostList(body.hostnames);
      if (body.name !== undefined) checkName(ctx, body.name, site.id);
      assignDefined(site, { ...body, hostnames }, ["name", "hostnames", "mode", "enabled", "fingerprint"]);
    },
  },
  remove: true,
});

/** Deterministic per site and bucket, so two reads of the same range agree. */
function counts(siteId: number, bucket: number) {
  const seed = (siteId * 7919 + bucket * 104729) % 1000;
  const challenges = 50 + seed;
  const passes = Math.floor(challenges * 0.9);
  const escalations = Math.floor(challenges * 0.06);
  const fails = challenges - passes - escalations;
  return { challenges, passes, escalations, fails, siteverify_calls: passes };
}

const RANGE_BUCKETS = {
  "1h": { n: 12, ms: 5 * 60_000 },
  "24h": { n: 24, ms: 3_600_000 },
  "7d": { n: 7, ms: 86_400_000 },
} as const;

/** The range a query asks for (24 hours unless told) with its buckets. */
function rangeOf(query: { range?: keyof typeof RANGE_BUCKETS }) {
  const range = query.range ?? "24h";
  return { range, b: RANGE_BUCKETS[range] };
}

export const verifyRoutes = [
  ...sites.routes,

  sites.member("POST", "rotate", (site, ctx) => {
    site.secret = newSecret();
    site.secret_issued_at = ctx.store.timestamp();
    return withSecret(site);
  }),

  sites.member(
    "GET",
    "insights",
    (site, ctx) => {
      const { range, b } = rangeOf(ctx.query);
      const total = { challenges: 0, passes: 0, escalations: 0, fails: 0, siteverify_calls: 0 };
      for (let i = 0; i < b.n; i++)
        for (const [k, v] of Object.entries(counts(site.id, i))) total[k as keyof typeof total] += v;
      return { range, ...total, pass_rate: total.challenges === 0 ? 0 : total.passes / total.challenges };
    },
    { query: z.strictObject({ range: z.enum(["24h", "7d"]).optional() }) },
  ),

  sites.member(
    "GET",
    "analytics",
    (site, ctx) => {
      const { range, b } = rangeOf(ctx.query);
      const end = Math.floor(ctx.now() / b.ms) * b.ms;
      const buckets = Array.from({ length: b.n }, (_, i) => ({
        at: new Date(end - (b.n - 1 - i) * b.ms).toISOString(),
        ...counts(site.id, i),
      }));
      return { range, buckets };
    },
    { query: z.strictObject({ range: z.enum(["1h", "24h", "7d"]).optional() }) },
  ),
];
