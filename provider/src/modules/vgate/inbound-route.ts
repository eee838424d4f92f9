import { z } from "zod";
import { destination, name } from "./fields";
import { gatewayRef } from "./ids";
import { definePbxObject } from "./object";

const callPattern = (description: string) =>
  z
    .string()
    .regex(
      /^\+?[0-9XZN]+\.?$/,
      "must be digits with X (any digit), Z (1-9) or N (2-9), optionally a leading + and a trailing . (anything more)",
    )
    .nullable()
    .optional()
    .meta({ description });

export const inboundRoute = definePbxObject({
  since: "0.1.0",
  token: "nsp:vgate:InboundRoute",
  description:
    "An inbound route of a PBX: calls to a number (or matching a DID pattern, optionally from matching " +
    "callers) go to a destination.",
  path: "inbound",
  what: "inbound route",
  fields: {
    name: name.optional().meta({ key: true, description: "Display name." }),
    numberId: gatewayRef("a number", "Id of the number whose calls this route takes (`nsp:vgate:Number`).")
      .nullable()
      .optional(),
    did: callPattern("Pattern of called numbers this route takes, such as `+4930555XXXX`."),
    cidPattern: callPattern("Pattern of caller numbers this route takes, such as `+49.`."),
    destination: destination("Where the calls go."),
  },
});
