// A stack lives through many releases of the provider, so every state records the version of its
// resource's shape and every operation that receives a state brings it up to date first, through
// the migrations the definition keeps beside its properties. The version is the number of
// migrations a state has been through. A state without one is version 0, the shape 0.1.0 wrote,
// and version 0 is never written: a resource whose shape never changed keeps the states it had.
import type { StateMigration } from "../definition";
import { UserError } from "./user-error";
import { containsUnknown, type PropertyMap } from "./property-values";

/** The state key of the shape's version. The engine shows no `__` key in any display or diff. */
export const STATE_VERSION_KEY = "__nspStateVersion";

/** What the upgrades read of a resource's definition; every ResourceDefinition is one. */
export interface VersionedKind {
  token: string;
  migrations?: readonly StateMigration[];
}

/** The version of the shape this release writes for the resource. */
export function stateVersionOf(def: VersionedKind): number {
  return def.migrations?.length ?? 0;
}

function apply(migration: StateMigration, props: PropertyMap): PropertyMap {
  const out: PropertyMap = { ...props };
  for (const [from, to] of Object.entries(migration.renamed ?? {})) {
    if (!(from in out)) continue;
    if (out[to] === undefined) out[to] = out[from];
    delete out[from];
  }
  for (const [key, reshape] of Object.entries(migration.reshaped ?? {})) {
    if (out[key] === undefined || containsUnknown(out[key])) continue;
    const value = reshape(out[key]);
    if (value === undefined) delete out[key];
    else out[key] = value;
  }
  return out;
}

/** The version a state records; a state without one is version 0. */
export function recordedVersion(def: VersionedKind, state: PropertyMap): number {
  const recorded = state[STATE_VERSION_KEY];
  if (recorded === undefined || recorded === null) return 0;
  const version = Number(recorded);
  if (!Number.isInteger(version) || version < 0)
    throw new UserError(
      `nsp: the state of this ${def.token} records an unreadable shape version ${JSON.stringify(recorded)}`,
    );
  return version;
}

/**
 * Brings a state written by any release up to this release's shape, stamped with its version, so
 * that upgrading it again changes nothing. A state of a later release is refused: this plugin
 * cannot know what that release changed.
 */
export function upgradeState(def: VersionedKind, state: PropertyMap): PropertyMap {
  const from = recordedVersion(def, state);
  const current = stateVersionOf(def);
  if (from > current) {
    throw new UserError(
      `nsp: this ${def.token} was last written by a later release of nsp (its state has shape version ${from}; this plugin reads up to ${current}). ` +
        "Run the program with that release or a later one (pin the plugin's version); see docs/upgrading.md",
    );
  }
  let out = state;
  for (const migration of def.migrations?.slice(from) ?? []) out = apply(migration, out);
  return stampState(def, out);
}

/** Brings inputs of any release (a state's inputs, or a program's) to this release's shape. */
export function upgradeInputs(def: VersionedKind, inputs: PropertyMap): PropertyMap;
export function upgradeInputs(def: VersionedKind, inputs: PropertyMap | undefined): PropertyMap | undefined;
export function upgradeInputs(def: VersionedKind, inputs: PropertyMap | undefined): PropertyMap | undefined {
  if (!inputs) return inputs;
  let out = inputs;
  for (const migration of def.migrations ?? []) out = apply(migration, out);
  return out;
}

/** The names top-level keys have after every rename, for the secret markings the engine sent. */
export function upgradeKeys(def: VersionedKind, keys: Iterable<string>): Set<string> {
  const out = new Set(keys);
  for (const migration of def.migrations ?? []) {
    for (const [from, to] of Object.entries(migration.renamed ?? {})) if (out.has(from)) out.add(to);
  }
  return out;
}

/** Marks a state this release wrote with the version of its shape. */
export function stampState(def: VersionedKind, state: PropertyMap): PropertyMap {
  const { [STATE_VERSION_KEY]: _recorded, ...rest } = state;
  const version = stateVersionOf(def);
  return version === 0 ? rest : { ...rest, [STATE_VERSION_KEY]: version };
}
