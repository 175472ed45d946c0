/**
 * `npm run bench:profile`: where the service's CPU goes, per request and per component.
 *
 * Builds the service, starts dist/process/server.js as the bench does (one process) under
 * `node --cpu-prof`, seeds it, warms the route up, then drives it with autocannon. SIGTERM makes
 * the service drain and call process.exit(0), which writes the profile. The samples taken during
 * the measured window (the profile's clock is the monotonic one process.hrtime reads) are
 * attributed to components by profile-components.ts, as µs of self time per request, next to the
 * CPU time /proc reports for the same window.
 *
 * Options (flag or environment variable):
 *   --duration=10      BENCH_DURATION      seconds profiled
 *   --warmup=3         BENCH_WARMUP        seconds of load before, not counted
 *   --connections=50   BENCH_CONNECTIONS
 *   --seed=1000        BENCH_SEED
 *   --route=get-one    BENCH_ROUTE         get-one, list, post, post-task (POST /api/v1/agents/{id}/tasks) or post-logs
 *                                          (a batch of 100 log lines through one of 400 active leases), heartbeat
 *                                          or heartbeat-usage (PATCH .../leases/{id} on those leases, with usage or not)
 *   --keep             BENCH_KEEP=1        keep the SQLite file and request log
 *   --baseline=<rev>   BENCH_BASELINE      also profile that git revision (built into .bench/baseline-<sha>/)
 *                                          and print both, µs per component before and after
 *   --current=<rev>    BENCH_CURRENT       profile that revision as the after instead of this checkout
 *   --against=express  BENCH_AGAINST       profile bare Express (scripts/bench/express-app.ts) beside the
 *                                          service instead of a revision: what the service adds, per component;
 *                                          --against=express-classes profiles it with the service's message classes
 *   --rounds=N         BENCH_ROUNDS        runs per build, interleaved (default 1; 2 with --baseline or --against)
 *
 * Writes .bench/profile.md and .bench/profile.json; the .cpuprofile stays in .bench/profile-<time>/
 * (Chrome DevTools and VS Code open it).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APPS, bundleComparisonApps, buildBaseline, buildService, git, ROOT, seedAgents, startApp, stopApp, type AppName, type ComparisonApp } from './apps';
import { drive, failuresOf, findRoute } from './load';
import { cpuMillisBetween, sampleCpu } from './process-tree';
import { attributeSelfTime, EXCLUDED, OTHER, type CpuProfile } from './profile-components';
import { optionReader } from './options';

interface Options {
  durationS: number;
  warmupS: number;
  connections: number;
  seed: number;
  route: string;
  keep: boolean;
  /** A git revision profiled beside this checkout, for a before-and-after table. */
  baseline?: string;
  /** A git revision profiled as the after instead of this checkout (one change measured on its own: --baseline=<rev>^ --current=<rev>). */
  current?: string;
  /** Bare Express profiled beside the service, on the same route, instead of another revision. */
  against?: BareExpress;
  rounds: number;
}

/** The bare Express apps the service can be profiled beside. */
type BareExpress = Extract<AppName, 'express' | 'express-classes'>;
const BARE_EXPRESS_LABELS: Record<BareExpress, string> = { express: 'bare Express', 'express-classes': 'express-classes' };

const TOP_OTHER = 10;

function readOptions(argv: string[], env: NodeJS.ProcessEnv): Options {
  const { flag, numberOf } = optionReader(argv, env);
  return {
    durationS: numberOf('duration', 'BENCH_DURATION', 10),
    warmupS: numberOf('warmup', 'BENCH_WARMUP', 3, 0),
    connections: Math.round(numberOf('connections', 'BENCH_CONNECTIONS', 50)),
    seed: Math.round(numberOf('seed', 'BENCH_SEED', 1000)),
    route: flag('route') ?? env.BENCH_ROUTE ?? 'get-one',
    keep: argv.includes('--keep') || env.BENCH_KEEP === '1',
    baseline: flag('baseline') ?? env.BENCH_BASELINE,
    current: flag('current') ?? env.BENCH_CURRENT,
    against: readAgainst(flag('against') ?? env.BENCH_AGAINST),
    rounds: Math.round(numberOf('rounds', 'BENCH_ROUNDS', (flag('baseline') ?? env.BENCH_BASELINE ?? flag('against') ?? env.BENCH_AGAINST) ? 2 : 1)),
  };
}

function readAgainst(value: string | undefined): BareExpress | undefined {
  if (value === undefined) return undefined;
  if (!(value in BARE_EXPRESS_LABELS)) throw new Error(`--against takes ${Object.keys(BARE_EXPRESS_LABELS).join(' or ')} (bare Express, scripts/bench/express-app.ts), not ${value}`);
  return value as BareExpress;
}

/** What one profiled run starts: the service of this checkout or of another revision's build, or bare Express. */
interface Subject {
  build: 'baseline' | 'current';
  /** Another checkout of the service (a revision built by buildBaseline). */
  root?: string;
  /** Bare Express's bundle and which of its variants, when the subject is bare Express. */
  express?: { bundles: Record<ComparisonApp, string>; app: BareExpress };
}

const micros = () => Number(process.hrtime.bigint() / 1000n);
const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/** One profiled run of one build: self time per component and per function over the measured window, in µs (summed, not per request). */
interface ProfiledRun {
  answered: number;
  processCpuMillis: number;
  components: Map<string, number>;
  other: Map<string, number>;
  failures: Record<string, number>;
  file: string;
}

/** Starts `root`'s build (this checkout's by default) under --cpu-prof, seeds it, warms up, profiles the window. */
async function profileOnce(options: Options, runDir: string, apiKey: string, { build, root, express }: Subject): Promise<ProfiledRun> {
  const route = findRoute(options.route);
  const profileDir = path.join(runDir, `${build}-${Date.now()}`);
  mkdirSync(profileDir, { recursive: true });
  const spec = express ? APPS[express.app] : APPS.service;
  // Tasks pile up on one agent: its quota must not answer the load.
  const app = await startApp(spec, { dir: profileDir, apiKey, root, bundles: express?.bundles, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`], env: { QUOTA_TASKS_PER_AGENT: '0' } });
  let windowStart: number;
  let windowEnd: number;
  let answered: number;
  let processCpuMillis: number;
  let failures: Record<string, number>;
  try {
    await seedAgents(app, options.seed, apiKey);
    await route.prepare?.(app, apiKey);
    console.log(`profile: ${build} build ready (pid ${app.pid}), ${app.ids.length} agents seeded; ${options.warmupS} s warm-up, then ${options.durationS} s of ${route.name} profiled`);
    if (options.warmupS > 0) await drive(app, route, { connections: options.connections, seconds: options.warmupS, apiKey });
    const cpuBefore = sampleCpu(app.pid);
    windowStart = micros();
    const result = await drive(app, route, { connections: options.connections, seconds: options.durationS, apiKey });
    windowEnd = micros();
    processCpuMillis = cpuMillisBetween(cpuBefore, sampleCpu(app.pid));
    answered = result['2xx'] + result.non2xx;
    failures = failuresOf(result);
  } finally {
    const { code, signal } = await stopApp(app);
    if (code !== 0) console.error(`profile: ${spec.name} exited with ${code ?? signal}; the profile may be missing:\n${app.stderr()}`);
  }
  const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile in ${profileDir}: did the service exit through process.exit?`);
  const profile = JSON.parse(readFileSync(path.join(profileDir, file), 'utf8')) as CpuProfile;
  const { byComponent, otherFunctions } = attributeSelfTime(profile, windowStart, windowEnd);
  if (!options.keep) for (const name of readdirSync(profileDir).filter((entry) => !entry.endsWith('.cpuprofile'))) rmSync(path.join(profileDir, name), { recursive: true });
  return { answered, processCpuMillis, components: byComponent, other: otherFunctions, failures, file: path.relative(ROOT, path.join(profileDir, file)) };
}

/** Several runs of one build as one: µs summed over their windows, requests summed, so every figure stays per request. */
function combine(runs: ProfiledRun[]): ProfiledRun {
  const sum = (maps: Array<Map<string, number>>) => {
    const total = new Map<string, number>();
    for (const map of maps) for (const [name, us] of map) total.set(name, (total.get(name) ?? 0) + us);
    return total;
  };
  const failures: Record<string, number> = {};
  for (const run of runs) for (const [kind, count] of Object.entries(run.failures)) failures[kind] = (failures[kind] ?? 0) + count;
  return {
    answered: runs.reduce((total, run) => total + run.answered, 0),
    processCpuMillis: runs.reduce((total, run) => total + run.processCpuMillis, 0),
    components: sum(runs.map((run) => run.components)),
    other: sum(runs.map((run) => run.other)),
    failures,
    file: runs.map((run) => run.file).join(', '),
  };
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2), process.env);
  const route = findRoute(options.route);
  const apiKey = `bench-${randomBytes(16).toString('hex')}`;
  const benchDir = path.join(ROOT, '.bench');
  const runDir = path.join(benchDir, `profile-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(runDir, { recursive: true });
  const loadBefore = os.loadavg().map((value) => value.toFixed(2)).join(' ');

  if (options.against && options.baseline) throw new Error('--against and --baseline each name the before: give one');
  const express = options.against ? { bundles: bundleComparisonApps(path.join(benchDir, 'build')), app: options.against } : undefined;
  const baseline = options.baseline ? buildBaseline(options.baseline, benchDir) : express ? { root: undefined, commit: express.app } : undefined;
  const chosen = options.current ? buildBaseline(options.current, benchDir) : undefined;
  if (!chosen) buildService();
  const currentRuns: ProfiledRun[] = [];
  const baselineRuns: ProfiledRun[] = [];
  for (let round = 0; round < options.rounds; round++) {
    // Interleaved, the order alternating, so that a drift of the machine's load weighs on both builds.
    const order = baseline && round % 2 === 1 ? ['current', 'baseline'] : ['baseline', 'current'];
    for (const build of order) {
      if (build === 'baseline' && baseline) baselineRuns.push(await profileOnce(options, runDir, apiKey, { build, root: baseline.root, express }));
      if (build === 'current') currentRuns.push(await profileOnce(options, runDir, apiKey, { build, root: chosen?.root }));
    }
  }
  const current = combine(currentRuns);
  const before = baseline ? combine(baselineRuns) : undefined;

  const perRequest = (run: ProfiledRun, us: number) => us / run.answered;
  const counted = (run: ProfiledRun) => [...run.components].filter(([component]) => !EXCLUDED.has(component));
  const totalOf = (run: ProfiledRun) => counted(run).reduce((sum, [, us]) => sum + us, 0);
  const total = totalOf(current);
  const components = [...new Set([...counted(current), ...(before ? counted(before) : [])].map(([component]) => component))].sort(
    (a, b) => (current.components.get(b) ?? 0) / current.answered - (current.components.get(a) ?? 0) / current.answered,
  );
  const procCpu = (run: ProfiledRun) => (run.processCpuMillis * 1000) / run.answered;
  const rate = (run: ProfiledRun) => run.answered / (options.durationS * options.rounds);
  const [beforeLabel, afterLabel, changeLabel] = express ? [BARE_EXPRESS_LABELS[express.app], 'service', 'service adds'] : ['before', 'after', 'change'];
  const table = before
    ? [
        `| component | ${beforeLabel} µs/request | ${afterLabel} µs/request | ${changeLabel} |`,
        '|---|--:|--:|--:|',
        ...components.map((component) => {
          const was = perRequest(before, before.components.get(component) ?? 0);
          const now = perRequest(current, current.components.get(component) ?? 0);
          return `| ${component} | ${fixed(was, 1)} | ${fixed(now, 1)} | ${now - was >= 0 ? '+' : ''}${fixed(now - was, 1)} |`;
        }),
        `| **total (main thread, self time)** | **${fixed(perRequest(before, totalOf(before)), 1)}** | **${fixed(perRequest(current, total), 1)}** | **${fixed(perRequest(current, total) - perRequest(before, totalOf(before)), 1)}** |`,
        `| CPU of the process from /proc | ${fixed(procCpu(before), 1)} | ${fixed(procCpu(current), 1)} | ${fixed(procCpu(current) - procCpu(before), 1)} |`,
        `| requests/s under the profiler | ${fixed(rate(before), 0)} | ${fixed(rate(current), 0)} | |`,
      ]
    : [
        '| component | µs/request | share |',
        '|---|--:|--:|',
        ...components.map((component) => `| ${component} | ${fixed(perRequest(current, current.components.get(component) ?? 0), 1)} | ${fixed((100 * (current.components.get(component) ?? 0)) / total, 1)} % |`),
        `| **total (main thread, self time)** | **${fixed(perRequest(current, total), 1)}** | 100 % |`,
      ];
  const lines: string[] = [
    `# Where the service's CPU goes: ${route.name}`,
    '',
    `- ${current.answered} requests in ${options.rounds} × ${options.durationS} s (${fixed(rate(current), 0)} req/s under the profiler), ${options.connections} connections, after ${options.warmupS} s warm-up; ${options.seed} agents seeded`,
    `- the service as the bench runs it (dist/process/server.js, NODE_ENV=production, info logs to a file, response validation on), one process, \`node --cpu-prof\` (sampling every 1 ms)`,
    ...(express
      ? [`- beside ${BARE_EXPRESS_LABELS[express.app]} (scripts/bench/express-app.ts, ${APPS[express.app].description}) under the same profiler and load; the service at ${chosen?.commit ?? currentRevision()}; ${options.rounds} rounds each, interleaved, the order alternating`]
      : baseline
        ? [`- before: ${baseline.commit}; after: ${chosen?.commit ?? currentRevision()}; ${options.rounds} rounds each, interleaved, the order alternating`]
        : []),
    `- ${os.cpus().length} cores, node ${process.version}, load average before ${loadBefore}, after ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`,
    `- profiles: ${current.file}${before ? `; before: ${before.file}` : ''}`,
    '',
    ...table,
    '',
    ...(before ? [] : [`CPU of the process from /proc over the same window: ${fixed(procCpu(current), 1)} µs/request (all threads: GC helpers and libuv's pool too, and the profiler's own sampling).`]),
    'The profiler samples the main thread by the wall clock: time it spent blocked in a system call (the fsync of each SQLite commit, synchronous=FULL) counts as the calling function\'s self time, and so does time it waited for a core on a machine with more runnable threads than cores. Either makes the total exceed the /proc figure.',
    `Not counted: ${[...EXCLUDED].map((name) => `${name} ${fixed(perRequest(current, current.components.get(name) ?? 0), 1)} µs/request`).join(', ')}.`,
    '',
    ...(current.other.size === 0
      ? [`Nothing in "${OTHER}": a row of COMPONENTS (scripts/bench/profile-components.ts) names every function sampled.`]
      : [
          `Top ${TOP_OTHER} functions in "${OTHER}" (add rows to COMPONENTS in scripts/bench/profile-components.ts):`,
          '',
          '| function | µs/request |',
          '|---|--:|',
          ...[...current.other]
            .sort((a, b) => b[1] - a[1])
            .slice(0, TOP_OTHER)
            .map(([name, us]) => `| \`${name}\` | ${fixed(perRequest(current, us), 1)} |`),
        ]),
  ];
  const failures = { ...(before?.failures ?? {}), ...current.failures };
  if (Object.keys(failures).length > 0) lines.push('', `**INVALID: answers other than 2xx during the window: ${JSON.stringify(failures)}**`);
  const markdown = `${lines.join('\n')}\n`;
  console.log(`\n${markdown}`);
  writeFileSync(path.join(benchDir, 'profile.md'), markdown);
  const summary = (run: ProfiledRun) => ({
    answered: run.answered,
    processCpuMicrosPerRequest: procCpu(run),
    profiles: run.file,
    components: Object.fromEntries([...run.components].map(([component, us]) => [component, perRequest(run, us)])),
    other: Object.fromEntries([...run.other].sort((a, b) => b[1] - a[1]).map(([name, us]) => [name, perRequest(run, us)])),
    failures: run.failures,
  });
  writeFileSync(path.join(benchDir, 'profile.json'), `${JSON.stringify({ options, ...summary(current), ...(before && baseline ? { baseline: { commit: baseline.commit, ...summary(before) } } : {}) }, null, 2)}\n`);
  if (Object.keys(failures).length > 0) process.exitCode = 1;
}

function currentRevision(): string {
  const dirty = git('status', '--porcelain', '--untracked-files=no') === '' ? '' : ', with uncommitted changes';
  return `${git('rev-parse', '--short', 'HEAD')} (${git('log', '-1', '--format=%s').slice(0, 80)}${dirty})`;
}

main().catch((error: unknown) => {
  console.error('profile failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
