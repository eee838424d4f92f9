// Every module the provider serves, one line each; a module's own index lists its definitions.
import { byToken, type AnyFunction, type AnyResource } from "../framework/definition";
import * as cdn from "./cdn";
import * as compute from "./compute";
import * as dns from "./dns";
import * as index from "./index/index";
import * as ix from "./ix";
import * as link from "./link";
import * as mail from "./mail";
import * as meet from "./meet";
import * as org from "./org";
import * as pages from "./pages";
import * as partner from "./partner";
import * as registry from "./registry";
import * as rpki from "./rpki";
import * as rtc from "./rtc";
import * as security from "./security";
import * as services from "./services";
import * as sgate from "./sgate";
import * as storage from "./storage";
import * as stream from "./stream";
import * as talk from "./talk";
import * as verify from "./verify";
import * as vgate from "./vgate";
import * as vod from "./vod";
import * as voice from "./voice";

interface Module {
  readonly resources: readonly AnyResource[];
  readonly functions: readonly AnyFunction[];
}

// In the order schema.json lists their resources; a new module goes at the end, so the
// published schema (and the SDKs generated from it) only grows.
const modules: readonly Module[] = [
  org,
  partner,
  registry,
  compute,
  stream,
  vod,
  dns,
  rpki,
  cdn,
  security,
  link,
  vgate,
  mail,
  sgate,
  verify,
  pages,
  index,
  services,
  meet,
  voice,
  talk,
  rtc,
  storage,
  ix,
];

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
export const functions: readonly AnyFunction[] = modules
  .flatMap((m) => m.functions)
  .sort((a, b) => publishedRank(a.token) - publishedRank(b.token));

/** A resource's earlier tokens lead to it too, so states written under them stay served. */
export const resourcesByToken = byToken(resources);
export const functionsByToken = new Map(functions.map((f) => [f.token, f]));
