import { defineLookup } from "../../framework/api/lookup";
import { zoneProperties, zoneWire } from "./zone";

export const getZone = defineLookup({
  since: "0.1.0",
  token: "nsp:dns:getZone",
  description: "Looks up an existing zone by name or by id.",
  what: "zone",
  example: "example.com",
  collection: "/dns/zones",
  wire: zoneWire,
  properties: zoneProperties,
  idDescription: "Zone id.",
});
