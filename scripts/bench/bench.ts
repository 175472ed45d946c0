/**
 * `npm run bench`: the service against bare Express and Fastify doing the same database work.
 *
 * Builds the service (`npm run build`) and bundles the comparison apps, starts each app in a child
 * process of its own on a fresh SQLite file, seeds the same number of agents in each through its
 * own POST /agents, then drives GET /agents/{id}, GET /agents?limit=100 and POST /agents with
 * autocannon (in this process, on the same machine, 127.0.0.1). Rounds are interleaved: each
 * round runs each route on each app in turn, warm-up (unrecorded) then measurement; the report
 * gives the median per route and app. Any answer other than 2xx, timeout or connection error
 * during a measurement makes the run invalid (exit code 1).
 *
 * Options (flag or environment variable):
 *   --duration=10      BENCH_DURATION      seconds measured per route, app and round
 *   --warmup=2         BENCH_WARMUP        seconds of unrecorded load before each measurement
 *   --connections=50   BENCH_CONNECTIONS
 *   --seed=1000        BENCH_SEED          agents created in each app before measuring
 *   --rounds=3         BENCH_ROUNDS
 *   --apps=service,service-2w,express,fastify   BENCH_APPS  (also express-classes, service-no-logs, service-no-validation)
 *   --keep             BENCH_KEEP=1        keep the SQLite files and request logs (large)
 *   --suites=http,work BENCH_SUITES        the HTTP comparison above, the work loop (scripts/bench/work-loop.ts),
 *                                          `events` (scripts/bench/events.ts: the cost of the event log, fan-out),
 *                                          `attempts` (scripts/bench/attempts.ts: the lease loop before attempts were
 *                                          recorded, as it is, and with log lines and usage per task), and `stats`
 *                                          (scripts/bench/stats.ts: GET .../stats on PostgreSQL at a million tasks),
 *                                          `console` (scripts/bench/console-render.ts: the first render of 500 tasks in Chromium),
 *                                          and `steering` (scripts/bench/steering.ts: the lease loop with a max_concurrency
 *                                          cap and with 10,000 tasks waiting for their run_at, against the commit before
 *                                          them, and how late 1,000 schedules fire), and `workspaces` (scripts/bench/workspaces.ts:
 *                                          a person's reads of one agent and of 100 through their membership, against the
 *                                          commit before workspaces; --workspaces-baseline=<rev>, --workspaces-agents=100)
 *   --work-configs=sqlite,sqlite-2w,pg,pg-2w   BENCH_WORK_CONFIGS   databases and process counts of the work loop
 *   --workers=16 --agents=1 --producers=8 --backlog=200   the work loop's load (BENCH_WORKERS ...)
 *   --pg-url=postgres://postgres@127.0.0.1:5432/test      BENCH_PG_URL: where the work loop creates its databases
 *   --baseline=<rev>   BENCH_BASELINE      what the events suite compares with (default: the commit before the event log)
 *   --streams=1000 --events=200 --rate=20  the events suite's fan-out (BENCH_STREAMS ...)
 *   --attempts-baseline=<rev>  BENCH_ATTEMPTS_BASELINE  what the attempts suite compares with (default: the commit before migration 011)
 *   --current=<rev>    BENCH_CURRENT       what the attempts, steering and stats suites measure as the service now, built apart
 *                                          into .bench/ like a baseline (default: the checkout, which others may be editing)
 *   --log-lines=100 --log-batch=100       the attempts suite's log lines per task and per request (BENCH_LOG_LINES ...)
 *   --attempts-variants=baseline,plain,logged   BENCH_ATTEMPTS_VARIANTS   also `usage` (usage reported, no log lines)
 *   --quiet-cores=0.3 --quiet-wait=300    before each attempts or steering run, wait up to that many seconds until the machine keeps
 *                                          fewer cores busy (BENCH_QUIET_CORES, BENCH_QUIET_WAIT)
 *   --steering-baseline=<rev>  BENCH_STEERING_BASELINE  what the steering suite compares with (default: c60b5f9, the commit
 *                                          before max_concurrency, run_at and schedules)
 *   --steering-variants=baseline,plain,capped,capped-half,scheduled   BENCH_STEERING_VARIANTS   the steering suite's
 *                                          loop runs (capped-half: a binding cap, information only)
 *   --steering-scheduled=10000            BENCH_STEERING_SCHEDULED  tasks waiting with run_at a day ahead (`scheduled`)
 *   --steering-schedules=1000 --steering-schedule-agents=20 --steering-fire-seconds=60   the firing run (its
 *                                          databases: those of --work-configs, one process each; 0 s: no firing run)
 *                                          (BENCH_STEERING_SCHEDULES ...); the quiet-machine waits above apply too
 *   --steering-repeats=2                  BENCH_STEERING_REPEATS  a loop run other load disturbed is made again at most
 *                                          this often (0: never, for a short check on a busy machine)
 *   --stats-tasks=1000000 --stats-other-agents=4 --stats-other-tasks=100000 --stats-days=30 --stats-event-hours=24
 *   --stats-runs=20                       the stats suite's seed and reads per window (BENCH_STATS_TASKS ...)
 *   --stats-try-index=<sql>               a statement (create index ...) the stats suite runs after measuring, then
 *                                          measures again; may be repeated, each on top of the ones before
 *
 * Writes .bench/report.json and .bench/report.md (the Markdown is also printed).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APPS, buildBaseline, buildService, bundleComparisonApps, git, ROOT, seedAgents, startApp, stopApp, type AppName, type RunningApp } from './apps';
import { drive, failuresOf, REQUEST_TIMEOUT_S, ROUTES, type Route } from './load';
import { cpuMillisBetween, listTree, readTreeMemory, sampleCpu, type ProcessMemory } from './process-tree';
import { computeRatios, evaluateTargets, renderMarkdown, summarise, type AppResult, type BenchReport, type Measurement } from './report';
import { optionReader } from './options';
import { renderEvents, runEventsSuite, type EventsOptions } from './events';
import { ATTEMPTS_VARIANTS, renderAttempts, runAttemptsSuite, type AttemptsOptions } from './attempts';
import { renderSteering, runSteeringSuite, STEERING_VARIANTS, type SteeringOptions } from './steering';
import { renderPlans, renderStats, runStatsSuite, type StatsOptions } from './stats';
import { measureConsoleRender, renderConsoleRender } from './console-render';
import { renderWorkspaces, runWorkspacesSuite, type WorkspacesOptions } from './workspaces';
import { renderWorkLoop, runWorkLoop, WORK_LOOP_CONFIGS, type WorkLoopConfig, type WorkLoopOptions, type WorkLoopResult } from './work-loop';

interface Options {
  durationS: number;
  warmupS: number;
  connections: number;
  seed: number;
  rounds: number;
  apps: AppName[];
  keep: boolean;
  suites: Array<'http' | 'work' | 'events' | 'attempts' | 'steering' | 'stats' | 'console' | 'workspaces'>;
  work: WorkLoopOptions;
  workspaces: WorkspacesOptions;
  events: EventsOptions;
  attempts: AttemptsOptions;
  steering: SteeringOptions;
  stats: StatsOptions;
  /** A revision the attempts, steering and stats suites measure instead of the checkout. */
  current?: string;
}

const DEFAULT_APPS: AppName[] = ['service', 'service-2w', 'express', 'fastify'];

function readOptions(argv: string[], env: NodeJS.ProcessEnv): Options {
  const { flag, numberOf } = optionReader(argv, env);
  const work: WorkLoopOptions = {
    durationS: numberOf('duration', 'BENCH_DURATION', 10),
    warmupS: numberOf('warmup', 'BENCH_WARMUP', 2, 0),
    workers: Math.round(numberOf('workers', 'BENCH_WORKERS', 16)),
    agents: Math.round(numberOf('agents', 'BENCH_AGENTS', 1)),
    producers: Math.round(numberOf('producers', 'BENCH_PRODUCERS', 8)),
    backlog: Math.round(numberOf('backlog', 'BENCH_BACKLOG', 200)),
    pgUrl: flag('pg-url') ?? env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    configs: listOf(flag('work-configs') ?? env.BENCH_WORK_CONFIGS, WORK_LOOP_CONFIGS, WORK_LOOP_CONFIGS),
  };
  const listed = (flag('apps') ?? env.BENCH_APPS ?? DEFAULT_APPS.join(',')).split(',').map((name) => name.trim()).filter(Boolean);
  for (const name of listed) if (!(name in APPS)) throw new Error(`unknown app "${name}": use ${Object.keys(APPS).join(', ')}`);
  return {
    durationS: numberOf('duration', 'BENCH_DURATION', 10),
    warmupS: numberOf('warmup', 'BENCH_WARMUP', 2, 0),
    connections: Math.round(numberOf('connections', 'BENCH_CONNECTIONS', 50)),
    seed: Math.round(numberOf('seed', 'BENCH_SEED', 1000)),
    rounds: Math.round(numberOf('rounds', 'BENCH_ROUNDS', 3)),
    apps: [...new Set(listed as AppName[])],
    keep: argv.includes('--keep') || env.BENCH_KEEP === '1',
    suites: listOf(flag('suites') ?? env.BENCH_SUITES, ['http', 'work', 'events', 'attempts', 'steering', 'stats', 'console', 'workspaces'] as const, ['http', 'work']),
    current: flag('current') ?? env.BENCH_CURRENT,
    work,
    workspaces: {
      baseline: flag('workspaces-baseline') ?? env.BENCH_WORKSPACES_BASELINE,
      current: flag('current') ?? env.BENCH_CURRENT,
      rounds: Math.round(numberOf('rounds', 'BENCH_ROUNDS', 5)),
      durationS: numberOf('duration', 'BENCH_DURATION', 10),
      warmupS: numberOf('warmup', 'BENCH_WARMUP', 2, 0),
      connections: Math.round(numberOf('connections', 'BENCH_CONNECTIONS', 50)),
      agents: Math.round(numberOf('workspaces-agents', 'BENCH_WORKSPACES_AGENTS', 100)),
      quietCores: numberOf('quiet-cores', 'BENCH_QUIET_CORES', 0.3, 0),
      quietWaitS: numberOf('quiet-wait', 'BENCH_QUIET_WAIT', 300, 0),
    },
    events: {
      baseline: flag('baseline') ?? env.BENCH_BASELINE,
      rounds: Math.round(numberOf('rounds', 'BENCH_ROUNDS', 3)),
      durationS: numberOf('duration', 'BENCH_DURATION', 10),
      warmupS: numberOf('warmup', 'BENCH_WARMUP', 2, 0),
      connections: Math.round(numberOf('connections', 'BENCH_CONNECTIONS', 50)),
      streams: Math.round(numberOf('streams', 'BENCH_STREAMS', 1000)),
      events: Math.round(numberOf('events', 'BENCH_EVENTS', 200)),
      rate: numberOf('rate', 'BENCH_RATE', 20),
      // The loop before and after: one process on each database unless --work-configs says otherwise.
      work: { ...work, configs: listOf(flag('work-configs') ?? env.BENCH_WORK_CONFIGS, WORK_LOOP_CONFIGS, ['sqlite', 'pg']) },
    },
    attempts: {
      baseline: flag('attempts-baseline') ?? env.BENCH_ATTEMPTS_BASELINE,
      current: flag('current') ?? env.BENCH_CURRENT,
      rounds: Math.round(numberOf('rounds', 'BENCH_ROUNDS', 3)),
      logLines: Math.round(numberOf('log-lines', 'BENCH_LOG_LINES', 100)),
      logBatch: Math.min(100, Math.round(numberOf('log-batch', 'BENCH_LOG_BATCH', 100))),
      quietCores: numberOf('quiet-cores', 'BENCH_QUIET_CORES', 0.3, 0),
      quietWaitS: numberOf('quiet-wait', 'BENCH_QUIET_WAIT', 300, 0),
      variants: listOf(flag('attempts-variants') ?? env.BENCH_ATTEMPTS_VARIANTS, ATTEMPTS_VARIANTS, ['baseline', 'plain', 'logged']),
      // One process on each database unless --work-configs says otherwise.
      work: { ...work, configs: listOf(flag('work-configs') ?? env.BENCH_WORK_CONFIGS, WORK_LOOP_CONFIGS, ['sqlite', 'pg']) },
    },
    steering: {
      baseline: flag('steering-baseline') ?? env.BENCH_STEERING_BASELINE,
      current: flag('current') ?? env.BENCH_CURRENT,
      rounds: Math.round(numberOf('rounds', 'BENCH_ROUNDS', 3)),
      variants: listOf(flag('steering-variants') ?? env.BENCH_STEERING_VARIANTS, STEERING_VARIANTS, STEERING_VARIANTS),
      scheduledTasks: Math.round(numberOf('steering-scheduled', 'BENCH_STEERING_SCHEDULED', 10_000)),
      quietCores: numberOf('quiet-cores', 'BENCH_QUIET_CORES', 0.3, 0),
      quietWaitS: numberOf('quiet-wait', 'BENCH_QUIET_WAIT', 300, 0),
      repeats: Math.round(numberOf('steering-repeats', 'BENCH_STEERING_REPEATS', 2, 0)),
      // One process on each database unless --work-configs says otherwise.
      work: { ...work, configs: listOf(flag('work-configs') ?? env.BENCH_WORK_CONFIGS, WORK_LOOP_CONFIGS, ['sqlite', 'pg']) },
      firing: {
        schedules: Math.round(numberOf('steering-schedules', 'BENCH_STEERING_SCHEDULES', 1000)),
        agents: Math.round(numberOf('steering-schedule-agents', 'BENCH_STEERING_SCHEDULE_AGENTS', 20)),
        minIntervalS: 5,
        maxIntervalS: 10,
        seconds: numberOf('steering-fire-seconds', 'BENCH_STEERING_FIRE_SECONDS', 60, 0),
        databases: [...new Set(listOf(flag('work-configs') ?? env.BENCH_WORK_CONFIGS, WORK_LOOP_CONFIGS, ['sqlite', 'pg']).map((config) => (config.startsWith('pg') ? 'pg' : 'sqlite') as 'sqlite' | 'pg'))],
      },
    },
    stats: {
      tasks: Math.round(numberOf('stats-tasks', 'BENCH_STATS_TASKS', 1_000_000)),
      otherAgents: Math.round(numberOf('stats-other-agents', 'BENCH_STATS_OTHER_AGENTS', 4, 0)),
      otherTasks: Math.round(numberOf('stats-other-tasks', 'BENCH_STATS_OTHER_TASKS', 100_000)),
      days: numberOf('stats-days', 'BENCH_STATS_DAYS', 30),
      eventHours: numberOf('stats-event-hours', 'BENCH_STATS_EVENT_HOURS', 24),
      runs: Math.round(numberOf('stats-runs', 'BENCH_STATS_RUNS', 20)),
      pgUrl: work.pgUrl,
      tryIndexes: argv.filter((arg) => arg.startsWith('--stats-try-index=')).map((arg) => arg.slice('--stats-try-index='.length)),
      keep: argv.includes('--keep') || env.BENCH_KEEP === '1',
    },
  };
}

function listOf<T extends string>(raw: string | undefined, allowed: readonly T[], fallback: T[]): T[] {
  if (raw === undefined || raw === '') return fallback;
  const items = raw.split(',').map((item) => item.trim()).filter(Boolean);
  for (const item of items) if (!allowed.includes(item as T)) throw new Error(`unknown value "${item}": use ${allowed.join(', ')}`);
  return [...new Set(items as T[])];
}

const loadAverage = () => os.loadavg().map((value) => value.toFixed(2)).join(' ');

function describeCommit(): string {
  const changed = git('status', '--porcelain', '--', 'src', 'api.yaml').length > 0;
  return `${git('rev-parse', '--short', 'HEAD')} (${git('rev-parse', '--abbrev-ref', 'HEAD')})${changed ? ' with uncommitted changes to src/ or api.yaml' : ''}`;
}

async function measure(app: RunningApp, route: Route, round: number, options: Options, apiKey: string): Promise<Measurement> {
  if (options.warmupS > 0) await drive(app, route, { connections: options.connections, seconds: options.warmupS, apiKey });
  const before = sampleCpu(app.pid);
  const result = await drive(app, route, { connections: options.connections, seconds: options.durationS, apiKey });
  const after = sampleCpu(app.pid);
  const answered = result['2xx'] + result.non2xx;
  return {
    round,
    route: route.key,
    app: app.spec.name,
    requestsPerSecond: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuMicrosPerRequest: answered > 0 ? (cpuMillisBetween(before, after) * 1000) / answered : Number.NaN,
    answered,
    processes: after.size,
    peakTreeMb: readTreeMemory(app.pid).reduce((sum, p) => sum + p.peakRssMb, 0),
    failures: failuresOf(result),
  };
}

/**
 * Each process's VmHWM once ready, after seeding and now; the first of the tree is the one the
 * bench started. The measurement after which the tree's peak rose the most says which load set it.
 */
function collectMemory(app: RunningApp, afterSeeding: ProcessMemory[], measurements: Measurement[]): AppResult {
  const atReady = new Map(app.memoryAtReady.map((p) => [p.pid, p.peakRssMb]));
  const seeded = new Map(afterSeeding.map((p) => [p.pid, p.peakRssMb]));
  const processes = readTreeMemory(app.pid).map((p, index) => ({
    pid: p.pid,
    role: index === 0 ? 'main' : `child ${index}`,
    atReadyMb: atReady.get(p.pid) ?? Number.NaN,
    afterSeedingMb: seeded.get(p.pid) ?? Number.NaN,
    peakMb: p.peakRssMb,
  }));
  let previous = afterSeeding.reduce((sum, p) => sum + p.peakRssMb, 0);
  let largestRise: AppResult['largestRise'];
  for (const m of measurements.filter((candidate) => candidate.app === app.spec.name)) {
    if (m.peakTreeMb - previous > (largestRise?.mb ?? 0)) largestRise = { round: m.round, route: m.route, mb: m.peakTreeMb - previous };
    previous = m.peakTreeMb;
  }
  return { name: app.spec.name, description: app.spec.description, processes, peakTreeMb: processes.reduce((sum, p) => sum + p.peakMb, 0), largestRise };
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2), process.env);
  const benchDir = path.join(ROOT, '.bench');
  mkdirSync(benchDir, { recursive: true });
  if (options.suites.includes('http')) await runHttpSuite(options);
  if (options.suites.includes('work')) await runWorkSuite(options, benchDir);
  if (options.suites.includes('events')) await runEventsBench(options, benchDir);
  if (options.suites.includes('attempts')) await runAttemptsBench(options, benchDir);
  if (options.suites.includes('steering')) await runSteeringBench(options, benchDir);
  if (options.suites.includes('stats')) await runStatsBench(options, benchDir);
  if (options.suites.includes('console')) await runConsoleBench(options, benchDir);
  if (options.suites.includes('workspaces')) await runWorkspacesBench(options, benchDir);
}

/** What reading through a workspace's membership costs a person's reads (scripts/bench/workspaces.ts). */
async function runWorkspacesBench(options: Options, benchDir: string): Promise<void> {
  // A revision to measure is built apart; the checkout is built unless a suite before did.
  if (!options.current && !['http', 'work', 'events', 'attempts', 'steering', 'stats', 'console'].some((suite) => options.suites.includes(suite as Options['suites'][number]))) buildService();
  const loadBefore = loadAverage();
  const { report, failed } = await runWorkspacesSuite(options.workspaces, benchDir);
  const markdown = `${renderWorkspaces(report, options.workspaces)}\nMachine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), shared with the load generator. Load average (1/5/15 min): before ${loadBefore}; after ${loadAverage()}.\n`;
  console.log(`\n${markdown}`);
  writeFileSync(path.join(benchDir, 'workspaces.md'), markdown);
  writeFileSync(path.join(benchDir, 'workspaces.json'), `${JSON.stringify({ options: options.workspaces, ...report }, null, 2)}\n`);
  console.log('bench: wrote .bench/workspaces.md and workspaces.json');
  if (failed) process.exitCode = 1;
}

/** The console's first render of a busy agent's task table in Chromium (scripts/bench/console-render.ts). */
async function runConsoleBench(options: Options, benchDir: string): Promise<void> {
  if (!['http', 'work', 'events', 'attempts'].some((suite) => options.suites.includes(suite as Options['suites'][number]))) buildService();
  const loadBefore = loadAverage();
  const markdown = `${renderConsoleRender(await measureConsoleRender({ tasks: 500, runs: 5 }))}
Load average (1/5/15 min): before ${loadBefore}; after ${loadAverage()}.
`;
  console.log(`\n${markdown}`);
  writeFileSync(path.join(benchDir, 'console.md'), markdown);
  console.log('bench: wrote .bench/console.md');
}

async function runStatsBench(options: Options, benchDir: string): Promise<void> {
  let root = ROOT;
  let build = describeCommit();
  if (options.current) {
    const built = buildBaseline(options.current, benchDir);
    root = built.root;
    build = built.commit;
  } else if (!['http', 'work', 'events', 'attempts'].some((suite) => options.suites.includes(suite as Options['suites'][number]))) {
    buildService();
  }
  const loadBefore = loadAverage();
  const report = await runStatsSuite(options.stats, benchDir, root, build);
  const markdown = `${renderStats(report, options.stats)}\nMachine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), PostgreSQL on the same machine. Load average (1/5/15 min): before ${loadBefore}; after ${loadAverage()}.\n`;
  console.log(`\n${markdown}`);
  writeFileSync(path.join(benchDir, 'stats.md'), markdown);
  writeFileSync(path.join(benchDir, 'stats-plans.md'), renderPlans(report));
  writeFileSync(path.join(benchDir, 'stats.json'), `${JSON.stringify({ options: options.stats, ...report }, null, 2)}\n`);
  console.log('bench: wrote .bench/stats.md, stats-plans.md and stats.json');
}

async function runAttemptsBench(options: Options, benchDir: string): Promise<void> {
  // A revision to measure is built apart; the checkout is built unless another suite did.
  if (!options.current && !['http', 'work', 'events'].some((suite) => options.suites.includes(suite as Options['suites'][number]))) buildService();
  const loadBefore = loadAverage();
  const { report, failed } = await runAttemptsSuite(options.attempts, benchDir);
  const markdown = `${renderAttempts(report, options.attempts)}\nMachine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), shared with the load generator. Load average (1/5/15 min): before ${loadBefore}; after ${loadAverage()}.\n`;
  console.log(`\n${markdown}`);
  writeFileSync(path.join(benchDir, 'attempts.md'), markdown);
  writeFileSync(path.join(benchDir, 'attempts.json'), `${JSON.stringify({ options: options.attempts, ...report }, null, 2)}\n`);
  console.log('bench: wrote .bench/attempts.md and attempts.json');
  if (failed) process.exitCode = 1;
}

async function runSteeringBench(options: Options, benchDir: string): Promise<void> {
  // A revision to measure is built apart; the checkout is built unless a suite before did.
  if (!options.current && !['http', 'work', 'events', 'attempts'].some((suite) => options.suites.includes(suite as Options['suites'][number]))) buildService();
  const loadBefore = loadAverage();
  const { report, failed } = await runSteeringSuite(options.steering, benchDir);
  const markdown = `${renderSteering(report, options.steering)}\nMachine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), shared with the load generator. Load average (1/5/15 min): before ${loadBefore}; after ${loadAverage()}.\n`;
  console.log(`\n${markdown}`);
  writeFileSync(path.join(benchDir, 'steering.md'), markdown);
  writeFileSync(path.join(benchDir, 'steering.json'), `${JSON.stringify({ options: options.steering, ...report }, null, 2)}\n`);
  console.log('bench: wrote .bench/steering.md and steering.json');
  if (failed) process.exitCode = 1;
}

async function runEventsBench(options: Options, benchDir: string): Promise<void> {
  if (!options.suites.includes('http') && !options.suites.includes('work')) buildService();
  const loadBefore = loadAverage();
  const { report, failed } = await runEventsSuite(options.events, benchDir);
  const markdown = `${renderEvents(report, options.events)}\nLoad average (1/5/15 min): before ${loadBefore}; after ${loadAverage()}.\n`;
  console.log(`\n${markdown}`);
  writeFileSync(path.join(benchDir, 'events.md'), markdown);
  writeFileSync(path.join(benchDir, 'events.json'), `${JSON.stringify({ options: options.events, ...report }, null, 2)}\n`);
  console.log('bench: wrote .bench/events.md and events.json');
  if (failed) process.exitCode = 1;
}

async function runWorkSuite(options: Options, benchDir: string): Promise<void> {
  if (!options.suites.includes('http')) buildService();
  const runDir = path.join(benchDir, `work-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(runDir, { recursive: true });
  const results: WorkLoopResult[] = [];
  try {
    for (const config of options.work.configs as WorkLoopConfig[]) {
      console.log(`bench: work loop on ${config}: ${options.work.workers} workers, ${options.work.agents} agent(s), ${options.work.warmupS} s + ${options.work.durationS} s`);
      const result = await runWorkLoop(config, options.work, runDir);
      results.push(result);
      console.log(
        `bench: work loop ${config.padEnd(10)} ${result.succeededPerSecond.toFixed(0).padStart(6)} tasks/s  claim p99 ${result.claimP99Ms.toFixed(1)} ms  ${result.problems.length === 0 ? `${result.checkedTasks} tasks checked` : `PROBLEMS ${result.problems.join('; ')}`}`,
      );
    }
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
  const markdown = renderWorkLoop(results, options.work);
  console.log(`\n${markdown}`);
  writeFileSync(path.join(benchDir, 'work-loop.md'), markdown);
  writeFileSync(path.join(benchDir, 'work-loop.json'), `${JSON.stringify({ options: options.work, results }, null, 2)}\n`);
  console.log('bench: wrote .bench/work-loop.md and work-loop.json');
  if (results.some((result) => result.problems.length > 0)) process.exitCode = 1;
}

async function runHttpSuite(options: Options): Promise<void> {
  const apiKey = `bench-${randomBytes(16).toString('hex')}`;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const benchDir = path.join(ROOT, '.bench');
  const runDir = path.join(benchDir, `run-${stamp}`);
  mkdirSync(runDir, { recursive: true });
  const loadBefore = loadAverage();
  const loadSeconds = options.rounds * ROUTES.length * options.apps.length * (options.durationS + options.warmupS);
  console.log(
    `bench: ${options.apps.join(', ')}; ${options.rounds} rounds x ${ROUTES.length} routes x ${options.durationS} s (+${options.warmupS} s warm-up), ${options.connections} connections: about ${Math.ceil(loadSeconds / 60)} min of load`,
  );

  buildService();
  const bundles = bundleComparisonApps(path.join(benchDir, 'build'));
  const apps: RunningApp[] = [];
  const afterSeeding = new Map<AppName, ProcessMemory[]>();
  const stopAll = async () => {
    for (const app of apps.splice(0)) if (app.child.exitCode === null) await stopApp(app);
  };
  process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
  try {
    for (const name of options.apps) {
      const app = await startApp(APPS[name], { dir: runDir, apiKey, bundles });
      apps.push(app);
      await seedAgents(app, options.seed, apiKey);
      afterSeeding.set(name, readTreeMemory(app.pid));
      console.log(`bench: ${name} ready on 127.0.0.1:${app.port} (pids ${listTree(app.pid).join(', ')}), ${app.ids.length} agents seeded`);
    }

    const measurements: Measurement[] = [];
    // The 1-minute load average after each measurement: the bench itself (an app and autocannon)
    // keeps it near 2 on 2 cores; well above that, something else shared the machine.
    const loadDuring: number[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      for (const [index, route] of ROUTES.entries()) {
        // Rotating the order spreads the drift of a shared machine over every app.
        const order = apps.map((_, i) => apps[(i + index + round) % apps.length] as RunningApp);
        for (const app of order) {
          const m = await measure(app, route, round, options, apiKey);
          measurements.push(m);
          loadDuring.push(os.loadavg()[0] as number);
          const failed = Object.keys(m.failures).length > 0 ? `  FAILURES ${JSON.stringify(m.failures)}` : '';
          console.log(
            `bench: round ${round} ${route.name.padEnd(22)} ${app.spec.name.padEnd(22)} ${m.requestsPerSecond.toFixed(0).padStart(6)} req/s  p99 ${m.p99Ms.toFixed(1).padStart(6)} ms  ${m.cpuMicrosPerRequest.toFixed(0).padStart(5)} µs CPU/req${failed}`,
          );
        }
      }
    }

    const appResults = apps.map((app) => collectMemory(app, afterSeeding.get(app.spec.name) ?? [], measurements));
    const exits: string[] = [];
    for (const app of apps.splice(0)) {
      const { code, signal } = await stopApp(app);
      exits.push(`${app.spec.name} ${code ?? signal}`);
      if (code !== 0) console.error(`bench: ${app.spec.name} exited with ${code ?? signal}:\n${app.stderr()}`);
    }
    const logSizes = appResults
      .map(({ name }) => path.join(runDir, `${name}.log`))
      .filter((file) => statSync(file, { throwIfNoEntry: false }) !== undefined)
      .map((file) => `${path.basename(file, '.log')} ${(statSync(file).size / 1e6).toFixed(0)} MB`);
    const summary = summarise(measurements);
    const ratios = computeRatios(summary);
    const report: BenchReport = {
      context: {
        date: new Date().toISOString(),
        commit: describeCommit(),
        machine: `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, shared with whatever else ran`,
        node: process.version,
        'load average (1/5/15 min)': `before ${loadBefore}; after ${loadAverage()}`,
        'load average during (1 min, after each measurement)': describeLoad(loadDuring),
        load: `autocannon in the bench process on the same cores, ${options.connections} connections each sending its next request once the last is answered; ${options.rounds} interleaved rounds of ${options.warmupS} s warm-up + ${options.durationS} s measured per route and app; a request unanswered after ${REQUEST_TIMEOUT_S} s is a timeout`,
        data: `${options.seed} agents seeded per app through its own POST; a fresh SQLite file each (WAL, synchronous=FULL); 127.0.0.1 only`,
        'CPU per request': 'utime + stime of the app and all its descendants (/proc/<pid>/stat) over the measured window, per answered request',
        'exit after SIGTERM': exits.join(', '),
        'request logs written': logSizes.join(', '),
      },
      apps: appResults,
      measurements,
      summary,
      ratios,
      targets: evaluateTargets(summary, ratios, appResults),
      problems: measurements
        .filter((m) => Object.keys(m.failures).length > 0)
        .map((m) => `round ${m.round}, ${m.route}, ${m.app}: ${JSON.stringify(m.failures)} of ${m.answered} answered`),
    };
    const markdown = renderMarkdown(report);
    console.log(`\n${markdown}`);
    writeFileSync(path.join(benchDir, 'report.md'), markdown);
    writeFileSync(path.join(benchDir, 'report.json'), `${JSON.stringify({ options, ...report }, null, 2)}\n`);
    console.log(`bench: wrote ${path.relative(ROOT, path.join(benchDir, 'report.md'))} and report.json${options.keep ? `; databases and logs kept in ${path.relative(ROOT, runDir)}/` : ''}`);
    if (!options.keep) rmSync(runDir, { recursive: true, force: true });
    if (report.problems.length > 0) process.exitCode = 1;
  } finally {
    await stopAll();
  }
}

function describeLoad(samples: number[]): string {
  if (samples.length === 0) return 'n/a';
  const sorted = [...samples].sort((a, b) => a - b);
  return `median ${(sorted[Math.floor(sorted.length / 2)] as number).toFixed(2)}, ${(sorted[0] as number).toFixed(2)}–${(sorted[sorted.length - 1] as number).toFixed(2)} over ${samples.length} measurements`;
}

main().catch((error: unknown) => {
  console.error('bench failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
