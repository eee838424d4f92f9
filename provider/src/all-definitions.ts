// Every module the provider serves, one line each; a module's own index lists its definitions.
import { byToken, type AnyFunction, type AnyResource } from "./framework/definition";
import * as cdn from "./modules/cdn";
import * as compute from "./modules/compute";
import * as dns from "./modules/dns";
import * as index from "./modules/index/index";
import * as ix from "./modules/ix";
import * as link from "./modules/link";
import * as mail from "./modules/mail";
import * as meet from "./modules/meet";
import * as org from "./modules/org";
import * as pages from "./modules/pages";
import * as partner from "./modules/partner";
import * as registry from "./modules/registry";
import * as rpki from "./modules/rpki";
import * as rtc from "./modules/rtc";
import * as security from "./modules/security";
import * as services from "./modules/services";
import * as sgate from "./modules/sgate";
import * as storage from "./modules/storage";
import * as stream from "./modules/stream";
import * as talk from "./modules/talk";
import * as verify from "./modules/verify";
import * as vgate from "./modules/vgate";
import * as vod from "./modules/vod";
import * as voice from "./modules/voice";

interface Module {
  readonly resources: readonly AnyResource[];
  readonly functions: readonly AnyFunction[];
}

// In the order schema.json lists their resources; a new module goes at the end, so the
// published schema (and the SDKs generated from it) only grows.
const modules: readonly Module[] = [org, partner, registry, compute, stream, vod, dns, rpki, cdn, security, link, vgate, mail, sgate, verify, pages, index, services, meet, voice, talk, rtc, storage, ix];

// schema.json lists functions in the order they were first published, which does not follow
// the modules; keeping it keeps the schema and the SDKs byte-identical. A function not named
// here follows these, in module order.
const publishedFunctionOrder = [
  "nsp:org:getOrgDomains",
  "nsp:registry:getRegistryResources",
  "nsp:registry:getRpkiPlan",
  "nsp:compute:getVms",
  "nsp:stream:getStreamCities",
  "nsp:dns:getZone",
  "nsp:dns:getService",
  "nsp:dns:getServices",
  "nsp:index:getMe",
  "nsp:index:getQuota",
  "nsp:rpki:getRpkiSuggestions",
  "nsp:rpki:getRpsl",
  "nsp:link:getLinkPops",
  "nsp:vgate:getCities",
  "nsp:vgate:getTemplates",
  "nsp:mail:getDomain",
  "nsp:sgate:getNumbers",
  "nsp:vgate:getBalance",
  "nsp:index:getWebhookEvents",
  "nsp:dns:getDnsLists",
  "nsp:talk:getTalkCities",
  "nsp:rtc:getRtcCities",
];
const publishedRank = (token: string) => {
  const rank = publishedFunctionOrder.indexOf(token);
  return rank === -1 ? publishedFunctionOrder.length : rank;
};

/** Every resource and function the provider serves, by type token. */
export const resources: readonly AnyResource[] = modules.flatMap((m) => m.resources);
export const functions: readonly AnyFunction[] = modules.flatMap((m) => m.functions).sort((a, b) => publishedRank(a.token) - publishedRank(b.token));

/** A resource's earlier tokens lead to it too, so states written under them stay served. */
export const resourcesByToken = byToken(resources);
export const functionsByToken = new Map(functions.map((f) => [f.token, f]));
