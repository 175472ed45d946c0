import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Compares a presented key with every configured key in constant time. Hashing first gives equal
 * lengths, so neither a key's content nor its length leaks through timing.
 */
export function createApiKeyCheck(keys: readonly string[]): (presented: string) => boolean {
  const find = createApiKeyFinder(keys);
  return (presented) => find(presented) !== undefined;
}

/**
 * Which configured key was presented, by its position (1 for the first), in constant time as
 * createApiKeyCheck: every key is compared whatever matched. Undefined when none is.
 */
export function createApiKeyFinder(keys: readonly string[]): (presented: string) => number | undefined {
  const expected = keys.map(digest);
  return (presented) => {
    const candidate = digest(presented);
    let found: number | undefined;
    // Backwards, so that the first of equal keys wins without a branch on an earlier match.
    for (let index = expected.length - 1; index >= 0; index--) {
      if (timingSafeEqual(expected[index]!, candidate)) found = index + 1;
    }
    return found;
  };
}
