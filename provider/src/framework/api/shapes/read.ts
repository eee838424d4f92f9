// How a collection reads one object: one small reader per way the API offers it, the shape
// calling whichever the collection's spec names through the one `Reader` interface.
import type { z } from "zod";
import type { OperationContext } from "../../definition";

/** An object as the API returns it, validated by the wire model. */
export type Item = Record<string, unknown> & { id?: string | number };

/** What a reader may use of its collection. */
export interface Readable {
  /** The collection's path, the key of the list a refresh shares (list-cache.ts). */
  path: string;
  wire: z.ZodType<Item>;
  /** The API's id of the object a resource id names, checked. */
  idOf(id: string): string;
  /** GET of `<collection>/<id>`; undefined when it is gone. */
  get(ctx: OperationContext, id: string): Promise<Item | undefined>;
  list(ctx: OperationContext): Promise<Item[]>;
}

/** Reads one object, by its resource id, as the API returns it; undefined when it is gone. */
export interface Reader {
  read(objects: Readable, ctx: OperationContext, id: string): Promise<Item | undefined>;
}

/** A GET of the object at `<collection>/<id>`: the default. */
export const byGet: Reader = { read: (objects, ctx, id) => objects.get(ctx, id) };

/** For an API without a GET of one object: the object of that id in the collection's list. */
export function fromList(): Reader {
  return {
    async read(objects, ctx, id) {
      const wanted = objects.idOf(id);
      return (await objects.list(ctx)).find((item) => String(item.id) === wanted);
    },
  };
}

/**
 * From the list a refresh reads once for all the objects of the collection (list-cache.ts);
 * `single` reads the object where batching is off or the list lacks it.
 */
export function batched(single: Reader): Reader {
  return {
    read(objects, ctx, id) {
      type Listed = Item & { id: string | number };
      const one = () => single.read(objects, ctx, id) as Promise<Listed | undefined>;
      return ctx.lists.find(objects.path, objects.idOf(id), objects.wire as z.ZodType<Listed>, ctx.signal, one);
    },
  };
}

/** For an API without a GET of one object: the list a refresh shares, else the collection's list. */
export function fromSharedList(): Reader {
  return batched(fromList());
}
