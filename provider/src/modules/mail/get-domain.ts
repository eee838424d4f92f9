import { z } from "zod";
import { defineFunction } from "../../framework/definition";
import { checkNameOrId, findByNameOrId, nameOrIdArgs } from "../../framework/lookup";
import { fromWire } from "../../framework/wire";
import { domainProperties, domainWire } from "./domain";

const TOKEN = "nsp:mail:getDomain";
const domainResult = domainProperties.extend({ id: z.string().meta({ description: "Mail domain id." }) });

export const getDomain = defineFunction({
  token: TOKEN,
  description: "Looks up an existing mail domain by name or by id, with the DNS records it publishes (or needs).",
  args: nameOrIdArgs("mail domain", "example.com"),
  result: domainResult,
  check: checkNameOrId,
  async invoke(ctx, args) {
    const domain = await findByNameOrId(ctx, { token: TOKEN, what: "mail domain", collection: "/mail/domains", wire: domainWire }, args);
    return fromWire(domainResult, domain) as z.output<typeof domainResult>;
  },
});
