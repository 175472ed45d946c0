/**
 * What the suites that compare builds on the lease loop (attempts, steering) share: the revisions
 * they build, interleaved rounds on a quiet machine, and the figures they report.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildBaseline, git, ROOT } from './apps';
import { machineBusyCores } from './process-tree';
import { runWorkLoop, type WorkLoopConfig, type WorkLoopOptions, type WorkLoopResult } from './work-loop';

export interface LoopMeasurement<V extends string> {
  round: number;
  variant: V;
  result: WorkLoopResult;
  /** The 1-minute load average right after the run. */
  load1: number;
  /** Seconds waited for the machine to be quiet before the run. */
  waitedS: number;
  /** Times the run was made again because other load disturbed it. */
  repeated: number;
}

/** A run during which the rest of the machine kept this many cores busy is made again. */
export const DISTURBED_CORES = 0.25;

/** Waits until the machine (nothing of the bench's running) keeps fewer than `cores` busy over 2 s, at most `maxS` seconds; answers the seconds waited. */
export async function waitForQuiet(cores: number, maxS: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const busy = await machineBusyCores(2000);
    const waited = (performance.now() - started) / 1000;
    if (busy < cores) return waited;
    if (waited >= maxS) {
      console.log(`bench: the machine kept ${busy.toFixed(2)} cores busy for ${maxS} s; running anyway`);
      return waited;
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
}

/**
 * A build of another revision runs on this checkout's node_modules: honest when every package the
 * revision's lock file names is locked here at the same version (a newer commit may add packages).
 */
export function assertPackagesCovered(revision: string): void {
  const sha = git('rev-parse', '--verify', `${revision}^{commit}`);
  type Lock = { packages?: Record<string, { version?: string; integrity?: string }> };
  const then = (JSON.parse(git('show', `${sha}:package-lock.json`)) as Lock).packages ?? {};
  const here = (JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as Lock).packages ?? {};
  const differing = Object.entries(then)
    .filter(([name, entry]) => name !== '' && (here[name]?.version !== entry.version || here[name]?.integrity !== entry.integrity))
    .map(([name]) => name);
  if (differing.length > 0) {
    throw new Error(`${sha.slice(0, 7)} locks ${differing.length} package(s) otherwise than the checkout (${differing.slice(0, 5).join(', ')}): build it with its own packages (git worktree add, npm ci)`);
  }
}

/**
 * What a suite measures as the service as it is: `revision` built apart into .bench/ like a
 * baseline (its `root`), or, without one, the checkout (whose sources others may be editing).
 */
export function currentBuild(revision: string | undefined, benchDir: string): { name: string; root?: string } {
  if (!revision) {
    const edited = git('status', '--porcelain', '--', 'src', 'api.yaml').length > 0 ? ' with uncommitted changes to src/ or api.yaml' : '';
    return { name: `the checkout, ${git('rev-parse', '--short', 'HEAD')} (${git('rev-parse', '--abbrev-ref', 'HEAD')})${edited}` };
  }
  assertPackagesCovered(revision);
  const built = buildBaseline(revision, benchDir);
  return { name: built.commit, root: built.root };
}

export interface LoopRounds<V extends string> {
  /** The suite's name in its log lines. */
  suite: string;
  rounds: number;
  configs: WorkLoopConfig[];
  variants: V[];
  quietCores: number;
  quietWaitS: number;
  /** How many times at most a run that other load disturbed is made again. */
  repeats: number;
  /** Where each run gets a directory of its own. */
  runDir: string;
  /** The loop's options for a variant, and the build it runs (undefined: the checkout). */
  loopOf: (variant: V) => { options: WorkLoopOptions; root?: string };
  /** What else a run's log line says. */
  noteOf?: (result: WorkLoopResult) => string[];
}

/**
 * Every variant on every config, `rounds` times, the order rotating from round to round (which
 * spreads the drift of a shared machine over every variant); each run on a quiet machine, made
 * again when other load disturbed it.
 */
export async function runLoopRounds<V extends string>(plan: LoopRounds<V>): Promise<Array<LoopMeasurement<V>>> {
  const measurements: Array<LoopMeasurement<V>> = [];
  const width = Math.max(...plan.variants.map((variant) => variant.length));
  let runs = 0;
  for (let round = 1; round <= plan.rounds; round++) {
    for (const config of plan.configs) {
      const order = plan.variants.map((_, i) => plan.variants[(i + round - 1) % plan.variants.length] as V);
      for (const variant of order) {
        // A directory of its own per start: a database the newer build migrated would stop the baseline.
        const dir = path.join(plan.runDir, String(++runs));
        mkdirSync(dir);
        const { options, root } = plan.loopOf(variant);
        let waitedS = 0;
        let result: WorkLoopResult;
        let repeated = 0;
        for (;;) {
          waitedS += await waitForQuiet(plan.quietCores, plan.quietWaitS);
          result = await runWorkLoop(config, options, dir, root);
          if ((result.otherCores ?? 0) < DISTURBED_CORES || repeated >= plan.repeats) break;
          repeated++;
          console.log(`bench: ${plan.suite} round ${round} ${config} ${variant}: other load kept ${(result.otherCores ?? 0).toFixed(2)} cores busy (${result.succeededPerSecond.toFixed(0)} tasks/s); running it again`);
        }
        rmSync(dir, { recursive: true, force: true });
        const load1 = os.loadavg()[0] as number;
        measurements.push({ round, variant, result, load1, waitedS, repeated });
        const notes = plan.noteOf?.(result).filter(Boolean) ?? [];
        console.log(
          `bench: ${plan.suite} round ${round} ${config.padEnd(9)} ${variant.padEnd(width)} ${result.succeededPerSecond.toFixed(0).padStart(5)} tasks/s  ${result.cpuMicrosPerTask.toFixed(0).padStart(5)} µs CPU/task  claim p99 ${result.claimP99Ms.toFixed(1)} ms  load ${load1.toFixed(2)}  other ${(result.otherCores ?? 0).toFixed(2)} cores${notes.length ? `  ${notes.join('; ')}` : ''}${waitedS >= 3 ? `  (waited ${waitedS.toFixed(0)} s for quiet)` : ''}${result.problems.length ? `  PROBLEMS ${result.problems.join('; ')}` : ''}`,
        );
      }
    }
  }
  return measurements;
}

export const quantile = (values: number[], q: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
};

export const median = (values: number[]): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

export const fixed = (value: number | undefined, digits: number) => (value === undefined || !Number.isFinite(value) ? 'n/a' : value.toFixed(digits));
export const percent = (ratio: number) => (Number.isFinite(ratio) ? `${ratio >= 1 ? '+' : '−'}${Math.abs((ratio - 1) * 100).toFixed(1)} %` : 'n/a');

/** Each round's runs ran back to back: the ratio within a round cancels the drift between rounds. */
export function paired<V extends string>(of: (variant: V) => Array<LoopMeasurement<V>>, after: V, before: V): number[] {
  return of(after).flatMap((a) => {
    const b = of(before).find((m) => m.round === a.round);
    return b ? [a.result.succeededPerSecond / b.result.succeededPerSecond] : [];
  });
}
