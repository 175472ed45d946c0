/**
 * The apps the benchmark compares, and how each is started: a child process of its own, plain
 * JavaScript (the service's dist/ build, the comparison apps bundled by esbuild, so no TypeScript
 * hook or esbuild service process sits in anyone's memory), a fresh SQLite file, 127.0.0.1 only.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { DEFAULT_DATABASE_LIMITS } from '../../src/data/database';
import { connectDatabase } from '../../src/data/database';
import { commandOf, readTreeMemory, type ProcessMemory } from './process-tree';

export const ROOT = path.resolve(__dirname, '..', '..');

/** A git command in this checkout, its output trimmed. */
export const git = (...args: string[]): string => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

export type AppName = 'service' | 'service-2w' | 'express' | 'express-classes' | 'fastify' | 'service-no-logs' | 'service-no-validation';
export type ComparisonApp = 'express' | 'fastify';

export interface AppSpec {
  name: AppName;
  description: string;
  /** The service's own environment on top of serviceEnv(); undefined for a comparison app. */
  service?: Record<string, string>;
  /** A comparison app run from another's bundle, with this environment on top. */
  variantOf?: { app: ComparisonApp; env: Record<string, string> };
}

export const APPS: Record<AppName, AppSpec> = {
  service: { name: 'service', description: 'the service as `npm start` runs it (dist/process/server.js): response validation on, info logs to a file', service: {} },
  'service-2w': { name: 'service-2w', description: 'the same with WEB_CONCURRENCY=2 (CPU and RSS of the primary and all its workers)', service: { WEB_CONCURRENCY: '2' } },
  express: { name: 'express', description: 'bare Express 5 + better-sqlite3: the same SQL prepared once, plain X-API-Key compare, no middleware (scripts/bench/express-app.ts)' },
  'express-classes': {
    name: 'express-classes',
    description: "the same bare Express, its requests and responses made with Express's prototypes in place as the service's server makes them (BENCH_EXPRESS_CLASSES=1)",
    variantOf: { app: 'express', env: { BENCH_EXPRESS_CLASSES: '1' } },
  },
  fastify: { name: 'fastify', description: 'Fastify 5: ajv request validation, response schemas, helmet, cors, rate-limit, pino info logs to a file, the same SQL (scripts/bench/fastify-app.ts)' },
  'service-no-logs': { name: 'service-no-logs', description: 'the service with LOG_LEVEL=silent', service: { LOG_LEVEL: 'silent' } },
  'service-no-validation': { name: 'service-no-validation', description: 'the service with VALIDATE_RESPONSES=false', service: { VALIDATE_RESPONSES: 'false' } },
};

export interface RunningApp {
  spec: AppSpec;
  child: ChildProcess;
  pid: number;
  port: number;
  /** Ids of the agents seeded through its own POST /agents. */
  ids: string[];
  /** Request logs (the service and Fastify). */
  logFile?: string;
  /** Every process of its tree once it answered /health: what start-up alone costs. */
  memoryAtReady: ProcessMemory[];
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartOptions {
  /** Where its SQLite file and logs go. */
  dir: string;
  apiKey: string;
  /** From bundleComparisonApps(); needed for express and fastify. */
  bundles?: Record<ComparisonApp, string>;
  /** Node flags before the entry point (--cpu-prof ...). */
  nodeArgs?: string[];
  /** The service's DATABASE_URL instead of a fresh SQLite file in `dir` (a PostgreSQL database). */
  databaseUrl?: string;
  /** More of the service's environment (rate-limit budgets raised above a load). */
  env?: Record<string, string>;
  /** Another checkout of the service to run (its dist/ built): the before of a before-and-after. */
  root?: string;
}

/**
 * An earlier revision's sources, built once into .bench/baseline-<sha>/ (its dist/ and, where it
 * has pages, dist/browser), sharing this checkout's node_modules: the before of a before-and-after.
 */
export function buildBaseline(revision: string, benchDir: string): { root: string; commit: string } {
  const sha = git('rev-parse', '--verify', `${revision}^{commit}`);
  const root = path.join(benchDir, `baseline-${sha.slice(0, 12)}`);
  if (!existsSync(path.join(root, 'dist', 'process', 'server.js'))) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C "${root}"`], { cwd: ROOT, stdio: 'inherit' });
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
    execFileSync(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
    const pages = path.join(root, 'scripts', 'build-browser.ts');
    if (existsSync(pages)) execFileSync(path.join(ROOT, 'node_modules', '.bin', 'tsx'), [pages], { cwd: root, stdio: 'inherit' });
  }
  return { root, commit: `${sha.slice(0, 7)} (${git('log', '-1', '--format=%s', sha).slice(0, 80)})` };
}

/** `npm run build`: the service runs from dist/ as `npm start` runs it. */
export function buildService(): void {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

/**
 * The comparison apps as single CommonJS files in `outDir`, their packages left to node_modules.
 * `outDir` must be inside the repository for those to resolve.
 */
export function bundleComparisonApps(outDir: string): Record<ComparisonApp, string> {
  const entries: Record<ComparisonApp, string> = { express: 'express-app', fastify: 'fastify-app' };
  buildSync({
    entryPoints: Object.values(entries).map((entry) => path.join(__dirname, `${entry}.ts`)),
    outdir: outDir,
    bundle: true,
    packages: 'external',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
  });
  return { express: path.join(outDir, `${entries.express}.js`), fastify: path.join(outDir, `${entries.fastify}.js`) };
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

/** The node flags `npm start` gives the service (its `start` script's), so that the bench runs it as that does. */
export function startFlagsOf(root: string): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const flags = /\bnode((?: --\S+)*) dist\/process\/server\.js\b/.exec(scripts?.start ?? '')?.[1];
  return flags ? flags.trim().split(' ') : [];
}

/** The service's environment for the bench: production, logs at info, limits raised above the load. */
function serviceEnv(port: number, database: string, apiKey: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: `sqlite:${database}`,
    API_KEYS: apiKey,
    JWT_SECRET: randomBytes(48).toString('base64'),
    LOG_LEVEL: 'info',
    // The limiter still runs on every request; it must not answer 429 to the load itself.
    RATE_LIMIT_ROOT_MAX: '1000000',
    RATE_LIMIT_SERVICE_KEY_MAX: '1000000',
  };
}

/** The service's schema, migrated by the service's own code; the comparison apps then open the file. */
async function migrate(filename: string): Promise<void> {
  const db = await connectDatabase({ client: 'sqlite', filename });
  await db.destroy();
}

export async function startApp(spec: AppSpec, options: StartOptions): Promise<RunningApp> {
  const port = await findFreePort();
  const database = path.join(options.dir, `${spec.name}.sqlite`);
  // A variant runs from its app's bundle: bare Express (either variant) writes no log.
  const bundleOf = spec.variantOf?.app ?? (spec.name as ComparisonApp);
  const logFile = bundleOf === 'express' ? undefined : path.join(options.dir, `${spec.name}.log`);
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir() };
  let entry: string;
  let env: Record<string, string>;
  let nodeFlags: string[] = [];
  if (spec.service) {
    entry = path.join(options.root ?? ROOT, 'dist', 'process', 'server.js');
    nodeFlags = startFlagsOf(options.root ?? ROOT);
    env = { ...base, ...serviceEnv(port, database, options.apiKey), ...spec.service, ...options.env };
    if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  } else {
    const bundle = options.bundles?.[bundleOf];
    if (!bundle) throw new Error(`${spec.name}: no bundle (call bundleComparisonApps first)`);
    await migrate(database);
    entry = bundle;
    env = {
      ...base,
      NODE_ENV: 'production',
      PORT: String(port),
      BENCH_DB_FILE: database,
      BENCH_API_KEY: options.apiKey,
      BENCH_BUSY_TIMEOUT_MS: String(DEFAULT_DATABASE_LIMITS.busyTimeoutMs),
      ...(logFile && { BENCH_LOG_FILE: logFile }),
      ...spec.variantOf?.env,
    };
  }
  // The service logs to stdout, as it does in production; a log collector's file stands in.
  const stdout = spec.service && logFile ? openSync(logFile, 'w') : 'ignore';
  const child = spawn(process.execPath, [...nodeFlags, ...(options.nodeArgs ?? []), entry], { cwd: options.root ?? ROOT, env, stdio: ['ignore', stdout, 'pipe'] });
  if (typeof stdout === 'number') closeSync(stdout);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  if (child.pid === undefined) throw new Error(`${spec.name}: could not start`);

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${spec.name} exited with ${child.exitCode} before it was ready:\n${stderr}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then((res) => res.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`${spec.name} not ready after 60 s:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { spec, child, pid: child.pid, port, ids: [], logFile, memoryAtReady: readTreeMemory(child.pid), stderr: () => stderr, exited };
}

/** Seeds through the app's own POST /agents, so each store holds rows its app wrote itself. */
export async function seedAgents(app: RunningApp, count: number, apiKey: string): Promise<void> {
  let created = 0;
  const worker = async () => {
    while (created < count) {
      const n = created++;
      const res = await fetch(`http://127.0.0.1:${app.port}/agents`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey },
        body: JSON.stringify({ name: `seed-${n}`, type: (['type_a', 'type_b', 'type_c'] as const)[n % 3] }),
      });
      if (res.status !== 201) throw new Error(`${app.spec.name}: seeding answered ${res.status}: ${await res.text()}`);
      app.ids.push(((await res.json()) as { id: string }).id);
    }
  };
  await Promise.all(Array.from({ length: 20 }, worker));
}

/** SIGTERM (the service drains and exits 0); SIGKILL to whatever of its tree is left after 15 s. */
export async function stopApp(app: RunningApp): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const descendants = readTreeMemory(app.pid).slice(1);
  app.child.kill('SIGTERM');
  const timer = setTimeout(() => app.child.kill('SIGKILL'), 15_000);
  const exit = await app.exited;
  clearTimeout(timer);
  // A worker its primary left behind: the same pid with the same command line is still ours.
  for (const { pid } of descendants.filter((entry) => commandOf(entry.pid) === entry.command)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // It exited in between.
    }
  }
  return exit;
}
