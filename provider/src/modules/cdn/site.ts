import { isIP } from "node:net";
import { z } from "zod";
import { createOnce } from "../../framework/api/create-once";
import { defineResource, type CheckFailure } from "../../framework/definition";
import type { Holds } from "../../framework/definition/holds";
import { heldRules } from "../security/held-rules";
import { idRef } from "../../framework/api/wire";
import { wireModel } from "../../framework/api/fields";
import { keysWithRole } from "../../framework/definition/zod-walk";
import {
  ORIGIN_SCHEMES,
  ORIGIN_SCHEME_DESCRIPTION,
  applySettings,
  readSite,
  settingsCheck,
  settingsShape,
  siteFromWire,
  siteIdOf,
  siteStateShape,
  siteWire,
  type SiteWire,
} from "./settings";
import { HOST_NAME, dnsName, hostName } from "../../framework/api/validators";

const TOKEN = "nsp:cdn:Site";

const origin = dnsName(
  z
    .string()
    .refine(
      (s) => isIP(s) !== 0 || HOST_NAME.test(s),
      "must be an IP address or a host name such as origin.example.net (no scheme, port or path)",
    ),
);

const siteArgs = z.object({
  hostname: hostName().meta({
    key: true,
    description: "Hostname served through the edge, such as `www.example.com`.",
    create: true,
    replace: true,
  }),
  origin: origin.meta({
    description: "Where the edge fetches content: an IP address or a host name.",
    create: true,
    replace: true,
  }),
  serviceId: idRef(
    "Id of the owning `cdn` service (see `nsp:dns:getService`); the API picks the account's first when unset.",
  )
    .optional()
    .meta({ create: true, replace: true }),
  ...settingsShape,
  // The create body carries the scheme and the host header; a later change is a patch.
  originScheme: z
    .enum(ORIGIN_SCHEMES)
    .default("http")
    .meta({ description: ORIGIN_SCHEME_DESCRIPTION, create: true, patch: true }),
  originHostHeader: settingsShape.originHostHeader.meta({ create: true }),
});

const siteState = z.object({
  ...siteStateShape,
  target: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "The name the customer's CNAME must point at: `<slug>.<edge zone>`." }),
  instructions: z
    .object({
      mode: z.string().meta({ description: "Onboarding mode, `cname`." }),
      addIn: z.string().meta({ description: "The zone (at the customer's DNS provider) where the records go." }),
      records: z
        .array(
          z
            .object({
              name: z.string().meta({ description: "Record name (fully qualified)." }),
              type: z.string().meta({ description: "Record type." }),
              content: z.string().meta({ description: "Record content." }),
            })
            .meta({ typeName: "SiteInstructionRecord", description: "One record to add." }),
        )
        .meta({ description: "The records to add." }),
      note: z.string().meta({ description: "What to do, in words." }),
    })
    .nullable()
    .optional()
    .meta({
      typeName: "SiteInstructions",
      description: "What to add at the customer's DNS provider before verifying the site.",
    }),
});

const siteProperties = siteArgs.extend(siteState.shape);
type SiteState = z.output<typeof siteProperties>;

const api = wireModel(siteArgs, siteState);
/** The settings the create body already carried, which need no patch after it. */
const sentOnCreate = keysWithRole(siteArgs.shape, "create");

const toState = (raw: SiteWire, prior: Partial<SiteState>): SiteState => siteFromWire(siteProperties, raw, prior);

const siteHolds: Holds = { what: "site", kinds: [heldRules("site_id")] };

// No shape: its state and its settings go through settings.ts, which it shares with nsp:cdn:SiteSettings (siteFromWire keeps prior values, applySettings makes several calls), not a wire model and one patch.
export const site = defineResource({
  since: "0.1.0",
  token: TOKEN,
  list: {
    path: "/cdn/sites",
    label: (s) => String(s.hostname),
    skip: (s) =>
      s.dns_mode === "zone"
        ? "zone-mode site: exists because a record of its zone is proxied (owned by that nsp:dns:Record; its " +
          "settings are nsp:cdn:SiteSettings)"
        : s.link_tunnel_id != null
          ? `served by tunnel ${String(s.link_tunnel_id)} (owned by its nsp:link:TunnelHostnames)`
          : s.pages_project_id != null
            ? `custom domain of pages project ${String(s.pages_project_id)} (owned by its nsp:pages:Project)`
            : undefined,
    zoneOf: (s) => s.zone_id,
  },
  description:
    "An edge-proxy site onboarded by CNAME: the hostname's DNS stays where it is and points a CNAME at " +
    "`target` (see `instructions`). Verify it with `nsp:cdn:SiteVerification` once the records are in " +
    "place. Sites of hostnames in zones hosted here are made by proxying their DNS records instead; " +
    "manage those with `nsp:cdn:SiteSettings`.\n\nCreating a site takes up to three calls (create, " +
    "settings, origin); if a later one fails, the site stays in the stack with what was applied, and the " +
    "next `pulumi up` finishes it.\n\nDeleting a site deletes its security rules: see Deleting.",
  args: siteArgs,
  state: siteState,
  holds: siteHolds,
  // A hostname has one site per account, so a replacement of the same name must wait for the delete.
  deleteBeforeReplace: (olds, news) => olds.hostname === news.hostname,
  importId: "<siteId>",

  check(args) {
    const failures: CheckFailure[] = settingsCheck(args);
    if (args.origin === args.hostname)
      failures.push({ property: "origin", reason: "must not be the site's own hostname; requests would loop" });
    return failures;
  },

  async create(ctx, args) {
    const existing = async () =>
      (await ctx.client.listAll("/cdn/sites", { itemSchema: siteWire, signal: ctx.signal })).find(
        (s) => s.hostname === args.hostname,
      );
    const created = await createOnce(
      ctx,
      `site ${args.hostname}`,
      () => ctx.client.post("/cdn/sites", api.createBody(args), { schema: siteWire, signal: ctx.signal }),
      // One site per hostname in an account: the natural key.
      existing,
    );
    const id = String(created.id);
    const createdState = toState(created, {});
    // If a setting fails below, the engine keeps the site with this state and the next up finishes it.
    ctx.progress(id, createdState);
    const final = await applySettings(ctx, siteArgs, id, args, createdState, sentOnCreate);
    return { id, state: toState(final ?? created, args) };
  },

  async read(ctx, id, prior) {
    const siteId = siteIdOf(TOKEN, id);
    const raw = await readSite(ctx, siteId);
    if (!raw) return undefined;
    if (raw.dns_mode !== "cname") {
      throw new Error(
        `${TOKEN}: site ${siteId} (${raw.hostname}) is a ${raw.dns_mode}-mode site, made by proxying DNS ` +
          `records; manage its settings with nsp:cdn:SiteSettings (import id ${siteId})`,
      );
    }
    return { id: siteId, state: toState(raw, prior) };
  },

  async update(ctx, id, news, olds) {
    const siteId = siteIdOf(TOKEN, id);
    const final = await applySettings(ctx, siteArgs, siteId, news, olds);
    return final ? toState(final, { ...olds, ...news }) : { ...olds, ...news };
  },

  async delete(ctx, id) {
    await ctx.client.delete(`/cdn/sites/${siteIdOf(TOKEN, id)}`, { signal: ctx.signal });
  },
});
