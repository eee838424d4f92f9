// Every API path prefix, in one list: one route file each (a large prefix may be split over
// several files). A new prefix is a new file added here; the router and the pipeline stay as they are.
import type { Route } from "../router";
import { cdnSiteRoutes } from "./cdn-sites";
import { cdnTrafficRoutes } from "./cdn-traffic";
import { dnsListRoutes } from "./dns-lists";
import { dnsRangeRoutes } from "./dns-ranges";
import { dnsRecordRoutes } from "./dns-records";
import { dnsZoneFileRoutes } from "./dns-zonefile";
import { dnsZoneSettingRoutes } from "./dns-zone-settings";
import { dnsZoneRoutes } from "./dns-zones";
import { accountRoutes } from "./account";
import { meRoutes } from "./me";
import { onboardRoutes } from "./onboard";
import { webhookEventRoutes } from "./webhook-events";
import { ixRoutes } from "./ix";
import { meetRoutes } from "./meet";
import { rtcRoutes } from "./rtc";
import { storageRoutes } from "./storage";
import { talkRoutes } from "./talk";
import { voiceRoutes } from "./voice";
import { linkRoutes } from "./link";
import { mailRoutes } from "./mail";
import { rpkiRoutes } from "./rpki";
import { securityRuleRoutes } from "./security-rules";
import { serviceRoutes } from "./services";
import { sgateRoutes } from "./sgate";
import { webhookRoutes } from "./webhooks";
import { vgateRoutes } from "./vgate";
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
  ...meRoutes,
  ...accountRoutes,
  ...serviceRoutes,
  ...webhookEventRoutes,
  ...webhookRoutes,
  ...dnsListRoutes,
  ...dnsZoneRoutes,
  ...dnsZoneSettingRoutes,
  ...dnsZoneFileRoutes,
  ...dnsRecordRoutes,
  ...dnsRangeRoutes,
  ...rpkiRoutes,
  ...cdnSiteRoutes,
  ...onboardRoutes,
  ...cdnTrafficRoutes,
  ...securityRuleRoutes,
  ...linkRoutes,
  ...mailRoutes,
  ...vgateRoutes,
  ...meetRoutes,
  ...voiceRoutes,
  ...talkRoutes,
  ...rtcRoutes,
  ...storageRoutes,
  ...ixRoutes,
  ...sgateRoutes,
  ...verifyRoutes,
  ...pagesRoutes,
];
