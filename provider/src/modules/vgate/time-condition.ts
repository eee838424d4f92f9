import { z } from "zod";
import { apiObject, name } from "./fields";
import { definePbxObject } from "./object";

export const timeCondition = definePbxObject({
  since: "0.1.0",
  token: "nsp:vgate:TimeCondition",
  description:
    "A time condition of a PBX: a named weekly schedule (business hours). The API documents cut off after " +
    "the first fields of its body (`name`, `schedu...`), so only the name and the schedule are managed; " +
    "see docs/api-assumptions.md for the schedule's form. The gateway refuses to delete one while a " +
    "number's flow uses it.",
  path: "timeconds",
  what: "time condition",
  fields: {
    name: name.optional().meta({ key: true, description: "Display name." }),
    schedule: z
      .array(
        apiObject(
          'A rule of the schedule, such as `{days: ["mon", "tue"], from: "09:00", to: "17:00"}` (on the PBX\'s clock).',
        ),
      )
      .min(1, "must have at least one rule")
      .meta({ description: "When the condition matches: a list of rules, any of which may match." }),
  },
});
