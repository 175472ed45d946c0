/**
 * The attempts suite of `npm run bench`: what recording attempts, log lines and usage costs the
 * lease loop.
 *
 * Three variants of the work loop (scripts/bench/work-loop.ts: producers queue, workers claim,
 * extend the lease once with a heartbeat, and succeed), each on a fresh database of each kind:
 * - `baseline`: a build of the last commit before attempts were recorded (by default the parent
 *   of the commit that added migration 011), built from its own sources into .bench/ and sharing
 *   this checkout's node_modules (every package its lock file names must be locked the same here);
 * - `plain`: the service as it is, the same loop (every lease records its attempt now, always);
 * - `logged`: the service as it is, each task also appending `logLines` log lines through its
 *   lease in batches of `logBatch` (100: one batch, as the typed client's worker sends them), and
 *   its heartbeat and outcome each reporting usage;
 * - `usage` (only when asked for, `--attempts-variants`): usage on the heartbeat and the outcome,
 *   no log lines, which splits `logged`'s cost between the two.
 * Rounds are interleaved, the order rotating. The report gives each variant's median tasks/s, the
 * ratios of the medians, and the change within each round (its runs back to back), and marks the
 * target: `logged` at most 10 % below `baseline`.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildBaseline, git } from './apps';
import { assertPackagesCovered, currentBuild, DISTURBED_CORES, fixed, median, paired, percent, quantile, runLoopRounds, type LoopMeasurement } from './loop-rounds';
import type { WorkLoopConfig, WorkLoopOptions, WorkLoopResult } from './work-loop';

export interface AttemptsOptions {
  /** A git revision to compare with; empty: the parent of the commit that added migration 011. */
  baseline?: string;
  /**
   * A git revision to measure as the service as it is, built like the baseline, instead of the
   * checkout (whose sources others may be editing while the bench runs).
   */
  current?: string;
  rounds: number;
  /** Log lines per task in the `logged` variant, and lines per request. */
  logLines: number;
  logBatch: number;
  /** Which variants run (baseline, plain, usage, logged); the target needs baseline and logged. */
  variants: AttemptsVariant[];
  /**
   * Before each run, wait (at most `quietWaitS` seconds) until the rest of the machine keeps fewer
   * than this many cores busy: on a shared machine another program's load halves the loop's rate.
   */
  quietCores: number;
  quietWaitS: number;
  /** The loop's load, its durations and the databases (`configs`: sqlite, pg, their -2w). */
  work: WorkLoopOptions;
}

export type AttemptsVariant = 'baseline' | 'plain' | 'usage' | 'logged';
export const ATTEMPTS_VARIANTS: AttemptsVariant[] = ['baseline', 'plain', 'usage', 'logged'];

export type AttemptsMeasurement = LoopMeasurement<AttemptsVariant>;

export interface AttemptsReport {
  baseline: string;
  current: string;
  measurements: AttemptsMeasurement[];
  seconds: number;
}

/** The target: with every lease recording its attempt, and each task logging and reporting usage, the loop at most this much slower than before. */
export const MAX_SLOWDOWN = 0.1;

/** The revision before attempts were recorded: the parent of the commit that added migration 011. */
function defaultBaseline(): string {
  const added = git('log', '--diff-filter=A', '--format=%H', '-1', '--', 'src/data/migrations/011-attempts-logs-usage.ts');
  if (!added) throw new Error('no commit adds src/data/migrations/011-attempts-logs-usage.ts: pass --baseline=<revision>');
  return `${added}^`;
}

function loopOptions(variant: AttemptsVariant, options: AttemptsOptions): WorkLoopOptions {
  const logged = variant === 'logged';
  return { ...options.work, heartbeat: true, logLines: logged ? options.logLines : 0, logBatch: options.logBatch, usage: logged || variant === 'usage' };
}

export async function runAttemptsSuite(options: AttemptsOptions, benchDir: string): Promise<{ report: AttemptsReport; failed: boolean }> {
  const started = performance.now();
  const revision = options.baseline || defaultBaseline();
  assertPackagesCovered(revision);
  const baseline = buildBaseline(revision, benchDir);
  const current = currentBuild(options.current, benchDir);
  const variants = options.variants;
  console.log(`bench: attempts suite; baseline ${baseline.commit}, current ${current.name}; ${options.rounds} rounds of ${variants.join(', ')} on ${options.work.configs.join(', ')}`);
  const runDir = path.join(benchDir, `attempts-${Date.now()}`);
  mkdirSync(runDir, { recursive: true });
  let measurements: AttemptsMeasurement[];
  try {
    measurements = await runLoopRounds({
      suite: 'attempts',
      rounds: options.rounds,
      configs: options.work.configs as WorkLoopConfig[],
      variants,
      quietCores: options.quietCores,
      quietWaitS: options.quietWaitS,
      repeats: 2,
      runDir,
      loopOf: (variant) => ({ options: loopOptions(variant, options), root: variant === 'baseline' ? baseline.root : current.root }),
    });
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
  const failed = measurements.some((m) => m.result.problems.length > 0);
  return { report: { baseline: baseline.commit, current: current.name, measurements, seconds: (performance.now() - started) / 1000 }, failed };
}

export function renderAttempts(report: AttemptsReport, options: AttemptsOptions): string {
  const configs = [...new Set(report.measurements.map((m) => m.result.config))];
  const lines = [
    '## Attempts, logs and usage on the lease loop',
    '',
    `Baseline ${report.baseline}; current ${report.current}. ${Math.max(0, ...report.measurements.map((m) => m.round))} interleaved rounds (the order rotating), medians. Each variant: ${options.work.workers} workers and ${options.work.producers} producers over HTTP, ${options.work.agents} agent(s), backlog ${options.work.backlog}, ${options.work.warmupS} s warm-up + ${options.work.durationS} s measured, a fresh database per run; each task claimed, extended once (heartbeat), succeeded. \`logged\`: each task also appends ${options.logLines} log lines in batches of ${options.logBatch} through its lease, and its heartbeat and outcome report usage.`,
    '',
    '| Database | Baseline tasks/s (range) | Plain: attempts recorded | Logged: + log lines and usage | Plain / baseline | Logged / plain | Logged / baseline (target ≥ 0.90) | Within a round, logged / baseline: median (range) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const details: string[] = [
    '| Database | Variant | Tasks/s | CPU µs per task: service | load generator | PostgreSQL backends | sum | Claim p99 (ms) | Heartbeat p99 | Log batch p99 | Completion p99 | Other load (cores) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const verdicts: string[] = [];
  const stepLines: string[] = [];
  for (const config of configs) {
    const of = (variant: AttemptsVariant) => report.measurements.filter((m) => m.result.config === config && m.variant === variant);
    const rate = (variant: AttemptsVariant) => median(of(variant).map((m) => m.result.succeededPerSecond));
    const cpu = (variant: AttemptsVariant) => median(of(variant).map((m) => m.result.cpuMicrosPerTask));
    const range = (variant: AttemptsVariant) => {
      const rates = of(variant).map((m) => m.result.succeededPerSecond);
      return `${fixed(rate(variant), 0)} (${fixed(Math.min(...rates), 0)}–${fixed(Math.max(...rates), 0)})`;
    };
    const together = rate('logged') / rate('baseline');
    const pairs = paired(of, 'logged', 'baseline');
    const pairText = pairs.length > 0 ? `${percent(median(pairs))} (${percent(Math.min(...pairs))} to ${percent(Math.max(...pairs))})` : 'n/a';
    const met = Number.isFinite(together) ? together >= 1 - MAX_SLOWDOWN : undefined;
    lines.push(
      `| ${config} | ${range('baseline')} | ${range('plain')} | ${range('logged')} | ${fixed(rate('plain') / rate('baseline'), 2)} | ${fixed(rate('logged') / rate('plain'), 2)} | **${fixed(together, 2)}** (${met === undefined ? 'not measured' : met ? 'met' : 'missed'}) | ${pairText} |`,
    );
    for (const variant of ATTEMPTS_VARIANTS) {
      const runs = of(variant);
      if (runs.length === 0) continue;
      const figure = (pick: (r: WorkLoopResult) => number | undefined) => median(runs.map((m) => pick(m.result) ?? Number.NaN).filter(Number.isFinite));
      const service = cpu(variant);
      const generator = figure((r) => r.generatorCpuMicrosPerTask);
      const database = figure((r) => r.databaseCpuMicrosPerTask);
      const sum = service + (Number.isFinite(generator) ? generator : 0) + (Number.isFinite(database) ? database : 0);
      details.push(
        `| ${config} | ${variant} | ${fixed(rate(variant), 0)} | ${fixed(service, 0)} | ${fixed(generator, 0)} | ${fixed(database, 0)} | ${fixed(sum, 0)} | ${fixed(figure((r) => r.claimP99Ms), 1)} | ${fixed(figure((r) => r.heartbeatP99Ms), 1)} | ${fixed(figure((r) => r.logBatchP99Ms), 1)} | ${fixed(figure((r) => r.completeP99Ms), 1)} | ${fixed(figure((r) => r.otherCores), 2)} |`,
      );
    }
    // Each variant against the one before it (baseline, plain, usage, logged), within each round.
    const present = ATTEMPTS_VARIANTS.filter((variant) => of(variant).length > 0);
    const steps = present.slice(1).map((variant, index) => {
      const ratios = paired(of, variant, present[index] as AttemptsVariant);
      return `${variant} / ${present[index]} ${fixed(median(ratios), 2)} (${fixed(Math.min(...ratios), 2)}–${fixed(Math.max(...ratios), 2)})`;
    });
    stepLines.push(`- ${config}: ${steps.join('; ')}`);
    verdicts.push(`- **${met === undefined ? 'not measured' : met ? 'met' : 'missed'}**: ${config}: the lease loop with attempts, ${options.logLines} log lines and usage per task at most ${MAX_SLOWDOWN * 100} % below the baseline: ${fixed(together, 2)}× (${fixed(rate('logged'), 0)} against ${fixed(rate('baseline'), 0)} tasks/s; within a round ${pairText})`);
  }
  const loads = report.measurements.map((m) => m.load1);
  const others = report.measurements.map((m) => m.result.otherCores ?? Number.NaN).filter(Number.isFinite);
  const disturbed = report.measurements.filter((m) => (m.result.otherCores ?? 0) >= DISTURBED_CORES);
  const repeated = report.measurements.reduce((sum, m) => sum + m.repeated, 0);
  const waited = report.measurements.reduce((sum, m) => sum + m.waitedS, 0);
  const problems = report.measurements.flatMap((m) => m.result.problems.map((p) => `round ${m.round} ${m.result.config} ${m.variant}: ${p}`));
  lines.push(
    '',
    'Step by step, within each round (median and range of the rounds\' ratios):',
    '',
    ...stepLines,
    '',
    `Medians by variant (CPU from /proc over the measured window: the service's process tree, this process, and for PostgreSQL the server's backends connected to the run's database; on 2 cores the loop's rate follows their sum):`,
    '',
    ...details,
    '',
    'Targets:',
    '',
    ...verdicts,
    '',
    `Load average (1 min) after each run: median ${fixed(median(loads), 2)}, ${fixed(quantile(loads, 0), 2)}–${fixed(quantile(loads, 1), 2)}. Other load during the windows (cores kept busy by everything but the service, the load generator and the run's PostgreSQL backends): median ${fixed(median(others), 2)}, at most ${fixed(quantile(others, 1), 2)}; ${repeated} run(s) made again for other load of ${DISTURBED_CORES} cores or more; ${disturbed.length === 0 ? `no run kept above ${DISTURBED_CORES}` : `kept above ${DISTURBED_CORES} after two repeats in ${disturbed.map((m) => `round ${m.round} ${m.result.config} ${m.variant} (${fixed(m.result.otherCores ?? Number.NaN, 2)})`).join(', ')}`}. Waited ${fixed(waited, 0)} s in all for the machine to be quiet (under ${options.quietCores} cores busy) before runs. The suite took ${fixed(report.seconds / 60, 1)} min.`,
    ...(problems.length > 0 ? ['', `Problems: ${problems.join('; ')}`] : []),
    '',
  );
  return lines.join('\n');
}
