/**
 * Runs `work` on every item, at most `limit` at a time, and returns the results in the items'
 * order. `work` is expected to settle with a result rather than throw: one failed item must not
 * stop the others.
 */
export async function runPool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
