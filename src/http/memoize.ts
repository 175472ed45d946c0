/**
 * `compute` with its answers kept for the last `capacity` keys it was asked (the oldest goes first
 * beyond that): for work done again and again on the same few inputs in every request, in bounded
 * memory. `compute` must answer the same for the same key.
 */
export function memoizeBounded<Value>(capacity: number, compute: (key: string) => Value): (key: string) => Value {
  const kept = new Map<string, Value>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) {
      value = compute(key);
      if (kept.size >= capacity) kept.delete(kept.keys().next().value as string);
      kept.set(key, value);
    }
    return value;
  };
}
