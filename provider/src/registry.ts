import type { AnyFunction, AnyResource } from "./framework/definition";
import { record } from "./resources/dns/record";
import { zone } from "./resources/dns/zone";
import { getZone } from "./functions/dns/get-zone";
import { zoneDnssec } from "./resources/dns/zone-dnssec";
import { zoneTransfer } from "./resources/dns/zone-transfer";
import { zoneGrant } from "./resources/dns/zone-grant";
import { range } from "./resources/dns/range";
import { zoneVerification } from "./resources/dns/zone-verification";
import { zoneRecords } from "./resources/dns/zone-records";
import { getService } from "./functions/dns/get-service";
import { getServices } from "./functions/dns/get-services";
import { getMe } from "./functions/account/get-me";
import { getQuota } from "./functions/account/get-quota";
import { ca as rpkiCa } from "./resources/rpki/ca";
import { roa as rpkiRoa } from "./resources/rpki/roa";
import { getRpkiSuggestions } from "./functions/rpki/get-rpki-suggestions";
import { getRpsl } from "./functions/rpki/get-rpsl";
import { site as cdnSite } from "./resources/cdn/site";
import { siteSettings as cdnSiteSettings } from "./resources/cdn/site-settings";
import { siteVerification as cdnSiteVerification } from "./resources/cdn/site-verification";
import { rule as securityRule } from "./resources/security/rule";
import { tunnel as linkTunnel } from "./resources/link/tunnel";
import { tunnelHostnames as linkTunnelHostnames } from "./resources/link/tunnel-hostnames";
import { getLinkPops } from "./functions/link/get-link-pops";

import { vgateFunctions, vgateResources } from "./resources/vgate";
import { mailFunctions, mailResources } from "./resources/mail";
import { sgateFunctions, sgateResources } from "./resources/sgate";
import { voiceAndRoomFunctions, voiceAndRoomResources } from "./resources/voice";
import { serviceFunctions, serviceResources } from "./resources/services";
import { computeFunctions, computeResources } from "./resources/compute";
import { streamFunctions, streamResources } from "./resources/stream";
import { vodResources } from "./resources/vod";
import { site as verifySite } from "./resources/verify/site";
import { project as pagesProject } from "./resources/pages/project";
import { getBalance as vgateGetBalance } from "./functions/vgate/get-balance";

import { orgFunctions, orgResources } from "./resources/org";
import { partnerResources } from "./resources/partner";
import { registryFunctions, registryResources } from "./resources/registry";
/** Every resource and function the provider serves, by type token. Add new definitions here. */
export const resources: readonly AnyResource[] = [...orgResources, ...partnerResources, ...registryResources, ...computeResources, ...streamResources, ...vodResources, zone, record, zoneDnssec, zoneTransfer, zoneGrant, range, zoneVerification, zoneRecords, rpkiCa, rpkiRoa, cdnSite, cdnSiteSettings, cdnSiteVerification, securityRule, linkTunnel, linkTunnelHostnames, ...vgateResources, ...mailResources, ...sgateResources, verifySite, pagesProject, ...serviceResources, ...voiceAndRoomResources];
export const functions: readonly AnyFunction[] = [...orgFunctions, ...registryFunctions, ...computeFunctions, ...streamFunctions, getZone, getService, getServices, getMe, getQuota, getRpkiSuggestions, getRpsl, getLinkPops, ...vgateFunctions, ...mailFunctions, ...sgateFunctions, vgateGetBalance, ...serviceFunctions, ...voiceAndRoomFunctions];

export const resourcesByToken = new Map(resources.map((r) => [r.token, r]));
export const functionsByToken = new Map(functions.map((f) => [f.token, f]));
