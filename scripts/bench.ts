/**
 * `npm run bench`: the service against a minimal Express + knex app doing the same database work.
 *
 * Both run in child processes of their own (`node --require tsx/cjs`, so both carry the same
 * TypeScript hook), each on a fresh SQLite file under .bench/, each seeded with the same number of
 * agents through its own POST /agents. autocannon (in this process, on the same machine) drives
 * GET /agents/{id}, GET /agents?limit=100 and POST /agents on 127.0.0.1 only.
 *
 * Options (flag or environment variable):
 *   --duration=10      BENCH_DURATION      seconds measured per route and app
 *   --warmup=2         BENCH_WARMUP        seconds of unrecorded load before each measurement
 *   --connections=50   BENCH_CONNECTIONS
 *   --seed=1000        BENCH_SEED          agents created in each app before measuring
 *   --variants=ours,ours-no-logs,ours-no-validation   BENCH_VARIANTS  (ours, the headline, always runs;
 *                      ours-bare has both logs and response validation off)
 *   --keep             BENCH_KEEP=1        keep the SQLite files and logs (large) next to the report
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const ROOT = path.resolve(__dirname, '..');
const API_KEY = `bench-${randomBytes(16).toString('hex')}`;
const TARGET_RATIO = 0.7;
const TARGET_P99_MS = 50;

interface Options {
  durationS: number;
  warmupS: number;
  connections: number;
  seed: number;
  keep: boolean;
  variants: VariantName[];
}

type VariantName = 'minimal' | 'ours' | 'ours-no-logs' | 'ours-no-validation' | 'ours-bare';

interface Variant {
  name: VariantName;
  description: string;
  /** Service settings; undefined for the minimal app. */
  service?: { logs: boolean; validateResponses: boolean };
}

const VARIANTS: Record<VariantName, Variant> = {
  minimal: { name: 'minimal', description: 'Express + knex, X-API-Key string compare, nothing else' },
  ours: { name: 'ours', description: 'the service as shipped: response validation on, info logs to a file', service: { logs: true, validateResponses: true } },
  'ours-no-logs': { name: 'ours-no-logs', description: 'LOG_LEVEL=silent, response validation on', service: { logs: false, validateResponses: true } },
  'ours-no-validation': { name: 'ours-no-validation', description: 'VALIDATE_RESPONSES=false, info logs to a file', service: { logs: true, validateResponses: false } },
  'ours-bare': { name: 'ours-bare', description: 'LOG_LEVEL=silent and VALIDATE_RESPONSES=false', service: { logs: false, validateResponses: false } },
};

interface RunningApp {
  variant: Variant;
  child: ChildProcess;
  pid: number;
  port: number;
  ids: string[];
  stderr: () => string;
  exited: Promise<number | null>;
}

interface Route {
  name: string;
  options(app: RunningApp): Partial<autocannon.Options>;
}

interface Measurement {
  route: string;
  app: VariantName;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Server CPU (user + system) per answered request: steadier than req/s on a shared machine. */
  cpuMicrosPerRequest: number;
  /** VmHWM of the app's process after this measurement (it only grows). */
  peakRssMb: number;
  non2xx: number;
  errors: number;
}

function readOptions(argv: string[], env: NodeJS.ProcessEnv): Options {
  const flag = (name: string): string | undefined => argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const numberOf = (name: string, envName: string, fallback: number, min = 1): number => {
    const raw = flag(name) ?? env[envName];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min) throw new Error(`--${name} / ${envName} must be a number of at least ${min} (got "${raw}")`);
    return value;
  };
  const listed = (flag('variants') ?? env.BENCH_VARIANTS ?? 'ours,ours-no-logs,ours-no-validation').split(',').map((name) => name.trim()).filter(Boolean);
  for (const name of listed) {
    if (!(name in VARIANTS) || name === 'minimal') throw new Error(`unknown variant "${name}": use ${Object.keys(VARIANTS).filter((n) => n !== 'minimal').join(', ')}`);
  }
  const variants = ['minimal', 'ours', ...listed.filter((name) => name !== 'ours')] as VariantName[];
  return {
    durationS: numberOf('duration', 'BENCH_DURATION', 10),
    warmupS: numberOf('warmup', 'BENCH_WARMUP', 2, 0),
    connections: Math.round(numberOf('connections', 'BENCH_CONNECTIONS', 50)),
    seed: Math.round(numberOf('seed', 'BENCH_SEED', 1000)),
    keep: argv.includes('--keep') || env.BENCH_KEEP === '1',
    variants: [...new Set(variants)],
  };
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function startApp(variant: Variant, runDir: string): Promise<RunningApp> {
  const port = await findFreePort();
  const database = path.join(runDir, `${variant.name}.sqlite`);
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir() };
  const env: Record<string, string> = variant.service
    ? {
        ...base,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: `sqlite:${database}`,
        API_KEYS: API_KEY,
        JWT_SECRET: randomBytes(48).toString('base64'),
        LOG_LEVEL: variant.service.logs ? 'info' : 'silent',
        VALIDATE_RESPONSES: String(variant.service.validateResponses),
        // The limiter still runs on every request; it must not answer 429 to the load itself.
        RATE_LIMIT_ROOT_MAX: '1000000',
      }
    : { ...base, NODE_ENV: 'production', PORT: String(port), MINIMAL_DB_FILE: database, MINIMAL_API_KEY: API_KEY };
  const entry = variant.service ? 'src/server.ts' : 'scripts/bench-minimal-app.ts';
  // Production logs go to a file, as they would to a log collector: formatting and writing are paid for.
  const logFd = openSync(path.join(runDir, `${variant.name}.log`), 'w');
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', entry], { cwd: ROOT, env, stdio: ['ignore', logFd, 'pipe'] });
  closeSync(logFd);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  if (child.pid === undefined) throw new Error(`${variant.name}: could not start`);
  const app: RunningApp = { variant, child, pid: child.pid, port, ids: [], stderr: () => stderr, exited };

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${variant.name} exited with ${child.exitCode} before it was ready:\n${stderr}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then((res) => res.ok, () => false);
    if (ok) return app;
    if (Date.now() > deadline) throw new Error(`${variant.name} not ready after 60 s:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Seeds through the app's own POST /agents, so both stores hold rows each app wrote itself. */
async function seedAgents(app: RunningApp, count: number): Promise<void> {
  let created = 0;
  const worker = async () => {
    while (created < count) {
      const n = created++;
      const res = await fetch(`http://127.0.0.1:${app.port}/agents`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': API_KEY },
        body: JSON.stringify({ name: `seed-${n}`, type: (['type_a', 'type_b', 'type_c'] as const)[n % 3] }),
      });
      if (res.status !== 201) throw new Error(`${app.variant.name}: seeding answered ${res.status}: ${await res.text()}`);
      app.ids.push(((await res.json()) as { id: string }).id);
    }
  };
  await Promise.all(Array.from({ length: 20 }, worker));
}

const ROUTES: Route[] = [
  {
    name: 'GET /agents/{id}',
    options: (app) => {
      let next = 0;
      return {
        requests: [
          {
            method: 'GET',
            setupRequest: (request) => ({ ...request, path: `/agents/${app.ids[next++ % app.ids.length]}` }),
          },
        ],
      };
    },
  },
  { name: 'GET /agents?limit=100', options: () => ({ requests: [{ method: 'GET', path: '/agents?limit=100' }] }) },
  {
    name: 'POST /agents',
    options: () => {
      let next = 0;
      return {
        requests: [
          {
            method: 'POST',
            path: '/agents',
            setupRequest: (request) => ({ ...request, body: JSON.stringify({ name: `bench-${next++}`, type: 'type_b' }) }),
          },
        ],
      };
    },
  },
];

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

function cpuMillis(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

function peakRssMb(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

function load(app: RunningApp, route: Route, connections: number, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${app.port}`,
    connections,
    duration: seconds,
    headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
    ...route.options(app),
  });
}

async function measure(app: RunningApp, route: Route, options: Options): Promise<Measurement> {
  if (options.warmupS > 0) await load(app, route, options.connections, options.warmupS);
  const cpuBefore = cpuMillis(app.pid);
  const result = await load(app, route, options.connections, options.durationS);
  const cpu = cpuMillis(app.pid) - cpuBefore;
  const answered = result['2xx'];
  return {
    route: route.name,
    app: app.variant.name,
    requestsPerSecond: answered / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuMicrosPerRequest: answered > 0 ? (cpu * 1000) / answered : Number.NaN,
    peakRssMb: peakRssMb(app.pid),
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function stopApp(app: RunningApp): Promise<{ exitCode: number | null; peakRssMb: number }> {
  const peak = peakRssMb(app.pid);
  app.child.kill('SIGTERM');
  const timer = setTimeout(() => app.child.kill('SIGKILL'), 15_000);
  const exitCode = await app.exited;
  clearTimeout(timer);
  return { exitCode, peakRssMb: peak };
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const pad = (text: string, width: number) => text.padEnd(width);
const padLeft = (text: string, width: number) => text.padStart(width);

function renderReport(options: Options, measurements: Measurement[], context: Record<string, string>): string {
  const lines: string[] = [];
  lines.push('Agent Fleet API benchmark');
  for (const [key, value] of Object.entries(context)) lines.push(`  ${key}: ${value}`);
  lines.push('');
  lines.push('Apps:');
  for (const name of options.variants) lines.push(`  ${pad(name, 20)} ${VARIANTS[name].description}`);
  lines.push('');
  const header = `${pad('route', 22)} ${pad('app', 20)} ${padLeft('req/s', 8)} ${padLeft('p50 ms', 7)} ${padLeft('p99 ms', 7)} ${padLeft('CPU µs/req', 10)} ${padLeft('peak RSS MB', 11)} ${padLeft('ratio', 6)} ${padLeft('non-2xx', 7)}`;
  lines.push(header);
  lines.push('-'.repeat(header.length));
  for (const route of ROUTES) {
    const minimal = measurements.find((m) => m.route === route.name && m.app === 'minimal');
    for (const name of options.variants) {
      const m = measurements.find((x) => x.route === route.name && x.app === name);
      if (!m) continue;
      const ratio = minimal && name !== 'minimal' ? fixed(m.requestsPerSecond / minimal.requestsPerSecond, 2) : '';
      lines.push(
        `${pad(name === 'minimal' ? route.name : '', 22)} ${pad(name, 20)} ${padLeft(fixed(m.requestsPerSecond, 0), 8)} ${padLeft(fixed(m.p50Ms, 1), 7)} ${padLeft(fixed(m.p99Ms, 1), 7)} ${padLeft(fixed(m.cpuMicrosPerRequest, 0), 10)} ${padLeft(fixed(m.peakRssMb, 0), 11)} ${padLeft(ratio, 6)} ${padLeft(String(m.non2xx + m.errors), 7)}`,
      );
    }
  }
  lines.push('');
  lines.push(`Targets (headline "ours" against "minimal"): ratio of req/s >= ${TARGET_RATIO}, p99 < ${TARGET_P99_MS} ms`);
  let allPass = true;
  for (const route of ROUTES) {
    const minimal = measurements.find((m) => m.route === route.name && m.app === 'minimal');
    const ours = measurements.find((m) => m.route === route.name && m.app === 'ours');
    if (!minimal || !ours) continue;
    const ratio = ours.requestsPerSecond / minimal.requestsPerSecond;
    const ratioOk = ratio >= TARGET_RATIO;
    const p99Ok = ours.p99Ms < TARGET_P99_MS;
    const clean = ours.non2xx + ours.errors === 0 && minimal.non2xx + minimal.errors === 0;
    allPass &&= ratioOk && p99Ok && clean;
    lines.push(
      `  ${pad(route.name, 22)} ratio ${fixed(ratio, 2)} ${ratioOk ? 'PASS' : 'FAIL'}   p99 ${fixed(ours.p99Ms, 1)} ms ${p99Ok ? 'PASS' : 'FAIL'}${clean ? '' : '   (non-2xx or errors seen: run invalid)'}`,
    );
  }
  lines.push(`  overall: ${allPass ? 'PASS' : 'FAIL'}`);
  lines.push(
    `  (each connection waits for its answer, so mean latency is about ${options.connections} connections / req/s: p99 < ${TARGET_P99_MS} ms at this concurrency needs well over ${Math.round((options.connections * 1000) / TARGET_P99_MS)} req/s; the minimal app's p99 shows what the machine allows)`,
  );

  const profiled = options.variants.filter((name) => name !== 'minimal' && name !== 'ours');
  if (profiled.length > 0) {
    lines.push('');
    lines.push('Where the service spends its CPU (µs per request, from the variants above):');
    for (const route of ROUTES) {
      const cpuOf = (name: VariantName) => measurements.find((m) => m.route === route.name && m.app === name)?.cpuMicrosPerRequest;
      const ours = cpuOf('ours');
      const minimal = cpuOf('minimal');
      if (ours === undefined || minimal === undefined) continue;
      const parts = [`total ${fixed(ours, 0)} (minimal ${fixed(minimal, 0)})`];
      const noLogs = cpuOf('ours-no-logs');
      const noValidation = cpuOf('ours-no-validation');
      const bare = cpuOf('ours-bare');
      if (noLogs !== undefined) parts.push(`request logs ~${fixed(ours - noLogs, 0)}`);
      if (noValidation !== undefined) parts.push(`response validation ~${fixed(ours - noValidation, 0)}`);
      if (bare !== undefined) parts.push(`everything else beyond minimal ~${fixed(bare - minimal, 0)}`);
      lines.push(`  ${pad(route.name, 22)} ${parts.join('; ')}`);
    }
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2), process.env);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const runDir = path.join(ROOT, '.bench', `run-${stamp}`);
  mkdirSync(runDir, { recursive: true });
  const loadBefore = os.loadavg().map((value) => value.toFixed(2)).join(' ');
  const totalSeconds = options.variants.length * ROUTES.length * (options.durationS + options.warmupS);
  console.log(`bench: ${options.variants.join(', ')}; ${ROUTES.length} routes x ${options.durationS} s (+${options.warmupS} s warm-up) each, ${options.connections} connections: about ${Math.ceil(totalSeconds / 60)} min of load`);
  console.log(`bench: files in ${path.relative(ROOT, runDir)}/`);

  const apps: RunningApp[] = [];
  const stopAll = async () => {
    for (const app of apps.splice(0)) if (app.child.exitCode === null) await stopApp(app);
  };
  process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
  try {
    for (const name of options.variants) {
      const app = await startApp(VARIANTS[name], runDir);
      apps.push(app);
      await seedAgents(app, options.seed);
      console.log(`bench: ${name} ready on 127.0.0.1:${app.port} (pid ${app.pid}), ${app.ids.length} agents seeded`);
    }
    const measurements: Measurement[] = [];
    for (const [index, route] of ROUTES.entries()) {
      // Rotating the order spreads the drift of a shared machine over every app.
      const order = apps.map((_, i) => apps[(i + index) % apps.length] as RunningApp);
      for (const app of order) {
        const m = await measure(app, route, options);
        measurements.push(m);
        console.log(`bench: ${pad(route.name, 22)} ${pad(app.variant.name, 20)} ${fixed(m.requestsPerSecond, 0)} req/s, p99 ${fixed(m.p99Ms, 1)} ms`);
      }
    }
    const exits: Record<string, string> = {};
    for (const app of apps) {
      const { exitCode } = await stopApp(app);
      exits[app.variant.name] = String(exitCode);
      if (exitCode !== 0) console.error(`bench: ${app.variant.name} exited with ${exitCode}:\n${app.stderr()}`);
    }
    apps.length = 0;
    const logSizes = options.variants
      .filter((name) => VARIANTS[name].service?.logs)
      .map((name) => `${name} ${(statSync(path.join(runDir, `${name}.log`)).size / 1e6).toFixed(0)} MB`);
    const context = {
      machine: `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), shared with other work while this ran`,
      'load average (1/5/15 min)': `before ${loadBefore}; after ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`,
      node: process.version,
      load: `autocannon in the bench process on the same cores, ${options.connections} connections, each sending its next request as soon as the last is answered, ${options.durationS} s per route and app after ${options.warmupS} s warm-up`,
      data: `${options.seed} agents seeded per app; fresh SQLite file each; 127.0.0.1 only`,
      'exit codes after SIGTERM': Object.entries(exits).map(([name, code]) => `${name} ${code}`).join(', '),
      'request logs written': logSizes.join(', '),
    };
    const report = renderReport(options, measurements, context);
    console.log(`\n${report}`);
    writeFileSync(path.join(runDir, 'report.txt'), `${report}\n`);
    writeFileSync(path.join(runDir, 'results.json'), `${JSON.stringify({ options, context, measurements }, null, 2)}\n`);
    writeFileSync(path.join(ROOT, '.bench', 'latest.txt'), `${report}\n`);
    if (!options.keep) {
      for (const file of readdirSync(runDir).filter((name) => /\.(log|sqlite(-wal|-shm)?)$/.test(name))) rmSync(path.join(runDir, file));
    }
  } finally {
    await stopAll();
  }
}

main().catch((error: unknown) => {
  console.error('bench failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
