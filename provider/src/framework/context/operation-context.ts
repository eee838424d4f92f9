import type { ApiClient } from "../../client";
import type { Adoptions } from "./adoption";
import type { InFlightDeletes } from "./in-flight-deletes";
import type { ListCache } from "./list-cache";

/** What a CRUD function gets besides its inputs. */
export interface OperationContext {
  client: ApiClient;
  /** Children read through their parent's list, fetched once per refresh (see ListCache). */
  lists: ListCache;
  /** Existing objects a create may adopt instead of making a duplicate (see Adoptions). */
  adoptions: Adoptions;
  /** The deletes under way in this plugin process, which a parent's delete waits for (held-objects.ts). */
  deletes: InFlightDeletes;
  /** The resource's name in the program (the last part of its URN), for messages that name it. */
  resourceName?: string;
  /** Aborted when the engine cancels the operation (Ctrl-C) or its timeout passes. */
  signal: AbortSignal;
  /** Messages shown by the engine next to the resource. */
  log: (severity: "debug" | "info" | "warning", message: string) => void;
  /**
   * Records that the object now exists with this id and state. A create or update that takes
   * several calls reports after the first one; if a later call fails, the engine keeps the
   * object with this partial state (Pulumi's initialization error) and the next `up` finishes it
   * instead of creating a second one.
   */
  progress: (id: string, state: Record<string, unknown>) => void;
}
