import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Compares a presented key with every configured key in constant time. Hashing first gives equal
 * lengths, so neither a key's content nor its length leaks through timing.
 */
export function createApiKeyCheck(keys: readonly string[]): (presented: string) => boolean {
  const expected = keys.map(digest);
  return (presented) => {
    const candidate = digest(presented);
    let match = false;
    for (const key of expected) match = timingSafeEqual(key, candidate) || match;
    return match;
  };
}
