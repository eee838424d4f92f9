import { defineLookup } from "../../framework/api/lookup";
import { domainProperties, domainWire } from "./domain";

export const getDomain = defineLookup({
  since: "0.1.0",
  token: "nsp:mail:getDomain",
  description: "Looks up an existing mail domain by name or by id, with the DNS records it publishes (or needs).",
  what: "mail domain",
  example: "example.com",
  collection: "/mail/domains",
  wire: domainWire,
  properties: domainProperties,
  idDescription: "Mail domain id.",
});
