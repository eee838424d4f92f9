// Every API area, in one list. A new area is a new module added here; the router and the
// pipeline stay as they are.
import type { Route } from "../router";
import { cdnSiteRoutes } from "./cdn-sites";
import { cdnTrafficRoutes } from "./cdn-traffic";
import { dnsListRoutes } from "./dns-lists";
import { dnsRangeRoutes } from "./dns-ranges";
import { dnsRecordRoutes } from "./dns-records";
import { dnsZoneFileRoutes } from "./dns-zonefile";
import { dnsZoneSettingRoutes } from "./dns-zone-settings";
import { dnsZoneRoutes } from "./dns-zones";
import { identityRoutes } from "./identity";
import { linkRoutes } from "./link";
import { mailRoutes } from "./mail";
import { rpkiRoutes } from "./rpki";
import { securityRuleRoutes } from "./security-rules";
import { serviceRoutes } from "./services";
import { vgateRoutes } from "./vgate";

export const allRoutes: Route[] = [
  ...identityRoutes,
  ...serviceRoutes,
  ...dnsListRoutes,
  ...dnsZoneRoutes,
  ...dnsZoneSettingRoutes,
  ...dnsZoneFileRoutes,
  ...dnsRecordRoutes,
  ...dnsRangeRoutes,
  ...rpkiRoutes,
  ...cdnSiteRoutes,
  ...cdnTrafficRoutes,
  ...securityRuleRoutes,
  ...linkRoutes,
  ...mailRoutes,
  ...vgateRoutes,
];
