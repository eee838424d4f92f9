import { z } from "zod";
import { defineDocument } from "../../framework/api/shapes/document";
import { idRef } from "../../framework/api/wire";
import { wireModel } from "../../framework/api/fields";
import { zoneIdOf } from "./ids";

const dnssecArgs = z.object({
  zoneId: idRef("Id of the zone to sign.").meta({ replace: true }),
  enabled: z
    .boolean()
    .default(true)
    .meta({ description: "Whether the zone is signed (online signing with ECDSA P-256).", create: true }),
});

const dnssecState = z.object({
  ds: z.string().nullable().optional().meta({
    description: "The DS record to publish at the registrar, such as `2371 13 2 <digest>`; null while signing is off.",
  }),
  dnskey: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "The zone's DNSKEY (key-signing key); null while signing is off." }),
  warning: z
    .string()
    .optional()
    .meta({ description: "What still has to be done by hand, typically publishing the DS at the registrar." }),
});

// The settings object of a zone, at the zone's path: the zone id is in the path, not in the object.
export const zoneDnssec = defineDocument({
  since: "0.1.0",
  token: "nsp:dns:ZoneDnssec",
  list: {
    path: "/dns/zones",
    parent: { token: "nsp:dns:Zone", input: "zoneId" },
    fromParent: (z) => (z.dnssec === true ? [z] : []),
    label: (z) => String(z.name),
    zoneOf: (z) => z.id,
  },
  description:
    "DNSSEC signing of a zone. Hand the `ds` output to the zone's registrar; until the DS is published " +
    "resolvers treat the zone as unsigned. Disabling and enabling again makes a new key (and a new DS). " +
    "Deleting this resource turns signing off.",
  args: dnssecArgs,
  state: dnssecState,
  importId: "<zoneId>",
  parent: "zoneId",
  idOf: (id) => zoneIdOf("nsp:dns:ZoneDnssec", id),
  path: (zoneId) => `/dns/zones/${zoneId}/dnssec`,
  model: wireModel(dnssecArgs.omit({ zoneId: true }), dnssecState),
  emptied: { enabled: false },
});
