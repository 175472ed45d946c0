import { memoizeBounded } from '../../src/http/memoize';

describe('memoizeBounded', () => {
  it('when a key is asked again, then the kept answer is given without computing it again', () => {
    const asked: string[] = [];
    const lengthOf = memoizeBounded(2, (key) => (asked.push(key), key.length));
    expect([lengthOf('ab'), lengthOf('ab'), lengthOf('abc')]).toEqual([2, 2, 3]);
    expect(asked).toEqual(['ab', 'abc']);
  });

  it('when more keys are asked than it keeps, then the oldest is computed again and memory stays bounded', () => {
    const asked: string[] = [];
    const upper = memoizeBounded(2, (key) => (asked.push(key), key.toUpperCase()));
    for (const key of ['a', 'b', 'c', 'a', 'c']) upper(key);
    expect(asked).toEqual(['a', 'b', 'c', 'a']);
  });
});
