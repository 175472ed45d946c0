import { HEAP_FLAGS, limitHeapGrowth } from '../../src/process/heap-limits';

describe('the heap flags the service starts with', () => {
  const applied = (execArgv: string[]) => {
    const set: string[] = [];
    expect(limitHeapGrowth(execArgv, (flag) => set.push(flag))).toEqual(set);
    return set;
  };

  it('when node was started without heap flags, then the young generation keeps its initial size and the old one grows by half of what survives', () => {
    expect(applied([])).toEqual(['--semi-space-growth-factor=1', '--heap-growing-percent=50']);
    expect(applied(['--enable-source-maps', '--cpu-prof'])).toEqual([HEAP_FLAGS.youngGeneration.flag, HEAP_FLAGS.oldGeneration.flag]);
  });

  it('when node was started with its own semi-space flag, in either spelling, then the young generation is left to it', () => {
    expect(applied(['--max-semi-space-size=16'])).toEqual([HEAP_FLAGS.oldGeneration.flag]);
    expect(applied(['--max_semi_space_size=16'])).toEqual([HEAP_FLAGS.oldGeneration.flag]);
    expect(applied(['--semi-space-growth-factor=2'])).toEqual([HEAP_FLAGS.oldGeneration.flag]);
  });

  it('when node was started with its own heap growing factor, then the old generation is left to it', () => {
    expect(applied(['--heap-growing-percent=100'])).toEqual([HEAP_FLAGS.youngGeneration.flag]);
    expect(applied(['--heap-growing-percent=100', '--min-semi-space-size=4'])).toEqual([]);
  });
});
