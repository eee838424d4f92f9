// The deletes this plugin process has under way, by kind. The engine sends the deletes of objects
// it sees no dependency between at the same time: an imported record names its zone by a literal
// id, so the record's delete and the zone's arrive together, and the zone's check of what it still
// holds (held-objects.ts) could list the record before its delete has landed. That check first
// waits for the deletes in flight of the kinds the parent holds.

export class InFlightDeletes {
  readonly #byToken = new Map<string, Set<Promise<unknown>>>();
  readonly #startedByToken = new Map<string, number>();

  /** Runs one delete of the kind `token`, counted as in flight until it settles. */
  async run<T>(token: string, remove: () => Promise<T>): Promise<T> {
    const running = remove();
    this.#startedByToken.set(token, (this.#startedByToken.get(token) ?? 0) + 1);
    let set = this.#byToken.get(token);
    if (!set) this.#byToken.set(token, (set = new Set()));
    set.add(running);
    try {
      return await running;
    } finally {
      set.delete(running);
    }
  }

  /**
   * How many deletes of these kinds this process has started: a count that moved while a list was
   * read means a delete started meanwhile, which the list may or may not show, even if it has
   * already settled.
   */
  startedOf(tokens: Iterable<string>): number {
    let n = 0;
    for (const token of tokens) n += this.#startedByToken.get(token) ?? 0;
    return n;
  }

  /** The deletes of these kinds in flight now; each settles (done or failed) when its delete ends. */
  of(tokens: Iterable<string>): Promise<unknown>[] {
    const found: Promise<unknown>[] = [];
    for (const token of tokens) for (const running of this.#byToken.get(token) ?? []) found.push(running);
    return found;
  }
}
