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
import { sgateRoutes } from "./sgate";
import { webhookRoutes } from "./webhooks";
import { vgateRoutes } from "./vgate";
import { voiceAndRoomRoutes } from "./voice-and-rooms";
import { verifyRoutes } from "./verify";
import { pagesRoutes } from "./pages";

import { vmRoutes } from "./vms";
import { streamRoutes } from "./stream";
import { vodRoutes } from "./vod";

import { orgRoutes } from "./org";
import { partnerRoutes } from "./partner";
import { registryRoutes } from "./registry";

export const allRoutes: Route[] = [
  ...orgRoutes,
  ...partnerRoutes,
  ...registryRoutes,
  ...vmRoutes,
  ...streamRoutes,
  ...vodRoutes,
  ...identityRoutes,
  ...serviceRoutes,
  ...webhookRoutes,
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
  ...voiceAndRoomRoutes,
  ...sgateRoutes,
  ...verifyRoutes,
  ...pagesRoutes,
];
