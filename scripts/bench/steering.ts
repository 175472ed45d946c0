/**
 * The steering suite of `npm run bench`: what per-agent concurrency caps, tasks scheduled ahead
 * (`run_at`) and schedules cost the lease loop, and how late schedules fire.
 *
 * 1. The lease loop (scripts/bench/work-loop.ts, the attempts suite's `plain` load: producers
 *    queue, workers claim, extend the lease once with a heartbeat, and succeed) on a fresh
 *    database per run, in these variants:
 *    - `baseline`: a build of the commit before caps, `run_at` and schedules (c60b5f9 by default,
 *      `--steering-baseline`), built from its own sources into .bench/ and sharing this
 *      checkout's node_modules (every package its lock file names must be locked the same here);
 *      the same load, nothing else (it has neither `max_concurrency` nor `run_at`);
 *    - `plain`: the service as it is, no cap (its schedule poller runs, finding nothing due);
 *    - `capped`: each agent of the loop given `max_concurrency` equal to the workers claiming for
 *      it: the cap is read on every claim and never binds;
 *    - `capped-half`: half of that, so that it binds (information only: fewer tasks run at once);
 *    - `scheduled`: before the warm-up, 10,000 tasks (`--steering-scheduled`) queued through the
 *      API on the loop's agent(s) with `run_at` a day ahead, waiting the whole run.
 *    Rounds are interleaved, the order rotating; before each run the suite waits for the machine
 *    to be quiet and runs again a run that other load disturbed (as the attempts suite does). The
 *    report gives each variant's median tasks/s, the ratios of the medians, and the ratios within
 *    each round, and marks the targets: `capped` and `scheduled` each at most 10 % below `baseline`.
 * 2. Schedule firing: one service process per database (SQLite, PostgreSQL), 1,000 interval
 *    schedules (`overlap` `allow`, so that every firing makes a task) over 20 agents, intervals
 *    of 5 to 10 s, created through the API; after `--steering-fire-seconds` (60) every task a
 *    schedule made is read back through the API and put in the firing slot it belongs to (the
 *    schedule's `created_at` + k × interval, the latest at or before the task's `created_at`).
 *    Lateness is the task's `created_at` less its slot. Every slot up to the end of the window must
 *    have exactly one task: one fired twice, or none (skipped), is a problem. Target: p99 under 1 s.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { buildBaseline, startApp, stopApp, type AppSpec } from './apps';
import { assertPackagesCovered, currentBuild, DISTURBED_CORES, fixed, median, paired, percent, quantile, runLoopRounds, waitForQuiet, type LoopMeasurement } from './loop-rounds';
import { cpuMillisBetween, machineBusyMillis, sampleCpu } from './process-tree';
import { call, createPgDatabase, expectStatus, RAISED_LIMITS, sampleDatabaseCpu, type WorkLoopConfig, type WorkLoopOptions, type WorkLoopResult } from './work-loop';

export type SteeringVariant = 'baseline' | 'plain' | 'capped' | 'capped-half' | 'scheduled';
export const STEERING_VARIANTS: SteeringVariant[] = ['baseline', 'plain', 'capped', 'capped-half', 'scheduled'];

/** The commit before caps, `run_at` and schedules (the parent of the commit that added them to api.yaml). */
export const DEFAULT_STEERING_BASELINE = 'c60b5f9';

export interface FiringOptions {
  /** Schedules in all, over `agents` agents. */
  schedules: number;
  agents: number;
  /** Intervals from min to max seconds, in turn. */
  minIntervalS: number;
  maxIntervalS: number;
  /** Seconds the schedules fire after the last is created; 0: no firing runs. */
  seconds: number;
  /** The databases fired on, one process each. */
  databases: Array<'sqlite' | 'pg'>;
}

export interface SteeringOptions {
  /** A git revision to compare with; empty: c60b5f9. */
  baseline?: string;
  /** A git revision to measure as the service as it is, built like the baseline, instead of the checkout. */
  current?: string;
  rounds: number;
  variants: SteeringVariant[];
  /** Tasks waiting with `run_at` a day ahead in the `scheduled` variant. */
  scheduledTasks: number;
  quietCores: number;
  quietWaitS: number;
  /** How many times at most a run that other load disturbed is made again (2, as the attempts suite; 0 for a short check). */
  repeats: number;
  /** The loop's load, its durations and the databases (`configs`). */
  work: WorkLoopOptions;
  firing: FiringOptions;
}

export type SteeringMeasurement = LoopMeasurement<SteeringVariant>;

export interface FiringResult {
  database: 'sqlite' | 'pg';
  schedules: number;
  agents: number;
  /** Seconds taken to create the schedules through the API. */
  createS: number;
  /** From the first schedule's creation to the end of the window. */
  windowS: number;
  pollMs: number;
  /** Slots due within the window, and the tasks found in them. */
  slots: number;
  tasks: number;
  firingsPerSecond: number;
  latenessP50Ms: number;
  latenessP90Ms: number;
  latenessP99Ms: number;
  latenessMaxMs: number;
  /** Tasks made before the slot they would fill (a slot fired twice, or early), and slots due in the window with none. */
  firedTwice: number;
  skipped: number;
  /** Firings later than their slot by an interval or more (the slots they passed are collapsed, and counted as skipped). */
  beyondInterval: number;
  /** CPU the service's process spent over the window, in cores. */
  serviceCores: number;
  /** PostgreSQL: CPU of the server's backends connected to the run's database, in cores. */
  databaseCores?: number;
  /** Everything else on the machine over the window (another program's load), in cores. */
  otherCores?: number;
  /** Times the run was made again because other load disturbed it. */
  repeated?: number;
  problems: string[];
}

export interface SteeringReport {
  baseline: string;
  current: string;
  measurements: SteeringMeasurement[];
  firings: FiringResult[];
  seconds: number;
}

/** The targets: the loop with a cap that does not bind, and with 10,000 tasks waiting, at most this much slower than before; firings late by less than this at p99. */
export const MAX_SLOWDOWN = 0.1;
export const MAX_LATENESS_P99_MS = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function loopOptions(variant: SteeringVariant, options: SteeringOptions): WorkLoopOptions {
  // The attempts suite's `plain` load: a heartbeat per task, no log lines, no usage.
  const plain: WorkLoopOptions = { ...options.work, heartbeat: true, logLines: 0, usage: false };
  if (variant === 'capped') return { ...plain, capShare: 1 };
  if (variant === 'capped-half') return { ...plain, capShare: 0.5 };
  if (variant === 'scheduled') return { ...plain, scheduledTasks: options.scheduledTasks };
  return plain;
}

export async function runSteeringSuite(options: SteeringOptions, benchDir: string): Promise<{ report: SteeringReport; failed: boolean }> {
  const started = performance.now();
  const revision = options.baseline || DEFAULT_STEERING_BASELINE;
  const variants = options.variants;
  if (variants.includes('baseline')) assertPackagesCovered(revision);
  const baseline = variants.includes('baseline') ? buildBaseline(revision, benchDir) : undefined;
  const current = currentBuild(options.current, benchDir);
  console.log(
    `bench: steering suite; baseline ${baseline?.commit ?? `${revision} (not run)`}, current ${current.name}; ${options.rounds} rounds of ${variants.join(', ')} on ${options.work.configs.join(', ')}; then ${options.firing.seconds > 0 ? `${options.firing.schedules} schedules firing for ${options.firing.seconds} s on ${options.firing.databases.join(', ')}` : 'no firing run'}`,
  );
  const runDir = path.join(benchDir, `steering-${Date.now()}`);
  mkdirSync(runDir, { recursive: true });
  let measurements: SteeringMeasurement[] = [];
  const firings: FiringResult[] = [];
  try {
    measurements = await runLoopRounds({
      suite: 'steering',
      rounds: options.rounds,
      configs: options.work.configs as WorkLoopConfig[],
      variants,
      quietCores: options.quietCores,
      quietWaitS: options.quietWaitS,
      repeats: options.repeats,
      runDir,
      loopOf: (variant) => ({ options: loopOptions(variant, options), root: variant === 'baseline' ? baseline?.root : current.root }),
      noteOf: (result) => [
        result.caps ? `cap ${result.caps.join('/')}, held at most ${result.maxHeldAtOnce ?? 'n/a'}` : '',
        result.scheduledSetupS !== undefined ? `${result.scheduledWaiting ?? 0} waiting (queued in ${result.scheduledSetupS.toFixed(1)} s)` : '',
      ],
    });
    if (options.firing.seconds > 0) {
      for (const database of options.firing.databases) {
        const dir = path.join(runDir, `firing-${database}`);
        mkdirSync(dir);
        let firing: FiringResult;
        let repeated = 0;
        // As the loop's runs: one other load disturbed is made again, on a fresh database, once the machine is quiet.
        for (;;) {
          await waitForQuiet(options.quietCores, options.quietWaitS);
          firing = await runFiring(database, options, dir, current.root);
          rmSync(dir, { recursive: true, force: true });
          if ((firing.otherCores ?? 0) < DISTURBED_CORES || repeated >= options.repeats) break;
          repeated++;
          mkdirSync(dir);
          console.log(`bench: steering firing ${database}: other load kept ${(firing.otherCores ?? 0).toFixed(2)} cores busy (lateness p99 ${firing.latenessP99Ms.toFixed(0)} ms); running it again`);
        }
        firing.repeated = repeated;
        firings.push(firing);
        console.log(
          `bench: steering firing ${database.padEnd(6)} ${firing.tasks} tasks in ${firing.slots} slots over ${firing.windowS.toFixed(0)} s (${firing.firingsPerSecond.toFixed(0)}/s)  lateness p50 ${firing.latenessP50Ms.toFixed(0)} ms  p99 ${firing.latenessP99Ms.toFixed(0)} ms  max ${firing.latenessMaxMs.toFixed(0)} ms  fired twice ${firing.firedTwice}  skipped ${firing.skipped}  service ${firing.serviceCores.toFixed(2)} cores${firing.problems.length ? `  PROBLEMS ${firing.problems.join('; ')}` : ''}`,
        );
      }
    }
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
  const failed = measurements.some((m) => m.result.problems.length > 0) || firings.some((f) => f.problems.length > 0);
  return { report: { baseline: baseline?.commit ?? `${revision} (not run)`, current: current.name, measurements, firings, seconds: (performance.now() - started) / 1000 }, failed };
}

export interface CreatedSchedule {
  id: string;
  createdMs: number;
  periodMs: number;
}

/**
 * Each schedule's tasks in order, each in the slot that was the schedule's next_run_at when it
 * fired: the first created_at + interval, then the first slot after the firing before. A firing
 * happens at or after its slot and before its task's created_at; while it is later than its slot
 * by less than an interval, the next slot is the one after its own, which is what this takes
 * (the slot at or before the task's creation). A firing later than that collapses the slots it
 * passed (caught up once): they count as skipped.
 */
export function placeInSlots(schedules: CreatedSchedule[], bySchedule: Map<string, number[]>, cutoffMs: number): { lateness: number[]; slots: number; skipped: number; firedTwice: number; beyondInterval: number } {
  const lateness: number[] = [];
  let slots = 0;
  let skipped = 0;
  let firedTwice = 0;
  let beyondInterval = 0;
  for (const schedule of schedules) {
    const { createdMs, periodMs } = schedule;
    const due = Math.max(0, Math.floor((cutoffMs - createdMs) / periodMs));
    slots += due;
    let slot = createdMs + periodMs;
    let previous = Number.NEGATIVE_INFINITY;
    let exact = true;
    let filled = 0;
    for (const taskMs of (bySchedule.get(schedule.id) ?? []).sort((a, b) => a - b)) {
      if (taskMs < slot) {
        // After a firing late by an interval or more, its slot's successor is only known to lie
        // between the two: the latest slot at or before this task, if it is after the one before.
        const latest = createdMs + Math.floor((taskMs - createdMs) / periodMs) * periodMs;
        if (exact || latest <= previous) {
          // Made before the slot it would fill: a second task for the slot before (or one fired early).
          firedTwice++;
          continue;
        }
        slot = latest;
      }
      if (slot <= cutoffMs) {
        lateness.push(taskMs - slot);
        filled++;
        if (taskMs - slot >= periodMs) beyondInterval++;
      }
      exact = taskMs - slot < periodMs;
      previous = slot;
      slot = createdMs + (Math.floor((taskMs - createdMs) / periodMs) + 1) * periodMs;
    }
    skipped += due - filled;
  }
  return { lateness, slots, skipped, firedTwice, beyondInterval };
}

/** One process on a fresh database: the schedules created through the API, left to fire, then every task they made read back. */
async function runFiring(database: 'sqlite' | 'pg', options: SteeringOptions, dir: string, root?: string): Promise<FiringResult> {
  const { schedules: count, agents: agentCount, minIntervalS, maxIntervalS, seconds } = options.firing;
  const serviceKey = `bench-${randomBytes(16).toString('hex')}`;
  const spec: AppSpec = { name: 'service', description: `schedule firing, ${database}`, service: {} };
  const pg = database === 'pg' ? await createPgDatabase(options.work.pgUrl) : undefined;
  // The service's own default unless the bench's environment names another.
  const pollMs = Number(process.env.SCHEDULE_POLL_MS || 250);
  const app = await startApp(spec, { dir, apiKey: serviceKey, databaseUrl: pg?.url, env: { ...RAISED_LIMITS, LOG_LEVEL: 'warn', SCHEDULE_POLL_MS: String(pollMs) }, root });
  const problems: string[] = [];
  try {
    const base = `http://127.0.0.1:${app.port}`;
    const agents: string[] = [];
    for (let n = 0; n < agentCount; n++) {
      const agent = await call(base, 'POST', '/api/v1/agents', serviceKey, { name: `bench-firing-agent-${n}`, type: 'type_a' });
      expectStatus('creating an agent', agent, 201);
      agents.push((agent.json as { data: { id: string } }).data.id);
    }
    const schedules = new Map<string, CreatedSchedule>();
    const span = maxIntervalS - minIntervalS + 1;
    let next = 0;
    const createStarted = performance.now();
    const firstCreatedMs = Date.now();
    const create = async () => {
      while (next < count) {
        const n = next++;
        const interval = minIntervalS + (n % span);
        const res = await call(base, 'POST', `/api/v1/agents/${agents[n % agents.length]}/schedules`, serviceKey, {
          name: `bench schedule ${n}`,
          interval_seconds: interval,
          overlap: 'allow',
          template: { title: `bench scheduled ${n}`, input: { n } },
        });
        expectStatus('creating a schedule', res, 201);
        const made = (res.json as { data: { id: string; created_at: string; next_run_at: string | null; interval_seconds: number } }).data;
        const createdMs = Date.parse(made.created_at);
        if (made.next_run_at === null || Date.parse(made.next_run_at) !== createdMs + interval * 1000) {
          problems.push(`schedule ${made.id}: next_run_at ${String(made.next_run_at)} is not created_at ${made.created_at} + ${interval} s`);
        }
        schedules.set(made.id, { id: made.id, createdMs, periodMs: interval * 1000 });
      }
    };
    await Promise.all(Array.from({ length: 8 }, create));
    const createS = (performance.now() - createStarted) / 1000;
    // The window: from the end of the creation, `seconds` of firing measured for CPU; lateness counts every slot up to its end.
    const cpuBefore = sampleCpu(app.pid);
    const databaseBefore = pg ? await sampleDatabaseCpu(options.work.pgUrl, pg.name) : undefined;
    const machineBefore = machineBusyMillis();
    const windowStarted = performance.now();
    await sleep(seconds * 1000);
    const cutoffMs = Date.now();
    const windowMillis = performance.now() - windowStarted;
    const serviceMillis = cpuMillisBetween(cpuBefore, sampleCpu(app.pid));
    const machineMillis = machineBusyMillis() - machineBefore;
    const databaseMillis = pg && databaseBefore ? cpuMillisBetween(databaseBefore, await sampleDatabaseCpu(options.work.pgUrl, pg.name)) : undefined;
    // A slot due just before the end is given time to fire before the tasks are read.
    await sleep(3000);
    const tasks: Array<{ id: string; createdMs: number; scheduleId: string }> = [];
    for (const agentId of agents) {
      let cursor: string | undefined;
      do {
        const page = await call(base, 'GET', `/api/v1/agents/${agentId}/tasks?limit=100&fields=created_at,schedule_id${cursor ? `&cursor=${cursor}` : ''}`, serviceKey);
        expectStatus('listing tasks', page, 200);
        const body = page.json as { data: Array<{ id: string; created_at: string; schedule_id: string | null }>; meta: { nextCursor?: string | null } };
        for (const task of body.data) {
          if (task.schedule_id === null) problems.push(`task ${task.id} has no schedule_id`);
          else tasks.push({ id: task.id, createdMs: Date.parse(task.created_at), scheduleId: task.schedule_id });
        }
        cursor = body.meta.nextCursor ?? undefined;
      } while (cursor);
    }
    const bySchedule = new Map<string, number[]>();
    for (const task of tasks) {
      if (!schedules.has(task.scheduleId)) problems.push(`task ${task.id}: schedule ${task.scheduleId} was not created by the bench`);
      else bySchedule.set(task.scheduleId, [...(bySchedule.get(task.scheduleId) ?? []), task.createdMs]);
    }
    const { lateness, slots, skipped, firedTwice, beyondInterval } = placeInSlots([...schedules.values()], bySchedule, cutoffMs);
    if (firedTwice > 0) problems.push(`${firedTwice} task(s) made before their slot was due: a slot fired twice, or early`);
    if (skipped > 0) problems.push(`${skipped} slot(s) due in the window made no task`);
    const windowS = (cutoffMs - firstCreatedMs) / 1000;
    return {
      database,
      schedules: schedules.size,
      agents: agents.length,
      createS,
      windowS,
      pollMs,
      slots,
      tasks: lateness.length,
      firingsPerSecond: lateness.length / windowS,
      latenessP50Ms: quantile(lateness, 0.5),
      latenessP90Ms: quantile(lateness, 0.9),
      latenessP99Ms: quantile(lateness, 0.99),
      latenessMaxMs: lateness.length ? Math.max(...lateness) : Number.NaN,
      firedTwice,
      skipped,
      beyondInterval,
      serviceCores: serviceMillis / windowMillis,
      ...(databaseMillis === undefined ? {} : { databaseCores: databaseMillis / windowMillis }),
      otherCores: Math.max(0, machineMillis - serviceMillis - (databaseMillis ?? 0)) / windowMillis,
      problems: problems.slice(0, 20),
    };
  } finally {
    await stopApp(app);
    await pg?.drop();
  }
}

const verdict = (met: boolean | undefined) => (met === undefined ? 'not measured' : met ? 'met' : 'missed');

export function renderSteering(report: SteeringReport, options: SteeringOptions): string {
  const configs = [...new Set(report.measurements.map((m) => m.result.config))];
  const rounds = Math.max(0, ...report.measurements.map((m) => m.round));
  const lines = [
    '## Steering: concurrency caps, tasks scheduled ahead, schedules',
    '',
    `Baseline ${report.baseline}; current ${report.current}. ${rounds} interleaved rounds (the order rotating), medians. Each variant: the attempts suite's \`plain\` load, ${options.work.workers} workers and ${options.work.producers} producers over HTTP, ${options.work.agents} agent(s), backlog ${options.work.backlog}, ${options.work.warmupS} s warm-up + ${options.work.durationS} s measured, a fresh database per run; each task claimed, extended once (heartbeat), succeeded. \`capped\`: each agent's \`max_concurrency\` set to the workers claiming for it (read on every claim, never binding); \`capped-half\`: half of that (binding; information only); \`scheduled\`: ${options.scheduledTasks.toLocaleString('en')} tasks queued through the API with \`run_at\` a day ahead before the warm-up, waiting throughout.`,
    '',
    '| Database | Baseline tasks/s (range) | Plain | Capped (cap = workers) | Scheduled (waiting) | Plain / baseline | Capped / baseline (target ≥ 0.90) | Scheduled / baseline (target ≥ 0.90) | Within a round: capped / baseline; scheduled / baseline, median (range) | Binding cap (half): tasks/s, / plain |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const details: string[] = [
    '| Database | Variant | Tasks/s | CPU µs per task: service | load generator | PostgreSQL backends | sum | Claim p50 (ms) | Claim p99 | Heartbeat p99 | Completion p99 | Empty claims | Cap | Held at once (most) | Other load (cores) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const verdicts: string[] = [];
  const stepLines: string[] = [];
  for (const config of configs) {
    const of = (variant: SteeringVariant) => report.measurements.filter((m) => m.result.config === config && m.variant === variant);
    const rate = (variant: SteeringVariant) => median(of(variant).map((m) => m.result.succeededPerSecond));
    const range = (variant: SteeringVariant) => {
      const rates = of(variant).map((m) => m.result.succeededPerSecond);
      return rates.length === 0 ? 'n/a' : `${fixed(rate(variant), 0)} (${fixed(Math.min(...rates), 0)}–${fixed(Math.max(...rates), 0)})`;
    };
    const pairText = (after: SteeringVariant, before: SteeringVariant) => {
      const pairs = paired(of, after, before);
      return pairs.length > 0 ? `${percent(median(pairs))} (${percent(Math.min(...pairs))} to ${percent(Math.max(...pairs))})` : 'n/a';
    };
    const judged = (variant: SteeringVariant) => {
      const ratio = rate(variant) / rate('baseline');
      return { ratio, met: Number.isFinite(ratio) ? ratio >= 1 - MAX_SLOWDOWN : undefined };
    };
    const capped = judged('capped');
    const scheduled = judged('scheduled');
    lines.push(
      `| ${config} | ${range('baseline')} | ${range('plain')} | ${range('capped')} | ${range('scheduled')} | ${fixed(rate('plain') / rate('baseline'), 2)} | **${fixed(capped.ratio, 2)}** (${verdict(capped.met)}) | **${fixed(scheduled.ratio, 2)}** (${verdict(scheduled.met)}) | ${pairText('capped', 'baseline')}; ${pairText('scheduled', 'baseline')} | ${fixed(rate('capped-half'), 0)}, ${fixed(rate('capped-half') / rate('plain'), 2)} |`,
    );
    for (const variant of STEERING_VARIANTS) {
      const runs = of(variant);
      if (runs.length === 0) continue;
      const figure = (pick: (r: WorkLoopResult) => number | undefined) => median(runs.map((m) => pick(m.result) ?? Number.NaN).filter(Number.isFinite));
      const service = figure((r) => r.cpuMicrosPerTask);
      const generator = figure((r) => r.generatorCpuMicrosPerTask);
      const database = figure((r) => r.databaseCpuMicrosPerTask);
      const sum = service + (Number.isFinite(generator) ? generator : 0) + (Number.isFinite(database) ? database : 0);
      const caps = runs[0]?.result.caps;
      const held = runs.flatMap((m) => (m.result.maxHeldAtOnce === undefined ? [] : [m.result.maxHeldAtOnce]));
      details.push(
        `| ${config} | ${variant} | ${fixed(rate(variant), 0)} | ${fixed(service, 0)} | ${fixed(generator, 0)} | ${fixed(database, 0)} | ${fixed(sum, 0)} | ${fixed(figure((r) => r.claimP50Ms), 1)} | ${fixed(figure((r) => r.claimP99Ms), 1)} | ${fixed(figure((r) => r.heartbeatP99Ms), 1)} | ${fixed(figure((r) => r.completeP99Ms), 1)} | ${fixed(figure((r) => r.emptyClaims), 0)} | ${caps ? caps.join('/') : 'none'} | ${held.length ? Math.max(...held) : 'n/a'} | ${fixed(figure((r) => r.otherCores), 2)} |`,
      );
    }
    const present = STEERING_VARIANTS.filter((variant) => variant !== 'baseline' && of(variant).length > 0);
    if (of('baseline').length > 0 && present.length > 0) {
      stepLines.push(`- ${config}: ${present.map((variant) => `${variant} / baseline ${fixed(median(paired(of, variant, 'baseline')), 2)}`).join('; ')}${of('plain').length > 0 ? `; ${present.filter((v) => v !== 'plain').map((variant) => `${variant} / plain ${fixed(median(paired(of, variant, 'plain')), 2)}`).join('; ')}` : ''}`);
    }
    const setup = of('scheduled').map((m) => m.result.scheduledSetupS ?? Number.NaN).filter(Number.isFinite);
    // A verdict from runs other load disturbed says so: on 2 cores such a run's rate is not the loop's.
    const disturbedOf = (variant: SteeringVariant) => {
      const runs = [...of('baseline'), ...of(variant)];
      const count = runs.filter((m) => (m.result.otherCores ?? 0) >= DISTURBED_CORES).length;
      return count > 0 ? `; other load of ${DISTURBED_CORES} cores or more during ${count} of these ${runs.length} runs: not a clean figure` : '';
    };
    verdicts.push(
      `- **${verdict(capped.met)}**: ${config}: the lease loop with each agent's \`max_concurrency\` at its workers' count at most ${MAX_SLOWDOWN * 100} % below the baseline: ${fixed(capped.ratio, 2)}× (${fixed(rate('capped'), 0)} against ${fixed(rate('baseline'), 0)} tasks/s; within a round ${pairText('capped', 'baseline')}${disturbedOf('capped')})`,
      `- **${verdict(scheduled.met)}**: ${config}: the lease loop with ${options.scheduledTasks.toLocaleString('en')} tasks waiting for a \`run_at\` a day ahead at most ${MAX_SLOWDOWN * 100} % below the baseline: ${fixed(scheduled.ratio, 2)}× (${fixed(rate('scheduled'), 0)} against ${fixed(rate('baseline'), 0)} tasks/s; within a round ${pairText('scheduled', 'baseline')}${setup.length ? `; queueing them took ${fixed(median(setup), 1)} s` : ''}${disturbedOf('scheduled')})`,
    );
  }
  const firingLines: string[] = [];
  if (report.firings.length > 0) {
    const f0 = options.firing;
    firingLines.push(
      '',
      `Schedule firing: one service process per database (SCHEDULE_POLL_MS ${report.firings[0]?.pollMs ?? 250}), ${f0.schedules.toLocaleString('en')} interval schedules (\`overlap\` \`allow\`) over ${f0.agents} agents, intervals ${f0.minIntervalS} to ${f0.maxIntervalS} s in turn, created through the API (8 at a time), then ${f0.seconds} s of firing, the bench sending nothing else. Each task in the slot it belongs to (its schedule's \`next_run_at\` when it fired: \`created_at\` + k × interval, the latest at or before the task's \`created_at\`, exact while a firing is late by less than its interval); lateness = the task's \`created_at\` − its slot, over every slot due from the first creation to the end of the window (the first slots fall while the rest are still being created). "Fired twice": tasks made before the slot they would fill; "skipped": slots due in the window with no task (a firing late by an interval or more collapses the slots it passed, which count here).`,
      '',
      '| Database | Schedules created in (s) | Window (s) | Slots due | Tasks | Firings/s | Lateness p50 (ms) | p90 | p99 (target < 1,000) | max | Late by an interval or more | Fired twice | Skipped | CPU (cores): service | PostgreSQL backends | other load |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...report.firings.map(
        (f) =>
          `| ${f.database} | ${fixed(f.createS, 1)} | ${fixed(f.windowS, 0)} | ${f.slots} | ${f.tasks} | ${fixed(f.firingsPerSecond, 0)} | ${fixed(f.latenessP50Ms, 0)} | ${fixed(f.latenessP90Ms, 0)} | **${fixed(f.latenessP99Ms, 0)}** | ${fixed(f.latenessMaxMs, 0)} | ${f.beyondInterval} | ${f.firedTwice} | ${f.skipped} | ${fixed(f.serviceCores, 2)} | ${fixed(f.databaseCores, 2)} | ${fixed(f.otherCores, 2)}${f.repeated ? ` (made again ${f.repeated}×)` : ''} |`,
      ),
    );
    for (const f of report.firings) {
      const met = Number.isFinite(f.latenessP99Ms) ? f.latenessP99Ms < MAX_LATENESS_P99_MS && f.firedTwice === 0 && f.skipped === 0 : undefined;
      const disturbed = (f.otherCores ?? 0) >= DISTURBED_CORES ? `; other load kept ${fixed(f.otherCores, 2)} cores busy: not a clean figure` : '';
      verdicts.push(
        `- **${verdict(met)}**: ${f.database}: ${f.schedules.toLocaleString('en')} schedules fire late by under ${MAX_LATENESS_P99_MS.toLocaleString('en')} ms at p99, no slot fired twice or skipped: p99 ${fixed(f.latenessP99Ms, 0)} ms (p50 ${fixed(f.latenessP50Ms, 0)}, max ${fixed(f.latenessMaxMs, 0)}) over ${f.tasks} firings; ${f.firedTwice} fired twice, ${f.skipped} skipped${disturbed}`,
      );
    }
  }
  const loads = report.measurements.map((m) => m.load1);
  const others = report.measurements.map((m) => m.result.otherCores ?? Number.NaN).filter(Number.isFinite);
  const repeated = report.measurements.reduce((sum, m) => sum + m.repeated, 0);
  const waited = report.measurements.reduce((sum, m) => sum + m.waitedS, 0);
  const disturbed = report.measurements.filter((m) => (m.result.otherCores ?? 0) >= DISTURBED_CORES);
  const problems = [
    ...report.measurements.flatMap((m) => m.result.problems.map((p) => `round ${m.round} ${m.result.config} ${m.variant}: ${p}`)),
    ...report.firings.flatMap((f) => f.problems.map((p) => `firing ${f.database}: ${p}`)),
  ];
  lines.push(
    '',
    'Within each round (median of the rounds\' ratios):',
    '',
    ...stepLines,
    '',
    'Medians by variant (CPU from /proc over the measured window: the service\'s process tree, this process, and for PostgreSQL the server\'s backends connected to the run\'s database). "Held at once": the most leases of one agent the workers held together, from a claim\'s answer to the sending of its outcome (inside the time the service counts the task running: above the cap would be the cap exceeded).',
    '',
    ...details,
    ...firingLines,
    '',
    'Targets:',
    '',
    ...verdicts,
    '',
    `Load average (1 min) after each loop run: median ${fixed(median(loads), 2)}, ${fixed(quantile(loads, 0), 2)}–${fixed(quantile(loads, 1), 2)}. Other load during the windows: median ${fixed(median(others), 2)}, at most ${fixed(quantile(others, 1), 2)} cores; ${repeated} run(s) made again for other load of ${DISTURBED_CORES} cores or more; ${disturbed.length === 0 ? `no run kept above ${DISTURBED_CORES}` : `kept above ${DISTURBED_CORES} after ${options.repeats} repeat(s) in ${disturbed.map((m) => `round ${m.round} ${m.result.config} ${m.variant} (${fixed(m.result.otherCores ?? Number.NaN, 2)})`).join(', ')}`}. Waited ${fixed(waited, 0)} s in all for the machine to be quiet (under ${options.quietCores} cores busy) before loop runs. The suite took ${fixed(report.seconds / 60, 1)} min.`,
    ...(problems.length > 0 ? ['', `Problems: ${problems.join('; ')}`] : []),
    '',
  );
  return lines.join('\n');
}
