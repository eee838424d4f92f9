// Every definition at once, for what needs all of them (the schema, discovery, dynamic mode); the
// plugin loads one module at a time through lazy-definitions.ts. The modules come from modules.ts.
import { byToken, type AnyFunction, type AnyResource } from "../framework/definition";
import { allModules } from "./all-modules";

interface Module {
  readonly resources: readonly AnyResource[];
  readonly functions: readonly AnyFunction[];
}

// In the order of modules.ts, which is the order schema.json lists their resources.
const modules: readonly Module[] = allModules;

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
