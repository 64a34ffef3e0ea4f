/**
 * `items.map(fn)` for an asynchronous `fn`, one item after another: each call starts once the
 * one before has finished, so that reads and writes keep the order of the items (inside a
 * transaction as outside one), where `Promise.all(items.map(fn))` would interleave them.
 */
export async function mapInOrder<T, R>(
  items: Iterable<T>,
  fn: (item: T, index: number) => Promise<R> | R,
): Promise<R[]> {
  const results: R[] = [];
  let index = 0;
  for (const item of items) results.push(await fn(item, index++));
  return results;
}
