import { setFlagsFromString } from 'node:v8';

/**
 * V8's heap as the service sizes it, for the cluster primary, its workers and a process serving by
 * itself alike (docs/operating.md, "Memory").
 *
 * - The young generation keeps its initial 1 MB semi-spaces while the process starts, instead of
 *   growing to 16 MB (64 MB on Node 24) as compiling the contract's validators makes it grow. V8
 *   reads `--max-semi-space-size` only when it creates the heap; `--semi-space-growth-factor` is
 *   read at each scavenge, so holding it at 1 keeps the semi-spaces as they are.
 * - Once the process serves (releaseYoungGeneration), a young generation node was given a cap for
 *   (`npm start` runs `node --max-semi-space-size=8`) may grow to it under load: at 1 MB, 50
 *   requests in flight keep a scavenge's survivors near the semi-space's size, and the collector
 *   took a quarter of a read's CPU. Without a cap it stays at 1 MB.
 * - After each full collection the old generation may grow by half of what survived (a factor of
 *   1.5): V8's own factor reaches 4 on a machine with memory to spare, and under load the heap
 *   filled with garbage up to that before it was collected. Growing by as much as survived saved a
 *   list or a create about 3 % of its CPU under load for about 13 MB more at the peak.
 *
 * A process started with a semi-space flag other than the cap, or a heap-growing flag, keeps it
 * (`node --min-semi-space-size=16 dist/process/server.js`); cluster workers inherit the primary's.
 */
export const HEAP_FLAGS = {
  youngGeneration: { flag: '--semi-space-growth-factor=1', unlessGiven: ['--min-semi-space-size', '--semi-space-growth-factor'] },
  oldGeneration: { flag: '--heap-growing-percent=50', unlessGiven: ['--heap-growing-percent'] },
} as const;

/** The cap `npm start` gives the young generation's semi-spaces, in MB, and V8's own growth factor up to it. */
const YOUNG_CAP = '--max-semi-space-size';
const V8_YOUNG_GROWTH = '--semi-space-growth-factor=2';

const flagNames = (execArgv: readonly string[]) => execArgv.map((arg) => arg.split('=')[0]?.replaceAll('_', '-'));

/** Applies HEAP_FLAGS the process was not started with; answers with the flags it set. Must run before the app loads. */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv, apply: (flag: string) => void = setFlagsFromString): string[] {
  const names = flagNames(execArgv);
  const given = (name: string) => names.includes(name);
  const applied: string[] = [];
  for (const { flag, unlessGiven } of Object.values(HEAP_FLAGS)) {
    if (unlessGiven.some(given)) continue;
    apply(flag);
    applied.push(flag);
  }
  return applied;
}

/**
 * Called once the process serves: with a cap given at start (and the young generation held by
 * limitHeapGrowth), the semi-spaces may grow to it again. Answers whether they may.
 */
export function releaseYoungGeneration(execArgv: readonly string[] = process.execArgv, apply: (flag: string) => void = setFlagsFromString): boolean {
  const names = flagNames(execArgv);
  if (!names.includes(YOUNG_CAP) || HEAP_FLAGS.youngGeneration.unlessGiven.some((name) => names.includes(name))) return false;
  apply(V8_YOUNG_GROWTH);
  return true;
}
