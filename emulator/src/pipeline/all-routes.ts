// Every API area's route list, in one list. An area is a folder of emulator/src holding its state
// and its routes (`<area>/routes.ts`); a new area is one more line here, and the router and the
// pipeline stay as they are.
import type { Route } from "./route";
import { accountRoutes } from "../account/routes";
import { cdnRoutes } from "../cdn/routes";
import { vmRoutes } from "../compute/routes";
import { dnsRoutes } from "../dns/routes";
import { ixRoutes } from "../ix/routes";
import { linkRoutes } from "../link/routes";
import { mailRoutes } from "../mail/routes";
import { meetRoutes } from "../meet/routes";
import { orgRoutes } from "../org/routes";
import { pagesRoutes } from "../pages/routes";
import { partnerRoutes } from "../partner/routes";
import { registryRoutes } from "../registry/routes";
import { rpkiRoutes } from "../rpki/routes";
import { rtcRoutes } from "../rtc/routes";
import { securityRuleRoutes } from "../security/routes";
import { serviceRoutes } from "../services/routes";
import { sgateRoutes } from "../sgate/routes";
import { storageRoutes } from "../storage/routes";
import { streamRoutes } from "../stream/routes";
import { talkRoutes } from "../talk/routes";
import { verifyRoutes } from "../verify/routes";
import { vgateRoutes } from "../vgate/routes";
import { vodRoutes } from "../vod/routes";
import { voiceRoutes } from "../voice/routes";
import { webhookRoutes } from "../webhooks/routes";

export const allRoutes: Route[] = [
  ...orgRoutes,
  ...partnerRoutes,
  ...registryRoutes,
  ...vmRoutes,
  ...streamRoutes,
  ...vodRoutes,
  ...accountRoutes,
  ...serviceRoutes,
  ...webhookRoutes,
  ...dnsRoutes,
  ...rpkiRoutes,
  ...cdnRoutes,
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
