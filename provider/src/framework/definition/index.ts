import type { z } from "zod";
import { keysWithRole } from "./zod-walk";
import { FORCE_DESTROY, forceDestroyInput, type Holds } from "./holds";
import type { OperationContext } from "../context/operation-context";
import type { DiscoveryFacts } from "../api/list-facts";

export type { OperationContext } from "../context/operation-context";

export interface CheckFailure {
  property: string;
  reason: string;
}

type Shape = z.ZodRawShape;

/**
 * One change of a resource's shape, from the previous version to the next. Inputs carry no
 * version (the engine keeps them as the program gave them), so a migration is also applied to
 * inputs that may already have the next shape: it must leave those as they are.
 */
export interface StateMigration {
  /** The release whose shape this produces, e.g. `0.2.0`. */
  release: string;
  /** What changed, for the upgrade notes. */
  change: string;
  /** Properties renamed, old name to new name; the value is kept, secret or not. */
  renamed?: Readonly<Record<string, string>>;
  /**
   * Properties whose value changes shape (by their new name): the old value to the new one, or
   * undefined for no value. Given a value of the new shape, returns it unchanged. Not called for
   * values the engine does not know yet.
   */
  reshaped?: Readonly<Record<string, (value: unknown) => unknown>>;
}

/** An object as the API lists it. */
export type ListedItem = Record<string, unknown>;

/**
 * How the API lists one kind of object, declared once in the kind's definition (its `list`): the
 * list path, the parent and the input naming it, the field that is the object's own id and the
 * filters the list can narrow by. nsp-discover, the natural key's look-ups (a conflict's message,
 * the pending-creates recovery) and the plugin's List all read these facts
 * (framework/api/list-facts.ts).
 */
export interface ListFacts<Input extends string = string> {
  /**
   * The API's list of the kind; `{<input>}` stands for the parent's id, the input that names the
   * parent (`/dns/zones/{zoneId}/records`). For objects read off their parent (`fromParent`),
   * the parents' list.
   */
  path: string;
  /** The kind whose objects hold this kind's objects, and the input naming one of them. */
  parent?: {
    token: string;
    input: Input;
    /** The parent's list, when the parent is no resource of the provider (the services the API makes). */
    path?: string;
    /** Which parents can hold such objects; the others have none by design. */
    holds?: (parent: ListedItem) => boolean;
  };
  /** The field that fills the last placeholder of the import id (default `id`). */
  key?: string;
  /**
   * Inputs a List can narrow by: `query` ones are the API's own query parameters (under their
   * wire names); `match` ones are compared with each listed object.
   */
  filters?: { readonly [K in Input]?: "query" | "match" };
  /** A readable name for the object (default: its name, hostname, handle or id). */
  label?: (item: ListedItem, parent?: ListedItem) => string;
  /** Why an object of the list is not this kind's own object to adopt (made by the API, owned elsewhere). */
  skip?: (item: ListedItem, parent?: ListedItem) => string | undefined;
  /** Objects read off each parent of `path` (its own fields) instead of a list of their own. */
  fromParent?: (parent: ListedItem) => ListedItem[];
  /**
   * The zone an object belongs to (nsp-discover --zone): its own, its parent's, or that of another
   * object it hangs from, found with `find`.
   */
  zoneOf?: (
    item: ListedItem,
    parent: ListedItem | undefined,
    find: (token: string, id: unknown) => ListedItem | undefined,
  ) => unknown;
  /** The kind `zoneOf` finds objects of. */
  zoneVia?: string;
  /** What nsp-discover does otherwise with the kind's objects (framework/api/list-facts.ts). */
  discovery?: DiscoveryFacts;
}

type Out<S extends Shape> = z.output<z.ZodObject<S>>;

/**
 * One resource, described once. Check, Diff, schema.json, the SDKs and the docs are all derived
 * from this object, so a property can never be validated one way and documented another.
 */
export interface ResourceDefinition<A extends Shape = Shape, S extends Shape = Shape> {
  /** `nsp:<module>:<Name>` */
  token: string;
  /**
   * The release that first served this kind, e.g. `0.3.0` (the next one while unreleased): the
   * plugins of earlier releases refuse a program that names it (test/e2e/upgrade.test.ts).
   */
  since?: string;
  /**
   * Tokens this resource had in earlier releases, oldest first. The schema lists them as aliases
   * (so the engine moves a state to the new token instead of replacing the object) and the plugin
   * serves them too.
   */
  previousTokens?: readonly string[];
  /**
   * Every change of this resource's shape since 0.1.0, oldest first (see framework/
   * state-version.ts). Adding one raises the version of the shape; a property is never renamed
   * or reshaped without one.
   */
  migrations?: readonly StateMigration[];
  /**
   * How the API lists objects of this kind (see ListFacts): nsp-discover, the plugin's List and
   * the look-ups by natural key read them. Absent for a kind the API has no list of.
   */
  list?: ListFacts<keyof A & string>;
  /**
   * Why a kind has no `list`, so nsp-discover leaves it out (settings the API makes with the
   * account, a secret shown once, a wait rather than an object): its page and nsp-discover's
   * report say it. A kind has one or the other (test/unit/list-facts.test.ts).
   */
  notListed?: string;
  description: string;
  /** Pulumi inputs: the API's create and patch fields in camelCase. */
  args: z.ZodObject<A>;
  /** Output-only properties: what the API returns beyond the inputs. */
  state: z.ZodObject<S>;
  // The four lists below are derived by defineResource from the roles the properties declare
  // (`replace`, `secret`, `writeOnly`/`local`, `oneTime`); a definition never lists them itself.
  /** Inputs the API cannot change in place; a change replaces the object. */
  replaceOnChanges?: readonly (keyof A & string)[];
  /** Properties (inputs or outputs) always stored as Pulumi secrets. */
  secrets?: readonly ((keyof A | keyof S) & string)[];
  /**
   * Inputs the API never returns (write-only, such as a private key). Read keeps them from the
   * prior state and Diff compares them with the prior inputs.
   */
  writeOnly?: readonly (keyof A & string)[];
  /**
   * Outputs the API returns once (at create or rotation) and never again, such as a TSIG key.
   * Read keeps them from the prior state, so a refresh never loses them; they should be secrets.
   */
  oneTime?: readonly (keyof S & string)[];
  /** When the replacement would collide with the old object (same natural key), delete first. */
  deleteBeforeReplace?: (olds: Out<A>, news: Out<A>) => boolean;
  /**
   * Called by Diff (in a preview too) when the replacement deletes first. Whatever would make the
   * new object's create fail and can be read beforehand belongs here: a throw stops the update
   * while the old object still exists, where a failed create after the delete loses it.
   */
  beforeDeleteFirst?: (ctx: OperationContext, olds: Out<A>, news: Out<A>) => Promise<void>;
  /**
   * What deleting the object deletes with it (a zone's records). Gives the resource the input
   * `forceDestroy`, without which a delete is refused while it holds objects (framework/engine/held-objects.ts).
   */
  holds?: Holds;
  /** How `pulumi import` names an existing object, e.g. `<zoneId>/<recordId>`. */
  importId: string;
  /**
   * When the resource's id (what `pulumi stack --show-ids` prints) is only the object's own part
   * of `importId`, e.g. `<recordId>`; and whether `pulumi import` takes that id as it is (the
   * parent is then found by listing). The docs' Import section shows the id users see.
   */
  shownId?: { form: string; importable: boolean };
  /**
   * Per-element detail of a list or map input (e.g. `records[3]`), which the engine shows instead
   * of one UPDATE of the whole property. Called only when both values are known.
   */
  detailedDiff?: {
    readonly [K in keyof A & string]?: (prev: unknown, next: unknown) => Record<string, "ADD" | "DELETE" | "UPDATE">;
  };
  /**
   * Whether two values of an input mean the same to the API, which may store another spelling of
   * what the program wrote (`2001:DB8::1` kept as `2001:db8::1`). Diff shows no change between
   * such values, and refresh keeps the program's spelling in the inputs. `args` are the new
   * inputs (Diff) or the values read back (refresh). Called only when both values are known.
   */
  sameValue?: {
    readonly [K in keyof A & string]?: (
      prev: NonNullable<z.output<A[K]>>,
      next: NonNullable<z.output<A[K]>>,
      args: Out<A>,
    ) => boolean;
  };
  /**
   * How the program `pulumi import` writes spells an input, where the API's spelling would
   * mislead the importer (see the zone's name). Check must read the spelling back to the value.
   */
  importSpelling?: { readonly [K in keyof A & string]?: (value: NonNullable<z.output<A[K]>>) => z.input<A[K]> };
  /** Rules across several inputs, run on fully known inputs after each property validated. */
  check?: (args: Out<A>) => CheckFailure[];
  /**
   * Rules a user expects that the API documents do not state (DNS's own rules): shown as
   * warnings at every Check of fully known, valid inputs, never refused.
   */
  warnings?: (args: Out<A>) => string[];

  /**
   * Reads only, never a write: warns (ctx.log) of what a create would change beyond the object
   * itself. Run by preview when the inputs are known; create calls it itself.
   */
  warnBeforeCreate?(ctx: OperationContext, args: Out<A>): Promise<void>;
  create(ctx: OperationContext, args: Out<A>): Promise<{ id: string; state: Out<A> & Out<S> }>;
  /** Returns undefined when the object no longer exists. `prior` is empty on import. */
  read?(
    ctx: OperationContext,
    id: string,
    prior: Partial<Out<A> & Out<S>>,
  ): Promise<{ id: string; state: Out<A> & Out<S> } | undefined>;
  /**
   * `changed` lists the inputs Diff found changed (against the last state, and counting an input
   * the program stopped setting); patch exactly those, so values the program leaves to the API
   * are never overwritten.
   */
  update?(
    ctx: OperationContext,
    id: string,
    news: Out<A>,
    olds: Out<A> & Out<S>,
    changed: readonly (keyof A & string)[],
  ): Promise<Out<A> & Out<S>>;
  delete?(ctx: OperationContext, id: string, olds: Out<A> & Out<S>): Promise<void>;
}

export interface FunctionDefinition<A extends Shape = Shape, R extends Shape = Shape> {
  /** `nsp:<module>:get<Thing>` */
  token: string;
  /** The release that first served this function, as a resource's `since`. */
  since?: string;
  description: string;
  args: z.ZodObject<A>;
  result: z.ZodObject<R>;
  secrets?: readonly (keyof R & string)[];
  check?: (args: Out<A>) => CheckFailure[];
  invoke(ctx: OperationContext, args: Out<A>): Promise<Out<R>>;
}

type DerivedLists = "replaceOnChanges" | "secrets" | "writeOnly" | "oneTime";

// The registry holds definitions of many shapes; erase the shape there, keep it at the definition.
// biome-ignore lint/suspicious/noExplicitAny: the registry erases each definition's own shape (see above).
export type AnyResource = ResourceDefinition<any, any>;
// biome-ignore lint/suspicious/noExplicitAny: as for AnyResource.
export type AnyFunction = FunctionDefinition<any, any>;

const evaluated: string[] = [];

/**
 * The tokens of the definitions this process has evaluated so far, in that order. The plugin
 * evaluates a module's definitions only when a call names one of its tokens; this is what shows
 * which ones a process's calls made it evaluate (the plugin prints it under NSP_DEBUG).
 */
export function evaluatedTokens(): readonly string[] {
  return evaluated;
}

/**
 * Completes a definition from the roles its properties declare (see FieldRoles): the secret,
 * replace-on-change, write-only and one-time lists that Diff, Read, the schema and the secret
 * handling consult. TypeScript infers the shapes from the zod objects.
 */
export function defineResource<A extends Shape, S extends Shape>(
  given: Omit<ResourceDefinition<A, S>, DerivedLists>,
): ResourceDefinition<A, S> {
  evaluated.push(given.token);
  // The provider's own input, never on the wire: the definition's CRUD ignores it.
  const def = given.holds
    ? {
        ...given,
        args: given.args.extend({ [FORCE_DESTROY]: forceDestroyInput(given.holds) }) as unknown as z.ZodObject<A>,
      }
    : given;
  const args = def.args.shape as unknown as Record<string, z.ZodType>;
  const outputs = def.state.shape as unknown as Record<string, z.ZodType>;
  const all = { ...args, ...outputs };
  const listed = <K extends string>(keys: string[]) => (keys.length ? (keys as K[]) : undefined);
  return {
    ...def,
    replaceOnChanges: listed(keysWithRole(args, "replace")),
    secrets: listed(keysWithRole(all, "secret")),
    // A local input is never returned either, so refresh keeps it as it keeps a write-only one.
    writeOnly: listed([...keysWithRole(args, "writeOnly"), ...keysWithRole(args, "local")]),
    oneTime: listed(keysWithRole(outputs, "oneTime")),
  };
}

/** Definitions by token, each under its current token and every token it had before. */
export function byToken(defs: readonly AnyResource[]): Map<string, AnyResource> {
  const map = new Map<string, AnyResource>();
  for (const def of defs) {
    for (const token of [def.token, ...(def.previousTokens ?? [])]) {
      const taken = map.get(token);
      if (taken) throw new Error(`${token} is the token of both ${taken.token} and ${def.token}`);
      map.set(token, def);
    }
  }
  return map;
}

export function defineFunction<A extends Shape, R extends Shape>(
  def: FunctionDefinition<A, R>,
): FunctionDefinition<A, R> {
  evaluated.push(def.token);
  return def;
}
