import { webcrypto } from 'node:crypto';
import { randomKey } from '../../src/client/random-key';

/** RFC 9562 section 5.4: version 4 in the 13th hex digit, the variant (10xx) in the 17th. */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('randomKey()', () => {
  const original = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
  /** What a page served over plain HTTP on another host than localhost has: getRandomValues alone. */
  const withoutRandomUuid = (getRandomValues: (array: Uint8Array) => Uint8Array = (array) => webcrypto.getRandomValues(array)): void => {
    Object.defineProperty(globalThis, 'crypto', { value: { getRandomValues }, configurable: true, writable: true });
  };
  afterEach(() => {
    if (original) Object.defineProperty(globalThis, 'crypto', original);
  });

  it('when crypto.randomUUID is missing, then it still answers RFC 9562 version 4 UUIDs, distinct on every call', () => {
    withoutRandomUuid();
    expect(typeof (globalThis.crypto as Partial<Crypto>).randomUUID).toBe('undefined');
    const keys = Array.from({ length: 500 }, () => randomKey());
    for (const key of keys) expect(key).toMatch(UUID_V4);
    expect(new Set(keys).size).toBe(keys.length);
    // All four variant digits come up: the two random bits of byte 8 are kept, not overwritten.
    expect(new Set(keys.map((key) => key[19]))).toEqual(new Set(['8', '9', 'a', 'b']));
  });

  it('when the random bytes are all ones or all zeros, then only the version and variant bits are forced', () => {
    withoutRandomUuid((array) => array.fill(0xff));
    expect(randomKey()).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    withoutRandomUuid((array) => array.fill(0));
    expect(randomKey()).toBe('00000000-0000-4000-8000-000000000000');
  });

  it('when crypto.randomUUID exists, then its UUID is the key', () => {
    const uuid = '0b5f4c2e-2a4d-4d7a-9c1e-3f6a8b9c0d1e';
    const notToBeUsed = (): never => {
      throw new Error('not to be used');
    };
    Object.defineProperty(globalThis, 'crypto', { value: { randomUUID: () => uuid, getRandomValues: notToBeUsed }, configurable: true, writable: true });
    expect(randomKey()).toBe(uuid);
    if (original) Object.defineProperty(globalThis, 'crypto', original);
    expect(randomKey()).toMatch(UUID_V4);
  });
});
