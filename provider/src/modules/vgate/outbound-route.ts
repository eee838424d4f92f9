import { z } from "zod";
import { apiObject, name } from "./fields";
import { e164 } from "../../framework/api/validators";
import { gatewayRef } from "./ids";
import { definePbxObject } from "./object";

export const outboundRoute = definePbxObject({
  since: "0.1.0",
  token: "nsp:vgate:OutboundRoute",
  description:
    "An outbound route of a PBX: dialled numbers that match one of its patterns go out over its trunks, " +
    "in order. The gateway refuses to delete a trunk while a route uses it.",
  path: "outbound",
  what: "outbound route",
  fields: {
    name: name.optional().meta({ key: true, description: "Display name." }),
    callerIdOverride: e164
      .nullable()
      .optional()
      .meta({ description: "Caller number sent instead of the extension's (E.164)." }),
    priority: z
      .number()
      .int()
      .min(0)
      .optional()
      .meta({ description: "Routes are tried in ascending priority; the API picks one after the highest when unset." }),
    patterns: z
      .array(apiObject('A dial pattern, such as `{match: "0ZX.", strip: 1, prepend: "+49"}`.'))
      .min(1, "must have at least one pattern")
      .meta({ description: "Dial patterns the route takes." }),
    trunks: z
      .array(gatewayRef("a trunk", "Trunk id."))
      .min(1, "must have at least one trunk")
      .meta({ description: "Ids of the trunks (`nsp:vgate:Trunk`) the calls go out on, in order of preference." }),
    emergency: z.boolean().optional().meta({
      description: "Whether this route carries emergency calls (it works even while outbound calls are paused).",
    }),
  },
});
