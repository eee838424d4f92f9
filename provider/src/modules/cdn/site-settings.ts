import { z } from "zod";
import { defineResource } from "../../framework/definition";
import {
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
import { hostName } from "../../framework/api/validators";

const TOKEN = "nsp:cdn:SiteSettings";

const settingsArgs = z.object({
  hostname: hostName({ wildcard: true }).meta({
    description: "Hostname of the site, such as `www.example.com`: a proxied record's full name in a zone hosted here.",
    replace: true,
  }),
  ...settingsShape,
});

const settingsState = z.object({
  ...siteStateShape,
  serviceId: z.string().nullable().optional().meta({ description: "Id of the service that owns the site." }),
});

const properties = settingsArgs.extend(settingsState.shape);
type State = z.output<typeof properties>;

const toState = (raw: SiteWire, prior: Partial<State>): State => siteFromWire(properties, raw, prior);

function requireZoneMode(raw: SiteWire): void {
  if (raw.dns_mode !== "zone") {
    throw new Error(
      `${TOKEN}: site ${raw.id} (${raw.hostname}) is a ${raw.dns_mode}-mode site; manage it with nsp:cdn:Site (import id ${raw.id})`,
    );
  }
}

// No shape: it adopts the site a proxied DNS record made; the site has no create or delete of its own here.
export const siteSettings = defineResource({
  since: "0.1.0",
  notListed:
    "settings of zone-mode sites, which are owned by their proxied record; import `<siteId>` by hand to manage them",
  token: TOKEN,
  description:
    "The settings of a zone-mode edge site: the site that exists because a DNS record of a zone hosted " +
    "here is proxied (`proxied: true` on an `nsp:dns:Record`). Such a site cannot be created or deleted " +
    "through the site API, so this resource adopts it by `hostname` and manages its settings; settings " +
    "left unset stay as they are, except the origin: with neither `pagesProjectId` nor `linkTunnelId` the " +
    "site serves from its own origin (the proxied records). Make it depend on the proxied record. " +
    "Deleting this resource leaves the site in place with its current settings; the site goes away when " +
    "no record of its hostname is proxied any more.",
  args: settingsArgs,
  state: settingsState,
  importId: "<siteId>",

  check: settingsCheck,

  async create(ctx, args) {
    // The API has no lookup by hostname; one paged listing finds the site.
    const sites = await ctx.client.listAll("/cdn/sites", { itemSchema: siteWire, signal: ctx.signal });
    const found = sites.find((s) => s.hostname === args.hostname);
    if (!found) {
      throw new Error(
        `${TOKEN}: no edge site for ${args.hostname} in this account (${sites.length} sites listed). A ` +
          `zone-mode site exists while a DNS record of that name is proxied: set \`proxied: true\` on the ` +
          `record and make this resource depend on it`,
      );
    }
    requireZoneMode(found);
    const id = String(found.id);
    const final = await applySettings(ctx, settingsArgs, id, args, toState(found, {}));
    return { id, state: toState(final ?? found, args) };
  },

  async read(ctx, id, prior) {
    const siteId = siteIdOf(TOKEN, id);
    const raw = await readSite(ctx, siteId);
    if (!raw) return undefined;
    requireZoneMode(raw);
    return { id: siteId, state: toState(raw, prior) };
  },

  async update(ctx, id, news, olds) {
    const final = await applySettings(ctx, settingsArgs, siteIdOf(TOKEN, id), news, olds);
    return final ? toState(final, { ...olds, ...news }) : { ...olds, ...news };
  },

  async delete(ctx, id, olds) {
    ctx.log(
      "info",
      `${TOKEN}: site ${id} (${olds.hostname}) is left in place with its current settings; it is removed when its DNS records are no longer proxied`,
    );
  },
});
