// The objects of a collection under a parent object (the objects of a PBX, the aliases of a
// mail domain, ...): list and create at `<collection>`, get, patch and delete at
// `<collection>/<id>`, known to Pulumi as `<parent>/<id>`. `childCollection` is the collection
// shape (collection.ts) once per parent, with its whole definition; `defineChildCollection`
// turns a description of such a collection into a resource definition directly. The properties
// declare their own roles (create, patch, secret, ...), and the hooks cover what differs.
import { z } from "zod";
import { isApiError } from "../../../client";
import { defineResource, type CheckFailure, type ListFacts, type OperationContext, type ResourceDefinition } from "../../definition";
import { wireModel } from "../fields";
import { childIdOf, NUMERIC_ID } from "../ids";
import { listPath } from "../list-facts";
import { collection, modelOf, type Collection, type CollectionSpec, type ResourceOf } from "./collection";

type Shape = z.ZodRawShape;
type Props = Record<string, unknown>;

export interface DefineChildCollectionSpec<F extends Shape, S extends Shape> {
  token: string;
  description: string;
  /** What a person calls one, for messages. */
  what: string;
  /** The input holding the parent's id; a child cannot move to another parent. */
  parent: { key: string; field: z.ZodType };
  /** The collection of one parent's children, e.g. `/vgate/pbx/<pbx>/extensions`. */
  collection(parentId: string): string;
  /** A child's path segment under its collection (URL-encoded as needed). */
  segment?(id: string): string;
  /** The API's type of a child's `id`: most ids are integers, some are strings. */
  idOnWire: z.ZodType<string | number>;
  /** Splits an import id `<parent>/<id>`, or takes a bare id when the parent is known. */
  parseId(token: string, id: string, parentId?: string): { parentId: string; child: string };
  importId: string;
  shownId?: ResourceDefinition["shownId"];
  fields: F;
  outputs?: S;
  check?: (args: Props) => CheckFailure[];
  /** The message for a delete the API refuses with `conflict`, given "<what> <id>". */
  inUse?: (child: string) => string;
  /** A look at what a refresh found, against the prior state (to warn about out-of-band changes). */
  afterRead?: (ctx: OperationContext, state: Props, prior: Partial<Props>) => void;
  /** Extra work after the patch in an update (a password rotation). */
  afterUpdate?: (ctx: OperationContext, parentId: string, id: string, state: Props, news: Props, olds: Props, changed: readonly string[]) => Promise<Props>;
}

export function defineChildCollection<F extends Shape, S extends Shape = Record<never, never>>(spec: DefineChildCollectionSpec<F, S>): ResourceDefinition {
  const parentKey = spec.parent.key;
  const args = z.object({ [parentKey]: spec.parent.field.meta({ replace: true }), ...spec.fields });
  const state = z.object({ ...(spec.outputs ?? {}) });
  const api = wireModel(args, state, { id: spec.idOnWire });
  const wire = api.wire as z.ZodType<Props & { id: string | number }>;
  const segment = spec.segment ?? ((id: string) => id);
  const path = (parentId: string, child?: string) => (child === undefined ? spec.collection(parentId) : `${spec.collection(parentId)}/${segment(child)}`);
  const stateOf = (parentId: string, raw: Props & { id: string | number }): Props => ({ ...(api.toState(raw) as Props), [parentKey]: parentId });

  return defineResource({
    token: spec.token,
    description: spec.description,
    args,
    state,
    importId: spec.importId,
    ...(spec.shownId ? { shownId: spec.shownId } : {}),
    ...(spec.check ? { check: spec.check as never } : {}),

    async create(ctx, inputs) {
      const parentId = (inputs as Props)[parentKey] as string;
      const raw = await ctx.client.post(path(parentId), api.createBody(inputs as never), { schema: wire, signal: ctx.signal });
      return { id: String(raw.id), state: stateOf(parentId, raw) as never };
    },

    async read(ctx, id, prior) {
      const { parentId, child } = spec.parseId(spec.token, id, (prior as Props)[parentKey] as string | undefined);
      // A parent that is gone takes its children with it (not_found either way).
      const single = () => ctx.client.getOrUndefined(path(parentId, child), { schema: wire, signal: ctx.signal });
      // A refresh of many children of one parent reads them from one list when batching is on.
      const raw = await ctx.lists.find(path(parentId), child, wire, ctx.signal, single);
      if (!raw) return undefined;
      const state = stateOf(parentId, raw);
      spec.afterRead?.(ctx, state, prior as Partial<Props>);
      return { id: child, state: state as never };
    },

    async update(ctx, id, news, olds, changedInputs) {
      const n = news as Props;
      const o = olds as Props;
      const { parentId, child } = spec.parseId(spec.token, id, o[parentKey] as string);
      let state: Props = { ...o, ...n };
      const patch = api.patchBody(n as never, changedInputs);
      if (Object.keys(patch).length) {
        const raw = await ctx.client.patch(path(parentId, child), patch, { schema: wire, signal: ctx.signal });
        state = stateOf(parentId, raw);
        ctx.progress(child, state);
      }
      if (spec.afterUpdate) state = await spec.afterUpdate(ctx, parentId, child, state, n, o, changedInputs);
      return state as never;
    },

    async delete(ctx, id, olds) {
      const { parentId, child } = spec.parseId(spec.token, id, (olds as Props)[parentKey] as string);
      try {
        await ctx.client.delete(path(parentId, child), { signal: ctx.signal });
      } catch (e) {
        if (isApiError(e) && e.code === "conflict") {
          const name = `${spec.what} ${child}`;
          const why = spec.inUse ? spec.inUse(name) : `the API refuses to delete ${name} while something still uses it`;
          throw new Error(`${spec.token}: ${why}: ${e.serverMessage || e.message}`, { cause: e });
        }
        throw e;
      }
    },
  }) as unknown as ResourceDefinition;
}

type Out<S extends Shape> = z.output<z.ZodObject<S>>;
type ParentFacts = NonNullable<ListFacts["parent"]>;

/** A collection's spec for the objects of one parent each, known to Pulumi as `<parent>/<id>`. */
export interface ChildCollectionSpec<A extends Shape, S extends Shape> extends Omit<CollectionSpec<A, S>, "path" | "idOf" | "underParent"> {
  /** One parent's collection, the input naming the parent as its placeholder: `/mail/domains/{domainId}/aliases`. */
  path: string;
  /** The parent's kind and the input naming one. */
  parent: { token: string; input: keyof A & string };
  /** How `pulumi import` names one: `<domainId>/<aliasId>`. */
  importId: string;
  /** The pattern of the child's own id (default: numeric); the parent's is numeric. */
  childId?: RegExp;
  /** Splits a resource id, where the import form is checked otherwise than `childIdOf` does. */
  locate?(id: string, parentId?: string): { parent: string; child: string };
}

export interface ChildCollection<A extends Shape, S extends Shape> {
  /** The collection of one parent. */
  of(parentId: string): Collection<A, S>;
  /** The parent and the child's own id that a resource id `<parent>/<child>` names, or the child's id with the parent known. */
  locate(id: string, parentId?: string): { parent: string; child: string };
  /**
   * The whole definition, as a collection's `resource` gives it: its token, inputs and outputs,
   * its list under the parent, its import id, and the read, update (where patchable) and delete
   * of the parent's collection that the resource id or the state names; `given` adds the create
   * and overrides any of them.
   */
  resource(given: ChildResourceOf<A, S>): ResourceDefinition<A, S>;
}

/** What a child collection's resource adds: the list facts need no path, and of the parent only what the spec's lacks. */
export type ChildResourceOf<A extends Shape, S extends Shape> = Omit<ResourceOf<A, S>, "importId" | "list"> & {
  list?: Omit<ListFacts<keyof A & string>, "path" | "parent"> & { parent?: Omit<ParentFacts, "token" | "input"> };
};

export function childCollection<A extends Shape, S extends Shape>(spec: ChildCollectionSpec<A, S>): ChildCollection<A, S> {
  const locate = spec.locate ?? ((id: string, parentId?: string) => childIdOf(spec.token, id, spec.importId, NUMERIC_ID, spec.childId ?? NUMERIC_ID, parentId));
  const { parent: parentFacts, importId, childId: _childId, locate: _locate, ...shared } = spec;
  // One wire model for every parent: each operation takes its parent's collection afresh.
  const model = modelOf(spec);
  const of = (parentId: string) => collection<A, S>({ ...shared, model, path: listPath(spec.path, parentId), underParent: true, idOf: (id) => locate(id, parentId).child });
  const parentOf = (values: Partial<Out<A> & Out<S>>) => (values as Record<string, unknown>)[parentFacts.input] as string | undefined;
  const within = <T>(id: string, parentId: string | undefined, op: (objects: Collection<A, S>, child: string) => T): T => {
    const { parent, child } = locate(id, parentId);
    return op(of(parent), child);
  };
  const lastHole = importId.match(/<[^>]+>$/)?.[0] ?? importId;
  // Whether the objects are patchable is the same for every parent: the inputs' roles say it.
  const patchable = model.patchKeys(Object.keys(spec.args.shape)).length > 0;
  return {
    of,
    locate,
    resource(given) {
      const { list, ...rest } = given;
      return defineResource<A, S>({
        token: spec.token,
        args: spec.args,
        state: spec.state,
        importId,
        shownId: { form: lastHole, importable: false },
        read: (ctx, id, prior) => within(id, parentOf(prior), (objects, child) => objects.readOne(ctx, child)),
        ...(patchable ? { update: (ctx, id, news, olds, changed) => within(id, parentOf(olds), (objects, child) => objects.update(ctx, child, news, olds, changed)) } : {}),
        delete: (ctx, id, olds) => within(id, parentOf(olds), (objects, child) => objects.delete(ctx, child)),
        ...rest,
        list: { ...list, path: spec.path, parent: { ...list?.parent, token: parentFacts.token, input: parentFacts.input } },
      });
    },
  };
}
