/**
 * The workspaces suite of `npm run bench`: what reading through a workspace's membership costs a
 * person's reads. Every read of a person's agent joins their membership (the role decides 403 or
 * go), and every list scopes to their workspaces; before workspaces, a read compared the agent's
 * owner. The service as it is (the checkout, or `--current`) against a baseline build of the
 * commit before workspaces, side by side on the same machine, on a fresh SQLite file each:
 * a user signs up, takes a token (`POST /token`), owns `agents` agents, and autocannon reads one
 * agent and the list of 100 with that bearer token. Rounds are interleaved, the order rotating;
 * each round's ratio (current over baseline) is paired, and the report gives their median.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildBaseline, startApp, stopApp, type AppSpec, type RunningApp } from './apps';
import { REQUEST_TIMEOUT_S, timeRun } from './load';
import { assertPackagesCovered, currentBuild, DISTURBED_CORES, fixed, median, percent, waitForQuiet } from './loop-rounds';
import { RAISED_LIMITS } from './work-loop';

export interface WorkspacesOptions {
  /** The build before workspaces (default: the parent of the commit that added them). */
  baseline?: string;
  /** What to measure as the service now (default: the checkout). */
  current?: string;
  rounds: number;
  durationS: number;
  warmupS: number;
  connections: number;
  /** Agents the user owns (the list reads 100 of them). */
  agents: number;
  quietCores: number;
  quietWaitS: number;
}

type Build = 'baseline' | 'current';
type Read = 'GET one agent' | 'GET 100 agents';
const READS: Read[] = ['GET one agent', 'GET 100 agents'];

export interface WorkspacesMeasurement {
  round: number;
  build: Build;
  read: Read;
  perSecond: number;
  cpuMicrosPerRequest: number;
  p99Ms: number;
  problems: string[];
}

export interface WorkspacesReport {
  baseline: string;
  current: string;
  measurements: WorkspacesMeasurement[];
  /** Per read: the median of the rounds' paired ratios (current / baseline), of req/s and of CPU µs per request. */
  ratios: Array<{ read: Read; throughput: number; cpu: number; pairs: number }>;
}

/** The commit that added workspaces; the baseline is its parent. */
export const WORKSPACES_BASELINE = '9271a50~1';

async function json(app: RunningApp, method: string, url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`http://127.0.0.1:${app.port}${url}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A user of its own with `count` agents, signed in with the password grant: their bearer token and one agent's id. */
async function userWithAgents(app: RunningApp, count: number): Promise<{ token: string; agentId: string }> {
  const email = `bench-${randomBytes(6).toString('hex')}@example.test`;
  const password = `bench ${randomBytes(12).toString('hex')} password`;
  const signedUp = await json(app, 'POST', '/api/v1/users', { name: 'Bench', email, password });
  if (signedUp.status !== 201) throw new Error(`sign-up answered ${signedUp.status}: ${JSON.stringify(signedUp.body)}`);
  const res = await fetch(`http://127.0.0.1:${app.port}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'password', username: email, password }).toString() });
  if (res.status !== 200) throw new Error(`the token answered ${res.status}`);
  const token = ((await res.json()) as { access_token: string }).access_token;
  let agentId = '';
  for (let n = 0; n < count; n++) {
    const created = await json(app, 'POST', '/api/v1/agents', { name: `bench-${n}`, type: 'type_a' }, { authorization: `Bearer ${token}` });
    if (created.status !== 201) throw new Error(`creating an agent answered ${created.status}`);
    agentId = String((created.body.data as { id: string }).id);
  }
  return { token, agentId };
}

async function measure(app: RunningApp, read: Read, path: string, token: string, options: WorkspacesOptions, round: number, build: Build): Promise<WorkspacesMeasurement> {
  const run = (seconds: number) =>
    autocannon({ url: `http://127.0.0.1:${app.port}${path}`, connections: options.connections, duration: seconds, timeout: REQUEST_TIMEOUT_S, headers: { authorization: `Bearer ${token}` } });
  return { round, build, read, ...(await timeRun(app, run, options)) };
}

export async function runWorkspacesSuite(options: WorkspacesOptions, benchDir: string): Promise<{ report: WorkspacesReport; failed: boolean }> {
  const baselineRevision = options.baseline ?? WORKSPACES_BASELINE;
  assertPackagesCovered(baselineRevision);
  const baseline = buildBaseline(baselineRevision, benchDir);
  const current = currentBuild(options.current, benchDir);
  const builds: Array<{ build: Build; root?: string }> = [
    { build: 'baseline', root: baseline.root },
    { build: 'current', root: current.root },
  ];
  const runDir = path.join(benchDir, `workspaces-${Date.now()}`);
  mkdirSync(runDir, { recursive: true });
  const apiKey = `bench-${randomBytes(16).toString('hex')}`;
  const measurements: WorkspacesMeasurement[] = [];
  let runs = 0;
  try {
    for (let round = 1; round <= options.rounds; round++) {
      const order = round % 2 === 1 ? builds : [...builds].reverse();
      for (const { build, root } of order) {
        // A directory of its own per start: a database the newer build migrated would stop the baseline.
        const dir = path.join(runDir, String(++runs));
        mkdirSync(dir);
        const spec: AppSpec = { name: 'service', description: `${build} build`, service: {} };
        const app = await startApp(spec, { dir, apiKey, root, env: { ...RAISED_LIMITS, LOG_LEVEL: 'warn' } });
        try {
          const { token, agentId } = await userWithAgents(app, options.agents);
          for (const read of READS) {
            const waited = await waitForQuiet(options.quietCores, options.quietWaitS);
            const m = await measure(app, read, read === 'GET one agent' ? `/api/v1/agents/${agentId}` : '/api/v1/agents?limit=100', token, options, round, build);
            measurements.push(m);
            console.log(
              `bench: workspaces round ${round} ${build.padEnd(8)} ${read.padEnd(14)} ${m.perSecond.toFixed(0).padStart(6)} req/s  ${m.cpuMicrosPerRequest.toFixed(0)} µs CPU/req  p99 ${m.p99Ms.toFixed(1)} ms${waited > 1 ? `  (waited ${waited.toFixed(0)} s for a quiet machine)` : ''}${m.problems.length ? `  PROBLEMS ${m.problems.join('; ')}` : ''}`,
            );
          }
        } finally {
          await stopApp(app);
          rmSync(dir, { recursive: true, force: true });
        }
      }
    }
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
  const ratios = READS.map((read) => {
    const of = (build: Build, round: number) => measurements.find((m) => m.read === read && m.build === build && m.round === round);
    const pairs = [...new Set(measurements.map((m) => m.round))].flatMap((round) => {
      const before = of('baseline', round);
      const after = of('current', round);
      return before && after ? [{ throughput: after.perSecond / before.perSecond, cpu: after.cpuMicrosPerRequest / before.cpuMicrosPerRequest }] : [];
    });
    return { read, throughput: median(pairs.map((pair) => pair.throughput)), cpu: median(pairs.map((pair) => pair.cpu)), pairs: pairs.length };
  });
  const failed = measurements.some((m) => m.problems.length > 0);
  return { report: { baseline: baseline.commit, current: current.name, measurements, ratios }, failed };
}

export function renderWorkspaces(report: WorkspacesReport, options: WorkspacesOptions): string {
  const lines = [
    '## Workspaces: what the membership check costs a person\'s reads',
    '',
    `${report.current} against ${report.baseline} (before workspaces), ${options.rounds} interleaved rounds of ${options.warmupS} s + ${options.durationS} s, ${options.connections} connections, one process on SQLite, a user with ${options.agents} agents and a bearer token. A run is made on a quiet machine (other load under ${DISTURBED_CORES} cores). Ratios are the median of the rounds' paired ratios (current / baseline).`,
    '',
    '| Read | Baseline req/s (median) | Current req/s (median) | Throughput, paired | CPU µs per request, paired |',
    '| --- | ---: | ---: | ---: | ---: |',
  ];
  for (const ratio of report.ratios) {
    const of = (build: Build) => median(report.measurements.filter((m) => m.read === ratio.read && m.build === build).map((m) => m.perSecond));
    lines.push(`| ${ratio.read} | ${fixed(of('baseline'), 0)} | ${fixed(of('current'), 0)} | ${percent(ratio.throughput)} (${fixed(ratio.throughput, 3)}) | ${percent(ratio.cpu)} (${fixed(ratio.cpu, 3)}) |`);
  }
  return `${lines.join('\n')}\n`;
}
