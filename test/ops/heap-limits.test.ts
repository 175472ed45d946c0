import { HEAP_FLAGS, limitHeapGrowth, releaseYoungGeneration } from '../../src/process/heap-limits';

describe('the heap flags the service starts with', () => {
  const applied = (execArgv: string[]) => {
    const set: string[] = [];
    expect(limitHeapGrowth(execArgv, (flag) => set.push(flag))).toEqual(set);
    return set;
  };

  it('when node was started without heap flags, then the young generation keeps its initial size and the old one grows by at most what survives', () => {
    expect(applied([])).toEqual(['--semi-space-growth-factor=1', '--heap-growing-percent=50']);
    expect(applied(['--enable-source-maps', '--cpu-prof'])).toEqual([HEAP_FLAGS.youngGeneration.flag, HEAP_FLAGS.oldGeneration.flag]);
  });

  it('when node was started with its own semi-space flag other than a cap, in either spelling, then the young generation is left to it', () => {
    expect(applied(['--min-semi-space-size=16'])).toEqual([HEAP_FLAGS.oldGeneration.flag]);
    expect(applied(['--min_semi_space_size=16'])).toEqual([HEAP_FLAGS.oldGeneration.flag]);
    expect(applied(['--semi-space-growth-factor=2'])).toEqual([HEAP_FLAGS.oldGeneration.flag]);
  });

  it('when node was started with a cap on the semi-spaces (as npm start does), then they are held while the process starts and may grow to the cap once it serves', () => {
    const released: string[] = [];
    expect(applied(['--max-semi-space-size=4'])).toEqual([HEAP_FLAGS.youngGeneration.flag, HEAP_FLAGS.oldGeneration.flag]);
    expect(releaseYoungGeneration(['--max-semi-space-size=4'], (flag) => released.push(flag))).toBe(true);
    expect(released).toEqual(['--semi-space-growth-factor=2']);
  });

  it('when node was started without a cap, or with its own growth factor, then the young generation is not released', () => {
    const released: string[] = [];
    expect(releaseYoungGeneration([], (flag) => released.push(flag))).toBe(false);
    expect(releaseYoungGeneration(['--max_semi_space_size=4', '--semi-space-growth-factor=3'], (flag) => released.push(flag))).toBe(false);
    expect(releaseYoungGeneration(['--max-semi-space-size=4', '--min-semi-space-size=2'], (flag) => released.push(flag))).toBe(false);
    expect(released).toEqual([]);
  });

  it('when node was started with its own heap growing factor, then the old generation is left to it', () => {
    expect(applied(['--heap-growing-percent=100'])).toEqual([HEAP_FLAGS.youngGeneration.flag]);
    expect(applied(['--heap-growing-percent=100', '--min-semi-space-size=4'])).toEqual([]);
  });
});
