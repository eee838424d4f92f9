import { z } from "zod";
import { destination, dialNumber, name } from "./fields";
import { gatewayRef } from "./ids";
import { definePbxObject } from "./object";

export const ringGroup = definePbxObject({
  since: "0.1.0",
  token: "nsp:vgate:RingGroup",
  description:
    "A ring group of a PBX: a dial number that rings several extensions. The gateway refuses to delete an " +
    "extension while a ring group has it as a member.",
  path: "groups",
  what: "ring group",
  fields: {
    number: dialNumber
      .nullable()
      .optional()
      .meta({ key: true, description: "Dial number of the group, such as `600`." }),
    name: name.optional().meta({ description: "Display name." }),
    strategy: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "How members are rung, such as `ringall`, `hunt`, `memoryhunt` or `random`." }),
    noanswer: destination("Where a call goes when no member answers.").optional(),
    moh: z.string().min(1).optional().meta({ description: "Music on hold." }),
    members: z
      .array(gatewayRef("an extension", "Extension id."))
      .optional()
      .meta({ description: "Ids of the member extensions (`nsp:vgate:Extension`)." }),
    ringS: z
      .number()
      .int()
      .min(1)
      .optional()
      .meta({ description: "Seconds the members ring before the call goes to `noanswer`." }),
  },
});
