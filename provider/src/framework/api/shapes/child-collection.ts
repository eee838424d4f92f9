// The objects of a collection under a parent object (the objects of a PBX, the aliases of a
// mail domain, ...): list and create at `<collection>`, get, patch and delete at
// `<collection>/<id>`, known to Pulumi as `<parent>/<id>`. `childCollection` is the collection
// shape (collection.ts) once per parent, with its whole definition. The properties declare
// their own roles (create, patch, secret, ...), and the spec's pieces and hooks cover what differs.
import type { z } from "zod";
import { defineResource, type ListFacts, type ResourceDefinition } from "../../definition";
import { listPath } from "../list-facts";
import { collection, modelOf, type Collection, type CollectionSpec, type ResourceOf } from "./collection";
import { apiId, type ChildIdentity, childIds } from "./identity";

export { childIds, locatedBy } from "./identity";

type Shape = z.ZodRawShape;

type Out<S extends Shape> = z.output<z.ZodObject<S>>;
type ParentFacts = NonNullable<ListFacts["parent"]>;

/** A collection's spec for the objects of one parent each, known to Pulumi as `<parent>/<id>`. */
export interface ChildCollectionSpec<A extends Shape, S extends Shape>
  extends Omit<CollectionSpec<A, S>, "path" | "id" | "underParent"> {
  /** One parent's collection, the input naming the parent as its placeholder: `/mail/domains/{domainId}/aliases`. */
  path: string;
  /** The parent's kind and the input naming one. */
  parent: { token: string; input: keyof A & string };
  /** How `pulumi import` names one: `<domainId>/<aliasId>`. */
  importId: string;
  /** How a resource id is split into parent and child (identity.ts): `childIds()`, numeric both, unless given. */
  id?: ChildIdentity;
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

export function childCollection<A extends Shape, S extends Shape>(
  spec: ChildCollectionSpec<A, S>,
): ChildCollection<A, S> {
  const ids = spec.id ?? childIds();
  const locate = (id: string, parentId?: string) => ids.locate(spec, id, parentId);
  const { parent: parentFacts, importId, id: _id, ...shared } = spec;
  // One wire model for every parent: each operation takes its parent's collection afresh.
  const model = modelOf(spec);
  const of = (parentId: string) =>
    collection<A, S>({
      ...shared,
      model,
      path: listPath(spec.path, parentId),
      underParent: true,
      id: apiId((id) => locate(id, parentId).child),
    });
  const parentOf = (values: Partial<Out<A> & Out<S>>) =>
    (values as Record<string, unknown>)[parentFacts.input] as string | undefined;
  const within = <T>(
    id: string,
    parentId: string | undefined,
    op: (objects: Collection<A, S>, child: string) => T,
  ): T => {
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
        read: (ctx, id, prior) => within(id, parentOf(prior), (objects, child) => objects.readOne(ctx, child, prior)),
        ...(patchable
          ? {
              update: (ctx, id, news, olds, changed) =>
                within(id, parentOf(olds), (objects, child) => objects.update(ctx, child, news, olds, changed)),
            }
          : {}),
        delete: (ctx, id, olds) => within(id, parentOf(olds), (objects, child) => objects.delete(ctx, child)),
        ...rest,
        list: {
          ...list,
          path: spec.path,
          parent: { ...list?.parent, token: parentFacts.token, input: parentFacts.input },
        },
      });
    },
  };
}
