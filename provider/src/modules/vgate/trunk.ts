import { z } from "zod";
import { ipOrPrefix, name } from "./fields";
import { e164 } from "../../framework/api/validators";
import { definePbxObject } from "./object";

export const trunk = definePbxObject({
  since: "0.1.0",
  token: "nsp:vgate:Trunk",
  description:
    "A SIP trunk of a PBX: the connection to a carrier, either registering with it (`register`) or " +
    "accepting its calls by address (`peer`). `password` is a secret the API never returns; it is kept " +
    "from the program.",
  path: "trunks",
  what: "trunk",
  fields: {
    name: name.optional().meta({ key: true, description: "Display name." }),
    mode: z
      .string()
      .min(1)
      .optional()
      .meta({
        description:
          "How the trunk connects, such as `register` (log in at `host` with `username` and `password`) or " +
          "`peer` (calls accepted from `host` or `authIps`).",
      }),
    host: z.string().min(1).nullable().optional().meta({ description: "The carrier's SIP host name or address." }),
    transport: z.string().min(1).optional().meta({ description: "SIP transport, such as `udp`, `tcp` or `tls`." }),
    username: z.string().min(1).nullable().optional().meta({ description: "User name for registration." }),
    password: z.string().min(1).optional().meta({
      description: "Password for registration. Secret; the API never returns it.",
      secret: true,
      writeOnly: true,
    }),
    fromDomain: z
      .string()
      .min(1)
      .nullable()
      .optional()
      .meta({ description: "Domain put in the From header of outbound calls." }),
    callerId: e164.nullable().optional().meta({ description: "Caller number sent on outbound calls (E.164)." }),
    port: z.number().int().min(1).max(65535).optional().meta({ description: "The carrier's SIP port." }),
    maxChannels: z
      .number()
      .int()
      .min(0)
      .optional()
      .meta({ description: "Calls the trunk may carry at once; 0 means no limit." }),
    authIps: z
      .array(ipOrPrefix)
      .optional()
      .meta({ description: "Addresses and prefixes the carrier's calls come from." }),
    codecs: z
      .array(z.string().min(1))
      .optional()
      .meta({ description: "Audio codecs in order of preference, such as `ulaw`, `alaw`, `g722`, `opus`." }),
  },
  outputs: {
    passwordSet: z.boolean().optional().meta({ description: "Whether the trunk has a password." }),
    state: z
      .string()
      .optional()
      .meta({ description: "Last reported registration state, such as `registered`, `up` or `failed`." }),
    checkedAt: z.string().optional().meta({ description: "When the state was last checked." }),
  },
});
