// Authoritative DNS: block-list catalogue, zones with their settings, zone files, records and
// reverse ranges.
import type { Route } from "../pipeline/route";
import { dnsListRoutes } from "./lists-routes";
import { dnsRangeRoutes } from "./ranges-routes";
import { dnsRecordRoutes } from "./records-routes";
import { dnsZoneFileRoutes } from "./zonefile-routes";
import { dnsZoneSettingRoutes } from "./zone-settings-routes";
import { dnsZoneRoutes } from "./zones-routes";

export const dnsRoutes: Route[] = [
  ...dnsListRoutes,
  ...dnsZoneRoutes,
  ...dnsZoneSettingRoutes,
  ...dnsZoneFileRoutes,
  ...dnsRecordRoutes,
  ...dnsRangeRoutes,
];
