// Every module the provider serves, one line each: the folder modules/<name>, whose index.ts lists
// its definitions, and the module segment of their tokens (`nsp:<name>:<Name>`). In the order
// schema.json lists their resources: a new module goes at the end, so the published schema (and
// the SDKs generated from it) only grows. lazy-definitions.ts loads one module by this name;
// all-definitions.ts takes them all, in this order, from all-modules.ts, which `npm run generate`
// writes from this list.
export const MODULES = [
  "org",
  "partner",
  "registry",
  "compute",
  "stream",
  "vod",
  "dns",
  "rpki",
  "cdn",
  "security",
  "link",
  "vgate",
  "mail",
  "sgate",
  "verify",
  "pages",
  "index",
  "services",
  "meet",
  "voice",
  "talk",
  "rtc",
  "storage",
  "ix",
] as const;
