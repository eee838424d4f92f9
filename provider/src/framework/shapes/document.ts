// The shape of a document of another object: one per parent at a fixed path under it
// (`/services/{id}/filter`), which the API replaces whole with PUT; there is no create or delete
// of its own, and an empty PUT resets it to the API's defaults. The definition keeps the parent
// in the state and decides what a delete means; the reads and writes are here.
import type { z } from "zod";
import type { OperationContext } from "../definition";

/** How the document looks on the wire: wireModel's, or a model with codecs (services/text-lists.ts). */
export interface DocumentModel {
  wire: z.ZodType<Record<string, unknown>>;
  createBody(values: Record<string, unknown>): Record<string, unknown>;
  toState(raw: Record<string, unknown>): Record<string, unknown>;
}

export function documentAt(path: (parentId: string) => string, model: DocumentModel) {
  return {
    /** PUTs the whole document (every field the program sets); returns the state the API answers with. */
    async put(ctx: OperationContext, parentId: string, values: Record<string, unknown>) {
      return model.toState(await ctx.client.put(path(parentId), model.createBody(values), { schema: model.wire, signal: ctx.signal }));
    },
    async get(ctx: OperationContext, parentId: string) {
      return model.toState(await ctx.client.get(path(parentId), { schema: model.wire, signal: ctx.signal }));
    },
    /** An empty PUT: the API's defaults again. */
    async reset(ctx: OperationContext, parentId: string) {
      await ctx.client.put(path(parentId), {}, { signal: ctx.signal });
    },
  };
}
