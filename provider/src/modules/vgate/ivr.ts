import { z } from "zod";
import { apiObject, destination, name } from "./fields";
import { definePbxObject } from "./object";

export const ivr = definePbxObject({
  since: "0.1.0",
  token: "nsp:vgate:Ivr",
  description: "An IVR (voice menu) of a PBX: callers hear a greeting and press a key to choose a destination.",
  path: "ivrs",
  what: "IVR",
  fields: {
    name: name.optional().meta({ key: true, description: "Display name." }),
    greeting: z
      .string()
      .min(1)
      .nullable()
      .optional()
      .meta({ description: "The greeting callers hear (the name of a recording or prompt)." }),
    invalid: destination("Where a call goes after an invalid key.").optional(),
    timeout: destination("Where a call goes when no key is pressed.").optional(),
    options: apiObject(
      'The menu: destinations by key, such as `{"1": "group:<id>", "2": "queue:<id>"}`; keys `0`-`9`, `*`, `#`.',
    ).optional(),
    directDial: z.boolean().optional().meta({ description: "Whether callers may dial an extension number directly." }),
    timeoutS: z.number().int().min(0).optional().meta({ description: "Seconds to wait for a key." }),
    repeat: z
      .number()
      .int()
      .min(0)
      .optional()
      .meta({ description: "How often the greeting repeats before the timeout destination." }),
  },
});
