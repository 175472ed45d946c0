import { createApiKeyCheck, createApiKeyFinder } from '../../src/auth/api-keys';

describe('createApiKeyFinder', () => {
  const first = 'service-key-0123456789';
  const second = 'a-longer-service-key-0123456789abcdef';
  const find = createApiKeyFinder([first, second]);

  it('when a configured key is presented, then its position is the answer, whatever the order of the calls', () => {
    expect([find(second), find(first), find(second)]).toEqual([2, 1, 2]);
  });

  it('when a key is presented with a byte missing, added or changed, then none matches', () => {
    for (const presented of [first.slice(0, -1), `${first}x`, `${first}\u0000`, `x${first.slice(1)}`, second.slice(0, first.length), `${second} `, '', ' ']) {
      expect(find(presented)).toBeUndefined();
    }
  });

  it('when a key longer than every configured key is presented, then none matches and the next key is still found', () => {
    expect(find(`${second}${second}`)).toBeUndefined();
    expect(find(first)).toBe(1);
  });

  it('when the same key is configured twice, then the first position is the answer', () => {
    expect(createApiKeyFinder([first, first])(first)).toBe(1);
  });

  it('when keys hold characters beyond ASCII, then they are compared by their UTF-8 bytes', () => {
    const findWide = createApiKeyFinder(['clé-de-service-0123456789', 'ключ-сервиса-0123456789']);
    expect(findWide('ключ-сервиса-0123456789')).toBe(2);
    expect(findWide('clé-de-service-0123456789')).toBe(1);
    expect(findWide('cle-de-service-0123456789')).toBeUndefined();
    // The same number of characters, one byte fewer.
    expect(findWide('clé-de-service-012345678')).toBeUndefined();
  });

  it('when no key is configured, then nothing matches', () => {
    expect(createApiKeyFinder([])('anything-at-all-0123')).toBeUndefined();
    expect(createApiKeyCheck([])('')).toBe(false);
  });

  it('when checked through createApiKeyCheck, then a configured key passes and any other fails', () => {
    const check = createApiKeyCheck([first]);
    expect([check(first), check(second), check(first.toUpperCase())]).toEqual([true, false, false]);
  });
});
