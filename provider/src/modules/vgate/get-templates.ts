import { z } from "zod";
import { defineReadFunction, listOf } from "../../framework/api/shapes/read-function";

const templateWire = z.looseObject({ id: z.string() });

const templatesResult = z.object({
  templates: listOf("Template", "A starting template for a PBX.", "The templates, in the API's order.", {
    id: z.string().meta({ description: "Template id, for a PBX's `template`." }),
    name: z.string().optional().meta({ description: "Template name." }),
    description: z.string().optional().meta({ description: "What the template sets up." }),
    extensions: z
      .array(
        z
          .object({
            number: z.string().meta({ description: "Dial number." }),
            name: z.string().optional().meta({ description: "Display name." }),
          })
          .meta({ typeName: "TemplateExtension", description: "An extension the template makes." }),
      )
      .optional()
      .meta({
        description: "The extensions the template makes; their SIP passwords come back when the PBX is created.",
      }),
  }),
});

export const getTemplates = defineReadFunction({
  since: "0.1.0",
  token: "nsp:vgate:getTemplates",
  description: "Lists the starting templates for a PBX and what each sets up.",
  result: templatesResult,
  read: async (ctx) => ({
    templates: await ctx.client.listAll("/vgate/templates", { itemSchema: templateWire, signal: ctx.signal }),
  }),
});
