import { z } from "zod";
import { listOf } from "../../framework/api/shapes/read-function";
import { defineFunction } from "../../framework/definition";
import { fromWire } from "../../framework/api/wire";

const listWire = z.looseObject({ key: z.string() });

const listsResult = z.object({
  keys: z.array(z.string()).meta({
    description: "The blocklist keys, for `filterLists` of `nsp:services:Filter` and `lists` of `nsp:services:Client`.",
  }),
  lists: listOf("DnsBlocklist", "A blocklist resolver services can apply.", "The blocklists, in the API's order.", {
    key: z.string().meta({ description: "Blocklist key, such as `ads`." }),
    name: z.string().optional().meta({ description: "Display name." }),
    description: z.string().optional().meta({ description: "What the list blocks." }),
    entries: z.number().int().optional().meta({ description: "Number of domains in the list." }),
  }),
});

export const getDnsLists = defineFunction({
  since: "0.1.0",
  token: "nsp:dns:getDnsLists",
  description:
    "Lists the blocklist catalogue that resolver services filter with (`nsp:services:Filter`), optionally " +
    "only the lists with the given keys.",
  args: z.object({
    keys: z
      .array(z.string().trim().toLowerCase().min(1, "must not be empty"))
      .optional()
      .meta({ description: "Only these lists; an unknown key is an error." }),
  }),
  result: listsResult,
  async invoke(ctx, args) {
    const all = await ctx.client.listAll("/dns/lists", { itemSchema: listWire, signal: ctx.signal });
    let picked = all;
    if (args.keys !== undefined) {
      const missing = args.keys.filter((k) => !all.some((l) => l.key === k));
      if (missing.length)
        throw new Error(
          `nsp:dns:getDnsLists: no blocklist ${missing.map((k) => `"${k}"`).join(", ")}; the catalogue has ${all.map((l) => l.key).join(", ")}`,
        );
      picked = all.filter((l) => args.keys!.includes(l.key));
    }
    const result = fromWire(listsResult, { lists: picked }) as { lists: z.output<typeof listsResult>["lists"] };
    return { keys: result.lists.map((l) => l.key), lists: result.lists };
  },
});
