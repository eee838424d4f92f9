// The shape of a document of another object: one per parent at a fixed path under it
// (`/services/{id}/filter`, `/dns/zones/{id}/dnssec`), which the API replaces whole with PUT;
// there is no create or delete of its own. The resource's id is the parent's. `documentAt` gives
// the reads and writes; `defineDocument` the whole definition, whose create and update PUT the
// document, whose read finds it gone with its parent, and whose delete PUTs it emptied.
import type { z } from "zod";
import { defineResource, type CheckFailure, type OperationContext, type ResourceDefinition } from "../../definition";

/** How the document looks on the wire: wireModel's, or a model with codecs (services/text-lists.ts). */
export interface DocumentModel {
  wire: z.ZodType<Record<string, unknown>>;
  createBody(values: Record<string, unknown>): Record<string, unknown>;
  toState(raw: Record<string, unknown>): Record<string, unknown>;
}

type Props = Record<string, unknown>;

export function documentAt(path: (parentId: string) => string, model: DocumentModel) {
  return {
    /** PUTs the document (every field the program sets, and `extra` wire fields); returns what the API answers with. */
    async putRaw(ctx: OperationContext, parentId: string, values: Props, extra: Props = {}): Promise<Props> {
      return ctx.client.put(
        path(parentId),
        { ...model.createBody(values), ...extra },
        { schema: model.wire, signal: ctx.signal },
      );
    },
    /** PUTs the whole document; returns the state the API answers with. */
    async put(ctx: OperationContext, parentId: string, values: Props) {
      return model.toState(await this.putRaw(ctx, parentId, values));
    },
    /** The document as the API returns it; undefined when its parent is gone. */
    async getRaw(ctx: OperationContext, parentId: string): Promise<Props | undefined> {
      return ctx.client.getOrUndefined(path(parentId), { schema: model.wire, signal: ctx.signal });
    },
    /** The document's state; undefined when its parent is gone. */
    async get(ctx: OperationContext, parentId: string) {
      const raw = await this.getRaw(ctx, parentId);
      return raw && model.toState(raw);
    },
    /** An empty PUT: the API's defaults again. */
    async reset(ctx: OperationContext, parentId: string) {
      await ctx.client.put(path(parentId), {}, { signal: ctx.signal });
    },
  };
}

export type Document = ReturnType<typeof documentAt>;

export interface DocumentSpec<A extends z.ZodRawShape, S extends z.ZodRawShape>
  extends Pick<
    ResourceDefinition<A, S>,
    "token" | "since" | "description" | "list" | "notListed" | "args" | "state" | "importId" | "migrations"
  > {
  /** The input naming the parent: the resource's id, in the path and not in the document. */
  parent: keyof A & string;
  /** Checks the resource id (the parent's) before it goes into a path. */
  idOf(id: string): string;
  path(parentId: string): string;
  model: DocumentModel;
  /** What a delete PUTs, in the inputs' terms: the document emptied (signing off, no items). */
  emptied: Props;
  /** The state from the API's answer, where it needs more than the model (the prior state, a one-time secret); `news` at an update. */
  toState?(raw: Props, prior: Props, news?: Props): Props;
  check?(args: Props): CheckFailure[];
  /**
   * What the state takes from the parent itself (its name), read before the create's PUT and
   * every read: undefined when the parent is gone (so is the document), a throw where the parent
   * cannot hold the document; with `mustExist`, a parent that is gone is a throw too.
   */
  parentState?(ctx: OperationContext, parentId: string, mustExist: boolean): Promise<Props | undefined>;
  /** Runs after the create's PUT, with the API's answer (a warning about what it could not do). */
  afterCreate?(ctx: OperationContext, args: Props, raw: Props): void;
  /** The PUTs of an update, where it is more than one PUT of the new document (a guard, a second call); returns the last answer. */
  update?(ctx: OperationContext, document: Document, parentId: string, news: Props, olds: Props): Promise<Props>;
}

export function defineDocument<A extends z.ZodRawShape, S extends z.ZodRawShape>(
  spec: DocumentSpec<A, S>,
): ResourceDefinition {
  const document = documentAt(spec.path, spec.model);
  const stateOf = (parentId: string, raw: Props, prior: Props, news?: Props): Props => ({
    ...(spec.toState ? spec.toState(raw, prior, news) : spec.model.toState(raw)),
    [spec.parent]: parentId,
  });
  const {
    parent: _parent,
    idOf,
    path: _path,
    model: _model,
    emptied,
    toState: _toState,
    afterCreate,
    update,
    parentState,
    ...definition
  } = spec;
  return defineResource({
    ...(definition as unknown as Omit<ResourceDefinition, "create">),
    async create(ctx, args) {
      const parentId = String(args[spec.parent]);
      const parent = await parentState?.(ctx, parentId, true);
      const raw = await document.putRaw(ctx, parentId, args);
      afterCreate?.(ctx, args, raw);
      return { id: parentId, state: { ...stateOf(parentId, raw, {}), ...parent } as never };
    },
    async read(ctx, id, prior) {
      const parentId = idOf(id);
      const parent = parentState ? await parentState(ctx, parentId, false) : {};
      if (!parent) return undefined;
      const raw = await document.getRaw(ctx, parentId);
      return raw && { id: parentId, state: { ...stateOf(parentId, raw, prior), ...parent } as never };
    },
    async update(ctx, id, news, olds) {
      const parentId = idOf(id);
      const raw = update
        ? await update(ctx, document, parentId, news, olds)
        : await document.putRaw(ctx, parentId, news);
      return stateOf(parentId, raw, olds, news) as never;
    },
    async delete(ctx, id) {
      await document.putRaw(ctx, idOf(id), emptied);
    },
  }) as unknown as ResourceDefinition;
}
