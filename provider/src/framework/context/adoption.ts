import type { z } from "zod";
import type { ApiClient } from "../../client";

/** How to recognise, in its parent's list, an object whose identity is its content. */
export interface ContentIdentity<T extends { id: number | string }> {
  /** The parent's list, e.g. `/dns/zones/5/records`, where a DELETE of `<list>/<id>` removes an object. */
  list: string;
  /** The filter that narrows the list to the parent, e.g. `{ site_id: 7 }` for `/security/rules`. */
  query?: Record<string, string | number | undefined>;
  schema: z.ZodType<T>;
  /** True for an object identical to the one the create wants (a record's name, type and content). */
  matches: (item: T) => boolean;
}

/**
 * Adoption of objects that already exist with the content a create asks for: the creates that
 * were on the wire when an earlier run died (its engine never learned their ids), or that an
 * earlier run made before losing its state. Without it, the next `up` would make a second,
 * identical object and leave the first one behind, unseen by the program.
 *
 * One registry serves one plugin process, that is one pulumi command. Each parent is listed
 * once, at its first create in this command, before any of this command's own creates in it
 * (they all wait for that list); every object can then be claimed at most once, so two creates
 * of one command never share an object, and an object this command made or deleted is never
 * adopted.
 */
export class Adoptions {
  private readonly before = new Map<string, Promise<unknown[]>>();
  /** `<list> <id>` of every object a create of this command claimed, adopted or made. */
  private readonly taken = new Set<string>();
  /** `<list> <id>` of the objects adopted, for `handedOver`. */
  private readonly adopted = new Set<string>();
  /** `<list> <id>` of the objects this command deleted (the list taken earlier still shows them). */
  private readonly deleted = new Set<string>();

  constructor(private readonly client: ApiClient) {}

  /**
   * Before posting: an unclaimed identical object that the parent held when this command first
   * looked at it, now claimed by the caller; undefined when there is none and the create must post.
   */
  async claimExisting<T extends { id: number | string }>(
    identity: ContentIdentity<T>,
    signal: AbortSignal,
  ): Promise<T | undefined> {
    return this.claimFirst(identity, await this.listedBefore(identity, signal));
  }

  /**
   * The parent's list as this command first saw it, read once per command and shared with
   * claimExisting: checks across the objects of one parent cost no request of their own.
   */
  listedBefore<T extends { id: number | string }>(
    identity: Omit<ContentIdentity<T>, "matches">,
    signal: AbortSignal,
  ): Promise<T[]> {
    const parent = `${identity.list} ${JSON.stringify(identity.query ?? {})}`;
    let items = this.before.get(parent);
    if (!items) {
      items = this.client.listAll(identity.list, { query: identity.query, itemSchema: identity.schema, signal });
      // A failed list (a cancel, an outage) must not stay cached for the rest of the command.
      items.catch(() => this.before.get(parent) === items && this.before.delete(parent));
      this.before.set(parent, items);
    }
    return items as Promise<T[]>;
  }

  /**
   * After the API refused the create as a duplicate, or lost its answer: the identical object as
   * the parent holds it now, unless a create of this command already has it.
   */
  async claimCurrent<T extends { id: number | string }>(
    identity: ContentIdentity<T>,
    signal: AbortSignal,
  ): Promise<T | undefined> {
    return this.claimFirst(
      identity,
      await this.client.listAll(identity.list, { query: identity.query, itemSchema: identity.schema, signal }),
    );
  }

  /** The object a create of this command just made is no one else's to adopt. */
  made(list: string, id: number | string): void {
    this.taken.add(`${list} ${id}`);
  }

  /**
   * True when a create of this command adopted the object: a delete of it in the same command
   * (the program renamed a resource, so the engine creates the new one and then deletes the old)
   * must leave it to its new owner.
   */
  handedOver(list: string, id: number | string): boolean {
    return this.adopted.has(`${list} ${id}`);
  }

  /** Called for every write the client sends; a DELETE of `<list>/<id>` removes that object. */
  sawWrite(method: string, path: string): void {
    if (method !== "DELETE") return;
    const cut = path.lastIndexOf("/");
    if (cut > 0) this.deleted.add(`${path.slice(0, cut)} ${path.slice(cut + 1)}`);
  }

  private claimFirst<T extends { id: number | string }>(
    identity: ContentIdentity<T>,
    items: readonly T[],
  ): T | undefined {
    for (const item of items) {
      const key = `${identity.list} ${item.id}`;
      if (this.taken.has(key) || this.deleted.has(key) || !identity.matches(item)) continue;
      this.taken.add(key);
      this.adopted.add(key);
      return item;
    }
    return undefined;
  }
}
