// The definitions as the plugin looks them up: one module at a time, the one a call's token
// names. The engine starts a plugin process per provider instance for every command, and
// evaluating a module builds its definitions' zod schemas, so a process evaluates only the modules
// its calls use (a module's own imports of another's files come along). all-definitions.ts lists
// the modules in schema order; this table says where each one is, by its tokens' module segment,
// and test/unit/lazy-definitions.test.ts checks that both name the same modules.
import { byToken, type AnyFunction, type AnyResource } from "../framework/definition";

interface ModuleDefinitions {
  readonly resources: readonly AnyResource[];
  readonly functions: readonly AnyFunction[];
}

// import(), not a static import: the build wraps each module in a function it runs on the first
// call of its loader (scripts/build.mjs).
const loaders: Readonly<Record<string, () => Promise<ModuleDefinitions>>> = {
  cdn: () => import("./cdn"),
  compute: () => import("./compute"),
  dns: () => import("./dns"),
  index: () => import("./index/index"),
  ix: () => import("./ix"),
  link: () => import("./link"),
  mail: () => import("./mail"),
  meet: () => import("./meet"),
  org: () => import("./org"),
  pages: () => import("./pages"),
  partner: () => import("./partner"),
  registry: () => import("./registry"),
  rpki: () => import("./rpki"),
  rtc: () => import("./rtc"),
  security: () => import("./security"),
  services: () => import("./services"),
  sgate: () => import("./sgate"),
  storage: () => import("./storage"),
  stream: () => import("./stream"),
  talk: () => import("./talk"),
  verify: () => import("./verify"),
  vgate: () => import("./vgate"),
  vod: () => import("./vod"),
  voice: () => import("./voice"),
};

/** The module segment of every token the loaders serve (`nsp:<module>:<Name>`). */
export const moduleNames: readonly string[] = Object.keys(loaders);

/** One module's definitions, evaluated on the first call. */
export function loadModule(name: string): Promise<ModuleDefinitions> {
  const loader = Object.hasOwn(loaders, name) ? loaders[name] : undefined;
  if (!loader) throw new Error(`no module named ${JSON.stringify(name)} (modules/lazy-definitions.ts)`);
  return loader();
}

/** Every definition, for what needs all of them (the schema): evaluates every module. */
export function allDefinitions(): Promise<typeof import("./all-definitions")> {
  return import("./all-definitions");
}

interface Lookup {
  resources: Map<string, AnyResource>;
  functions: Map<string, AnyFunction>;
}

const lookups = new Map<string, Promise<Lookup>>();

function moduleLookup(name: string): Promise<Lookup> {
  let lookup = lookups.get(name);
  if (!lookup) {
    lookup = loadModule(name).then((m) => ({
      resources: byToken(m.resources),
      functions: new Map(m.functions.map((f) => [f.token, f])),
    }));
    lookups.set(name, lookup);
  }
  return lookup;
}

/**
 * The module a token names, then, for a token it does not hold (an unknown one, or an earlier
 * token a definition kept from another module), every module.
 */
async function find<T>(token: string, pick: (lookup: Lookup) => T | undefined): Promise<T | undefined> {
  const name = /^nsp:([^:]+):[^:]+$/.exec(token)?.[1];
  if (name !== undefined && Object.hasOwn(loaders, name)) {
    const found = pick(await moduleLookup(name));
    if (found) return found;
  }
  const all = await allDefinitions();
  return pick({ resources: all.resourcesByToken, functions: all.functionsByToken });
}

/** The resource a type token names, under its current token or an earlier one. */
export function resourceByToken(token: string): Promise<AnyResource | undefined> {
  return find(token, (lookup) => lookup.resources.get(token));
}

/** The function a token names. */
export function functionByToken(token: string): Promise<AnyFunction | undefined> {
  return find(token, (lookup) => lookup.functions.get(token));
}
