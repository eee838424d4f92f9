import { z } from "zod";
import { e164 } from "../../framework/api/validators";
import { gatewayRef } from "./ids";
import { definePbxObject } from "./object";

export const number = definePbxObject({
  since: "0.1.0",
  token: "nsp:vgate:Number",
  description:
    "A telephone number of a PBX that arrives through one of its trunks (a number the customer brings). " +
    "What calls to it do is set by an `nsp:vgate:InboundRoute` or by its `nsp:vgate:NumberFlow`. The " +
    "gateway refuses to delete a number while an inbound route uses it.",
  path: "numbers",
  what: "number",
  fields: {
    e164: e164.meta({ key: true, description: "The number in E.164 form, such as `+4930123456`." }),
    trunkId: gatewayRef("a trunk", "Id of the trunk the number's calls arrive on (`nsp:vgate:Trunk`).")
      .nullable()
      .optional(),
  },
  outputs: {
    source: z.string().optional().meta({
      description: "`byo` for a number brought by the customer, `platform` for one bought from the platform.",
    }),
  },
});
