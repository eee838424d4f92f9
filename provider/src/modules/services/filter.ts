import { z } from "zod";
import { defineResource, type OperationContext } from "../../framework/definition";
import { idRef } from "../../framework/wire";
import { BLOCK_MODES, domainName, joinLines, requireResolver, resolverService, rewriteTarget, serviceIdOf, splitLines } from "./fields";

const TOKEN = "nsp:services:Filter";

const rewrite = z
  .object({
    name: domainName.meta({ description: "The name that is answered differently, such as `printer.home.example` (`*.` allowed)." }),
    target: rewriteTarget.meta({ description: "What it answers instead: an IP address, or a domain name the resolver follows." }),
  })
  .meta({ typeName: "ResolverRewrite" });

const filterArgs = z.object({
  serviceId: idRef("Id of the resolver service (`nsp:dns:getService` with its name finds it)."),
  customBlock: z.array(domainName).default([]).meta({ description: "Domains the resolver blocks, besides the filter lists." }),
  customAllow: z.array(domainName).default([]).meta({ description: "Domains the resolver never blocks, even when a list names them." }),
  rewrites: z.array(rewrite).default([]).meta({ description: "Names answered with another address or name." }),
  blockMode: z.enum(BLOCK_MODES).default("nxdomain").meta({ description: "How a blocked name is answered: `nxdomain`, `zero` (0.0.0.0 / ::) or `page` (a block page)." }),
  filterLists: z.array(z.string().trim().toLowerCase().pipe(z.string().min(1, "must not be empty"))).default([]).meta({
    description: "Keys of the blocklists to apply (`nsp:dns:getDnsLists` lists them), such as `ads` or `malware`.",
  }),
});

const filterWire = z.looseObject({
  custom_block: z.string(),
  custom_allow: z.string(),
  rewrites: z.string(),
  block_mode: z.enum(BLOCK_MODES),
  filter_lists: z.array(z.string()),
});
type FilterWire = z.output<typeof filterWire>;
type FilterArgs = z.output<typeof filterArgs>;

function toState(serviceId: string, raw: FilterWire): FilterArgs {
  return {
    serviceId,
    customBlock: splitLines(raw.custom_block),
    customAllow: splitLines(raw.custom_allow),
    rewrites: splitLines(raw.rewrites).map((l) => {
      const [name = "", target = ""] = l.split(/\s*->\s*/);
      return { name, target };
    }),
    blockMode: raw.block_mode,
    filterLists: raw.filter_lists,
  };
}

async function put(ctx: OperationContext, args: FilterArgs): Promise<FilterArgs> {
  const raw = await ctx.client.put(
    `/services/${args.serviceId}/filter`,
    {
      custom_block: joinLines(args.customBlock),
      custom_allow: joinLines(args.customAllow),
      rewrites: joinLines(args.rewrites.map((r) => `${r.name} -> ${r.target}`)),
      block_mode: args.blockMode,
      filter_lists: args.filterLists,
    },
    { schema: filterWire, signal: ctx.signal },
  );
  return toState(args.serviceId, raw);
}

export const filter = defineResource({
  token: TOKEN,
  description:
    "The filter of a resolver service: custom block and allow lists, rewrites, the block answer and the blocklists applied. There is one per service and the API replaces it whole, so this resource owns all of it; deleting it empties the filter (the API's defaults). The id is the service id.",
  args: filterArgs,
  state: z.object({ serviceName: z.string().meta({ description: "Name of the resolver service." }) }),
  replaceOnChanges: ["serviceId"],
  importId: "<serviceId>",

  check(args) {
    const seen = new Set<string>();
    for (const [i, r] of args.rewrites.entries()) {
      if (seen.has(r.name)) return [{ property: `rewrites[${i}].name`, reason: `"${r.name}" is rewritten twice` }];
      seen.add(r.name);
    }
    const both = args.customBlock.find((d) => args.customAllow.includes(d));
    return both ? [{ property: "customAllow", reason: `"${both}" is in customBlock too` }] : [];
  },

  async create(ctx, args) {
    const service = await requireResolver(ctx, TOKEN, args.serviceId);
    return { id: args.serviceId, state: { ...(await put(ctx, args)), serviceName: service.name } };
  },

  async read(ctx, id) {
    const serviceId = serviceIdOf(TOKEN, id);
    const service = await resolverService(ctx, TOKEN, serviceId);
    if (!service) return undefined;
    return { id: serviceId, state: { serviceName: service.name, ...toState(serviceId, await ctx.client.get(`/services/${serviceId}/filter`, { schema: filterWire, signal: ctx.signal })) } };
  },

  async update(ctx, _id, news, olds) {
    return { ...(await put(ctx, news)), serviceName: olds.serviceName };
  },

  async delete(ctx, id) {
    await ctx.client.put(`/services/${serviceIdOf(TOKEN, id)}/filter`, {}, { signal: ctx.signal });
  },
});
