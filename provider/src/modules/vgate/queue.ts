import { z } from "zod";
import { destination, dialNumber, name } from "./fields";
import { gatewayRef } from "./ids";
import { definePbxObject } from "./object";

export const queue = definePbxObject({
  since: "0.1.0",
  token: "nsp:vgate:Queue",
  description:
    "A call queue of a PBX: callers wait until one of its agents answers. The gateway refuses to delete " +
    "an extension while a queue has it as an agent.",
  path: "queues",
  what: "queue",
  fields: {
    number: dialNumber
      .nullable()
      .optional()
      .meta({ key: true, description: "Dial number of the queue, such as `700`." }),
    name: name.optional().meta({ description: "Display name." }),
    strategy: z.string().min(1).optional().meta({
      description:
        "How agents are chosen, such as `ringall`, `leastrecent`, `fewestcalls`, `random`, `rrmemory` or `linear`.",
    }),
    moh: z.string().min(1).optional().meta({ description: "Music on hold." }),
    timeout: destination("Where a call goes after waiting `maxWaitS`.").optional(),
    agents: z
      .array(gatewayRef("an extension", "Extension id."))
      .optional()
      .meta({ description: "Ids of the agent extensions (`nsp:vgate:Extension`)." }),
    maxWaitS: z
      .number()
      .int()
      .min(0)
      .optional()
      .meta({ description: "Longest wait in seconds before the call goes to `timeout`." }),
    announceEveryS: z
      .number()
      .int()
      .min(0)
      .optional()
      .meta({ description: "Seconds between announcements to waiting callers; 0 for none." }),
    announcePosition: z
      .boolean()
      .optional()
      .meta({ description: "Whether announcements tell callers their position." }),
    announceWait: z.boolean().optional().meta({ description: "Whether announcements tell callers the expected wait." }),
  },
});
