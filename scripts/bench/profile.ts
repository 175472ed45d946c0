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
 *   --route=get-one    BENCH_ROUTE         get-one, list, post, or post-task (POST /api/v1/agents/{id}/tasks)
 *   --keep             BENCH_KEEP=1        keep the SQLite file and request log
 *
 * Writes .bench/profile.md and .bench/profile.json; the .cpuprofile stays in .bench/profile-<time>/
 * (Chrome DevTools and VS Code open it).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APPS, buildService, ROOT, seedAgents, startApp, stopApp } from './apps';
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
}

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
  };
}

const micros = () => Number(process.hrtime.bigint() / 1000n);
const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2), process.env);
  const route = findRoute(options.route);
  const apiKey = `bench-${randomBytes(16).toString('hex')}`;
  const benchDir = path.join(ROOT, '.bench');
  const runDir = path.join(benchDir, `profile-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(runDir, { recursive: true });
  const loadBefore = os.loadavg().map((value) => value.toFixed(2)).join(' ');

  buildService();
  // Tasks pile up on one agent: its quota must not answer the load.
  const app = await startApp(APPS.service, { dir: runDir, apiKey, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${runDir}`], env: { QUOTA_TASKS_PER_AGENT: '0' } });
  let windowStart: number;
  let windowEnd: number;
  let answered: number;
  let processCpuMillis: number;
  let failures: Record<string, number>;
  try {
    await seedAgents(app, options.seed, apiKey);
    console.log(`profile: service ready (pid ${app.pid}), ${app.ids.length} agents seeded; ${options.warmupS} s warm-up, then ${options.durationS} s of ${route.name} profiled`);
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
    if (code !== 0) console.error(`profile: the service exited with ${code ?? signal}; the profile may be missing:\n${app.stderr()}`);
  }
  const file = readdirSync(runDir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile in ${runDir}: did the service exit through process.exit?`);
  const profile = JSON.parse(readFileSync(path.join(runDir, file), 'utf8')) as CpuProfile;
  const { byComponent, otherFunctions } = attributeSelfTime(profile, windowStart, windowEnd);

  const perRequest = (us: number) => us / answered;
  const counted = [...byComponent].filter(([component]) => !EXCLUDED.has(component)).sort((a, b) => b[1] - a[1]);
  const total = counted.reduce((sum, [, us]) => sum + us, 0);
  const lines: string[] = [
    `# Where the service's CPU goes: ${route.name}`,
    '',
    `- ${answered} requests in ${options.durationS} s (${fixed(answered / options.durationS, 0)} req/s under the profiler), ${options.connections} connections, after ${options.warmupS} s warm-up; ${options.seed} agents seeded`,
    `- the service as the bench runs it (dist/process/server.js, NODE_ENV=production, info logs to a file, response validation on), one process, \`node --cpu-prof\` (sampling every 1 ms)`,
    `- ${os.cpus().length} cores, node ${process.version}, load average before ${loadBefore}, after ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`,
    `- profile: ${path.relative(ROOT, path.join(runDir, file))}`,
    '',
    '| component | µs/request | share |',
    '|---|--:|--:|',
    ...counted.map(([component, us]) => `| ${component} | ${fixed(perRequest(us), 1)} | ${fixed((100 * us) / total, 1)} % |`),
    `| **total (main thread, self time)** | **${fixed(perRequest(total), 1)}** | 100 % |`,
    '',
    `CPU of the process from /proc over the same window: ${fixed((processCpuMillis * 1000) / answered, 1)} µs/request (all threads: GC helpers and libuv's pool too, and the profiler's own sampling).`,
    'The profiler samples the main thread by the wall clock: time it spent blocked in a system call (the fsync of each SQLite commit, synchronous=FULL) counts as the calling function\'s self time, and so does time it waited for a core on a machine with more runnable threads than cores. Either makes the total exceed the /proc figure.',
    `Not counted: ${[...EXCLUDED].map((name) => `${name} ${fixed(perRequest(byComponent.get(name) ?? 0), 1)} µs/request`).join(', ')}.`,
    '',
    ...(otherFunctions.size === 0
      ? [`Nothing in "${OTHER}": a row of COMPONENTS (scripts/bench/profile-components.ts) names every function sampled.`]
      : [
          `Top ${TOP_OTHER} functions in "${OTHER}" (add rows to COMPONENTS in scripts/bench/profile-components.ts):`,
          '',
          '| function | µs/request |',
          '|---|--:|',
          ...[...otherFunctions]
            .sort((a, b) => b[1] - a[1])
            .slice(0, TOP_OTHER)
            .map(([name, us]) => `| \`${name}\` | ${fixed(perRequest(us), 1)} |`),
        ]),
  ];
  if (Object.keys(failures).length > 0) lines.push('', `**INVALID: answers other than 2xx during the window: ${JSON.stringify(failures)}**`);
  const markdown = `${lines.join('\n')}\n`;
  console.log(`\n${markdown}`);
  writeFileSync(path.join(benchDir, 'profile.md'), markdown);
  writeFileSync(
    path.join(benchDir, 'profile.json'),
    `${JSON.stringify(
      {
        options,
        answered,
        processCpuMicrosPerRequest: (processCpuMillis * 1000) / answered,
        profile: path.relative(ROOT, path.join(runDir, file)),
        components: Object.fromEntries([...byComponent].map(([component, us]) => [component, perRequest(us)])),
        other: Object.fromEntries([...otherFunctions].sort((a, b) => b[1] - a[1]).map(([name, us]) => [name, perRequest(us)])),
        failures,
      },
      null,
      2,
    )}\n`,
  );
  if (!options.keep) for (const name of readdirSync(runDir).filter((entry) => !entry.endsWith('.cpuprofile'))) rmSync(path.join(runDir, name));
  if (Object.keys(failures).length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error('profile failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
