import { setFlagsFromString } from 'node:v8';

/**
 * V8's heap as the service sizes it, for the cluster primary, its workers and a process serving by
 * itself alike (docs/operating.md, "Memory").
 *
 * - The young generation keeps its initial 1 MB semi-spaces instead of growing to 16 MB (64 MB on
 *   Node 24). V8 reads `--max-semi-space-size` only when it creates the heap;
 *   `--semi-space-growth-factor=1` is read at each scavenge, and keeps the semi-spaces as they are.
 * - After each full collection the old generation may grow by half of what survived: V8's own
 *   factor reaches 4 on a machine with memory to spare, and under load the heap filled with
 *   garbage up to that before it was collected.
 *
 * On `npm run bench` these took one process from about 108 to 88 MB once ready and from 220 to 400
 * MB at its peak to about 130 MB, for 5 to 14 % more CPU per request (medians of three runs). A
 * process started with its own semi-space or heap-growing flag (`node --max-semi-space-size=16
 * dist/process/server.js`; workers inherit the primary's flags) keeps it.
 */
export const HEAP_FLAGS = {
  youngGeneration: { flag: '--semi-space-growth-factor=1', unlessGiven: ['--max-semi-space-size', '--min-semi-space-size', '--semi-space-growth-factor'] },
  oldGeneration: { flag: '--heap-growing-percent=50', unlessGiven: ['--heap-growing-percent'] },
} as const;

/** Applies HEAP_FLAGS the process was not started with; answers with the flags it set. Must run before the app loads. */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv, apply: (flag: string) => void = setFlagsFromString): string[] {
  const names = execArgv.map((arg) => arg.split('=')[0]?.replaceAll('_', '-'));
  const given = (name: string) => names.includes(name);
  const applied: string[] = [];
  for (const { flag, unlessGiven } of Object.values(HEAP_FLAGS)) {
    if (unlessGiven.some(given)) continue;
    apply(flag);
    applied.push(flag);
  }
  return applied;
}
