// The definitions as the plugin looks them up: one module at a time, the one a call's token
// names. The engine starts a plugin process per provider instance for every command, and
// evaluating a module builds its definitions' zod schemas, so a process evaluates only the modules
// its calls use (a module's own imports of another's files come along). The modules are those of
// modules.ts, the one list all-definitions.ts takes them from too.
import { byToken, type AnyFunction, type AnyResource } from "../framework/definition";
import { MODULES } from "./modules";

interface ModuleDefinitions {
  readonly resources: readonly AnyResource[];
  readonly functions: readonly AnyFunction[];
}

/** The module segment of every token the loaders serve (`nsp:<module>:<Name>`). */
export const moduleNames: readonly string[] = MODULES;

/** One module's definitions, evaluated on the first call. */
export function loadModule(name: string): Promise<ModuleDefinitions> {
  if (!moduleNames.includes(name)) throw new Error(`no module named ${JSON.stringify(name)} (modules/modules.ts)`);
  // import(), not a static import, and of a template: the bundler takes every modules/*/index.ts
  // and wraps each in a function it runs on the first load of that name (scripts/build.mjs).
  return import(`./${name}/index.ts`);
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
  if (name !== undefined && moduleNames.includes(name)) {
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
