import { z } from "zod";
import { BLOCK_MODES, domainName, rewriteTarget } from "./fields";
import { defineServiceDocument } from "./document";
import { joinLines, lines, splitLines, type TextCodec } from "./text-lists";

const TOKEN = "nsp:services:Filter";

const rewrite = z
  .object({
    name: domainName.meta({
      description: "The name that is answered differently, such as `printer.home.example` (`*.` allowed).",
    }),
    target: rewriteTarget.meta({
      description: "What it answers instead: an IP address, or a domain name the resolver follows.",
    }),
  })
  .meta({ typeName: "ResolverRewrite" });

type Rewrite = z.output<typeof rewrite>;

/** One rewrite per line, written `<name> -> <target>`. */
const rewriteLines: TextCodec = {
  join: (v) => joinLines((v as Rewrite[]).map((r) => `${r.name} -> ${r.target}`)),
  split: (text) =>
    splitLines(text).map((l) => {
      const [name = "", target = ""] = l.split(/\s*->\s*/);
      return { name, target };
    }),
};

const filterFields = {
  customBlock: z
    .array(domainName)
    .default([])
    .meta({ description: "Domains the resolver blocks, besides the filter lists." }),
  customAllow: z
    .array(domainName)
    .default([])
    .meta({ description: "Domains the resolver never blocks, even when a list names them." }),
  rewrites: z.array(rewrite).default([]).meta({ description: "Names answered with another address or name." }),
  blockMode: z.enum(BLOCK_MODES).default("nxdomain").meta({
    description: "How a blocked name is answered: `nxdomain`, `zero` (0.0.0.0 / ::) or `page` (a block page).",
  }),
  filterLists: z
    .array(z.string().trim().toLowerCase().pipe(z.string().min(1, "must not be empty")))
    .default([])
    .meta({
      description: "Keys of the blocklists to apply (`nsp:dns:getDnsLists` lists them), such as `ads` or `malware`.",
    }),
};

export const filter = defineServiceDocument({
  since: "0.1.0",
  notListed: "settings of a resolver service the API made; import `<serviceId>` by hand to manage them",
  token: TOKEN,
  description:
    "The filter of a resolver service: custom block and allow lists, rewrites, the block answer and the " +
    "blocklists applied. There is one per service and the API replaces it whole, so this resource owns " +
    "all of it; deleting it empties the filter (the API's defaults). The id is the service id.",
  path: "filter",
  fields: filterFields,
  codecs: { customBlock: lines, customAllow: lines, rewrites: rewriteLines },

  check(args) {
    const seen = new Set<string>();
    for (const [i, r] of args.rewrites.entries()) {
      if (seen.has(r.name)) return [{ property: `rewrites[${i}].name`, reason: `"${r.name}" is rewritten twice` }];
      seen.add(r.name);
    }
    const both = args.customBlock.find((d) => args.customAllow.includes(d));
    return both ? [{ property: "customAllow", reason: `"${both}" is in customBlock too` }] : [];
  },
});
