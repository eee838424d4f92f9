import { z } from "zod";
import { defineFunction } from "../../framework/definition";
import { fromWire, numericId } from "../../framework/wire";
import { domainProperties } from "./domain";

const TOKEN = "nsp:mail:getDomain";
const domainWire = z.looseObject({ id: z.number().int(), name: z.string() });
const domainResult = domainProperties.extend({ id: z.string().meta({ description: "Mail domain id." }) });
type DomainResult = z.output<typeof domainResult>;

export const getDomain = defineFunction({
  token: TOKEN,
  description: "Looks up an existing mail domain by name or by id, with the DNS records it publishes (or needs).",
  args: z.object({
    name: z
      .string()
      .trim()
      .toLowerCase()
      .transform((s) => s.replace(/\.$/, ""))
      .optional()
      .meta({ description: "Mail domain name, such as `example.com`." }),
    id: numericId("must be a numeric mail domain id").optional().meta({ description: "Mail domain id." }),
  }),
  result: domainResult,
  check(args) {
    if ((args.name === undefined) === (args.id === undefined)) return [{ property: "name", reason: "give exactly one of name or id" }];
    return [];
  },
  async invoke(ctx, args) {
    if (args.id !== undefined) return fromWire(domainResult, await ctx.client.get(`/mail/domains/${args.id}`, { schema: domainWire, signal: ctx.signal })) as DomainResult;
    // The API has no filter by name; one paged listing finds it.
    const domains = await ctx.client.listAll("/mail/domains", { itemSchema: domainWire, signal: ctx.signal });
    const found = domains.find((d) => d.name === args.name);
    if (!found) throw new Error(`${TOKEN}: no mail domain named "${args.name}" in this account (${domains.length} mail domains listed)`);
    return fromWire(domainResult, found) as DomainResult;
  },
});
