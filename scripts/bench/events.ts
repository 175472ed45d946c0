/**
 * The events suite of `npm run bench`: what recording every change as an event costs, and how
 * far one process fans events out.
 *
 * Cost: the service as it is now against a baseline build of an earlier commit (by default the
 * last one before the event log existed), side by side. Both are built from their own sources
 * (the baseline from `git archive` into .bench/, sharing this checkout's node_modules) and run as
 * `npm start` runs them. Rounds are interleaved, the order rotating: `POST /api/v1/agents/{id}/tasks`
 * under autocannon on a fresh SQLite file (req/s and CPU µs per request), then the work loop
 * (scripts/bench/work-loop.ts: tasks created, leased and succeeded per second) on each database
 * asked for.
 *
 * Fan-out: one process (SQLite) with `streams` open event streams (raw sockets from this
 * process, each its own connection, all for the same agent), the resident memory before and
 * after they opened, then `events` tasks created one at a time at `rate` per second: for every
 * stream and every task, the time from the create's answer (the event was committed before it
 * was sent) to the event's arrival on that stream, and from the create's request as an upper
 * bound. Every stream must receive every event.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildBaseline, git, ROOT, startApp, stopApp, type AppSpec, type RunningApp } from './apps';
import { REQUEST_TIMEOUT_S, timeRun } from './load';
import { RAISED_LIMITS as WORK_LOOP_LIMITS, runWorkLoop, type WorkLoopConfig, type WorkLoopOptions, type WorkLoopResult } from './work-loop';

export interface EventsOptions {
  /** A git revision to compare with; empty: the parent of the commit that added the event log. */
  baseline?: string;
  rounds: number;
  durationS: number;
  warmupS: number;
  connections: number;
  streams: number;
  events: number;
  rate: number;
  work: WorkLoopOptions;
}

export interface CostMeasurement {
  round: number;
  build: 'baseline' | 'current';
  what: string;
  perSecond: number;
  cpuMicrosPerRequest?: number;
  p99Ms: number;
  problems: string[];
}

export interface FanOutResult {
  streams: number;
  events: number;
  deliveries: number;
  missing: number;
  fromAnswerP50Ms: number;
  fromAnswerP99Ms: number;
  fromAnswerMaxMs: number;
  fromRequestP99Ms: number;
  rssBeforeMb: number;
  rssWithStreamsMb: number;
  kbPerStream: number;
  peakRssMb: number;
}

export interface EventsReport {
  baseline: string;
  current: string;
  cost: CostMeasurement[];
  fanOut: FanOutResult;
}

/** The work loop's raised limits, and no storage quota: the bench measures the work, not the limits. */
const RAISED_LIMITS: Record<string, string> = { ...WORK_LOOP_LIMITS, QUOTA_STORED_BYTES_PER_USER: '0' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/** The revision before the event log: the parent of the commit that added its migration. */
function defaultBaseline(): string {
  const added = git('log', '--diff-filter=A', '--format=%H', '-1', '--', 'src/data/migrations/008-events.ts');
  if (!added) throw new Error('no commit adds src/data/migrations/008-events.ts: pass --baseline=<revision>');
  return `${added}^`;
}

async function createAgent(app: RunningApp, apiKey: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${app.port}/api/v1/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ name: 'bench events', type: 'type_a' }),
  });
  if (res.status !== 201) throw new Error(`creating an agent answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

/** `POST /api/v1/agents/{id}/tasks` under autocannon: req/s, CPU per request, p99. */
async function measurePostTask(app: RunningApp, agentId: string, apiKey: string, options: EventsOptions, round: number, build: CostMeasurement['build']): Promise<CostMeasurement> {
  let next = 0;
  const run = (seconds: number) =>
    autocannon({
      url: `http://127.0.0.1:${app.port}`,
      connections: options.connections,
      duration: seconds,
      timeout: REQUEST_TIMEOUT_S,
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      requests: [
        {
          method: 'POST',
          path: `/api/v1/agents/${agentId}/tasks`,
          setupRequest: (request) => ({ ...request, body: JSON.stringify({ title: `bench ${next++}`, input: { n: next } }) }),
        },
      ],
    });
  return { round, build, what: 'POST task', ...(await timeRun(app, run, options)) };
}

function fromWorkLoop(result: WorkLoopResult, round: number, build: CostMeasurement['build']): CostMeasurement {
  return { round, build, what: `lease loop, ${result.config}`, perSecond: result.succeededPerSecond, cpuMicrosPerRequest: result.cpuMicrosPerTask, p99Ms: result.claimP99Ms, problems: result.problems };
}

async function runCost(options: EventsOptions, benchDir: string, baselineRoot: string): Promise<CostMeasurement[]> {
  const apiKey = `bench-${randomBytes(16).toString('hex')}`;
  const runDir = path.join(benchDir, `events-${Date.now()}`);
  mkdirSync(runDir, { recursive: true });
  const builds = [
    { build: 'baseline' as const, root: baselineRoot },
    { build: 'current' as const, root: ROOT },
  ];
  const measurements: CostMeasurement[] = [];
  // Each start gets a directory of its own: a database the newer build migrated would stop the baseline.
  let runs = 0;
  const freshDir = () => {
    const dir = path.join(runDir, String(++runs));
    mkdirSync(dir);
    return dir;
  };
  try {
    for (let round = 1; round <= options.rounds; round++) {
      // Rotating the order spreads the drift of a shared machine over both builds.
      const order = round % 2 === 1 ? builds : [...builds].reverse();
      for (const { build, root } of order) {
        const spec: AppSpec = { name: 'service', description: `${build} build`, service: {} };
        const dir = freshDir();
        const app = await startApp(spec, { dir, apiKey, root, env: { ...RAISED_LIMITS, LOG_LEVEL: 'warn' } });
        try {
          const agentId = await createAgent(app, apiKey);
          const m = await measurePostTask(app, agentId, apiKey, options, round, build);
          measurements.push(m);
          console.log(`bench: events cost round ${round} ${build.padEnd(8)} POST task ${m.perSecond.toFixed(0).padStart(6)} req/s  ${(m.cpuMicrosPerRequest ?? 0).toFixed(0)} µs CPU/req  p99 ${m.p99Ms.toFixed(1)} ms`);
        } finally {
          await stopApp(app);
          rmSync(dir, { recursive: true, force: true });
        }
      }
      for (const config of options.work.configs as WorkLoopConfig[]) {
        for (const { build, root } of order) {
          const m = fromWorkLoop(await runWorkLoop(config, options.work, freshDir(), root), round, build);
          measurements.push(m);
          console.log(`bench: events cost round ${round} ${build.padEnd(8)} ${m.what.padEnd(18)} ${m.perSecond.toFixed(0).padStart(6)} tasks/s  ${(m.cpuMicrosPerRequest ?? 0).toFixed(0)} µs CPU/task  claim p99 ${m.p99Ms.toFixed(1)} ms${m.problems.length ? `  PROBLEMS ${m.problems.join('; ')}` : ''}`);
        }
      }
    }
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
  return measurements;
}

function residentMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

interface Stream {
  request: http.ClientRequest;
  received: number;
}

/** Opens one event stream on a connection of its own; resolves once its first bytes (`retry:`) arrived. */
function openStream(port: number, agentId: string, apiKey: string, onTask: (taskId: string, at: number) => void): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const stream: Stream = { request: undefined as unknown as http.ClientRequest, received: 0 };
    stream.request = http.get(
      { host: '127.0.0.1', port, path: `/api/v1/events?agent_id=${agentId}&types=task.created`, agent: false, headers: { accept: 'text/event-stream', 'x-api-key': apiKey } },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`an event stream answered ${res.statusCode}`));
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        let opened = false;
        res.on('data', (chunk: string) => {
          const at = performance.now();
          if (!opened) {
            opened = true;
            resolve(stream);
          }
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const match = /"task_id":"([0-9a-f-]{36})"/.exec(block);
            if (match) {
              stream.received++;
              onTask(match[1] as string, at);
            }
          }
        });
        res.on('error', () => undefined);
      },
    );
    stream.request.on('error', reject);
  });
}

async function runFanOut(options: EventsOptions, benchDir: string): Promise<FanOutResult> {
  const apiKey = `bench-${randomBytes(16).toString('hex')}`;
  const runDir = path.join(benchDir, `fan-out-${Date.now()}`);
  mkdirSync(runDir, { recursive: true });
  const spec: AppSpec = { name: 'service', description: 'fan-out', service: {} };
  const app = await startApp(spec, { dir: runDir, apiKey, env: { ...RAISED_LIMITS, LOG_LEVEL: 'warn', EVENT_STREAMS_PER_PRINCIPAL: String(options.streams + 10) } });
  const streams: Stream[] = [];
  try {
    const agentId = await createAgent(app, apiKey);
    await sleep(1000);
    const rssBeforeMb = residentMb(app.pid, 'VmRSS');
    const arrivals: Array<[string, number]> = [];
    const onTask = (taskId: string, at: number) => void arrivals.push([taskId, at]);
    while (streams.length < options.streams) {
      const batch = Math.min(50, options.streams - streams.length);
      streams.push(...(await Promise.all(Array.from({ length: batch }, () => openStream(app.port, agentId, apiKey, onTask)))));
    }
    await sleep(2000);
    const rssWithStreamsMb = residentMb(app.pid, 'VmRSS');
    console.log(`bench: ${streams.length} event streams open; resident ${rssBeforeMb.toFixed(1)} MB before, ${rssWithStreamsMb.toFixed(1)} MB with them`);

    const requested = new Map<string, number>();
    const answered = new Map<string, number>();
    const interval = 1000 / options.rate;
    const started = performance.now();
    for (let n = 0; n < options.events; n++) {
      const due = started + n * interval;
      if (due > performance.now()) await sleep(due - performance.now());
      const sent = performance.now();
      const res = await fetch(`http://127.0.0.1:${app.port}/api/v1/agents/${agentId}/tasks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ title: `fan-out ${n}` }),
      });
      const at = performance.now();
      if (res.status !== 201) throw new Error(`creating a task answered ${res.status}: ${await res.text()}`);
      const taskId = ((await res.json()) as { data: { id: string } }).data.id;
      requested.set(taskId, sent);
      answered.set(taskId, at);
    }
    const expected = options.events * streams.length;
    const deadline = performance.now() + 10_000;
    while (arrivals.length < expected && performance.now() < deadline) await sleep(50);

    const fromAnswer: number[] = [];
    const fromRequest: number[] = [];
    for (const [taskId, at] of arrivals) {
      const sent = requested.get(taskId);
      const done = answered.get(taskId);
      if (sent === undefined || done === undefined) continue;
      // An event may reach a stream before this process has read the create's answer: no wait at all.
      fromAnswer.push(Math.max(0, at - done));
      fromRequest.push(at - sent);
    }
    return {
      streams: streams.length,
      events: options.events,
      deliveries: fromAnswer.length,
      missing: expected - fromAnswer.length,
      fromAnswerP50Ms: quantile(fromAnswer, 0.5),
      fromAnswerP99Ms: quantile(fromAnswer, 0.99),
      fromAnswerMaxMs: quantile(fromAnswer, 1),
      fromRequestP99Ms: quantile(fromRequest, 0.99),
      rssBeforeMb,
      rssWithStreamsMb,
      kbPerStream: ((rssWithStreamsMb - rssBeforeMb) * 1024) / streams.length,
      peakRssMb: residentMb(app.pid, 'VmHWM'),
    };
  } finally {
    for (const stream of streams) stream.request.destroy();
    await stopApp(app);
    rmSync(runDir, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  return quantile(values, 0.5);
}

export function renderEvents(report: EventsReport, options: EventsOptions): string {
  const whats = [...new Set(report.cost.map((m) => m.what))];
  const rows = whats.map((what) => {
    const of = (build: CostMeasurement['build']) => report.cost.filter((m) => m.what === what && m.build === build);
    const before = median(of('baseline').map((m) => m.perSecond));
    const after = median(of('current').map((m) => m.perSecond));
    const cpu = (build: CostMeasurement['build']) => median(of(build).map((m) => m.cpuMicrosPerRequest ?? Number.NaN).filter(Number.isFinite));
    const cpuText = Number.isFinite(cpu('current')) ? `${cpu('baseline').toFixed(0)} → ${cpu('current').toFixed(0)}` : '';
    const p99 = (build: CostMeasurement['build']) => median(of(build).map((m) => m.p99Ms));
    // Each round's two runs ran back to back: their ratio cancels the drift of a shared machine between rounds.
    const paired = of('current')
      .map((current) => ({ current, baseline: of('baseline').find((m) => m.round === current.round) }))
      .filter((pair): pair is { current: CostMeasurement; baseline: CostMeasurement } => pair.baseline !== undefined)
      .map(({ current, baseline }) => ((current.perSecond - baseline.perSecond) / baseline.perSecond) * 100);
    const range = paired.length > 0 ? `${median(paired).toFixed(1)} % (${Math.min(...paired).toFixed(1)} to ${Math.max(...paired).toFixed(1)})` : '';
    return `| ${what} | ${before.toFixed(0)} | ${after.toFixed(0)} | ${(((after - before) / before) * 100).toFixed(1)} % | ${range} | ${cpuText} | ${p99('baseline').toFixed(1)} → ${p99('current').toFixed(1)} |`;
  });
  const f = report.fanOut;
  const problems = report.cost.flatMap((m) => m.problems.map((p) => `round ${m.round} ${m.build} ${m.what}: ${p}`));
  return [
    '## Events',
    '',
    `Baseline ${report.baseline}; current ${report.current}. ${options.rounds} interleaved rounds (the order alternating), medians; POST task: autocannon, ${options.connections} connections, ${options.warmupS} s warm-up + ${options.durationS} s; lease loop: ${options.work.workers} workers, ${options.work.producers} producers, ${options.work.agents} agent(s).`,
    '',
    '| Load | Baseline /s | With events /s | Change of the medians | Change within a round: median (range) | CPU µs per request (per task for the loop) | p99 ms (claim p99 for the loop) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `Fan-out: ${f.streams} open streams on one process (SQLite), ${f.events} tasks created at ${options.rate} per second; ${f.deliveries} deliveries, ${f.missing} missing. From the create's answer to the event on a stream: p50 ${f.fromAnswerP50Ms.toFixed(1)} ms, p99 ${f.fromAnswerP99Ms.toFixed(1)} ms, max ${f.fromAnswerMaxMs.toFixed(1)} ms (from the create's request: p99 ${f.fromRequestP99Ms.toFixed(1)} ms). Resident memory ${f.rssBeforeMb.toFixed(1)} MB before the streams, ${f.rssWithStreamsMb.toFixed(1)} MB with them: ${f.kbPerStream.toFixed(1)} KiB per open stream; peak ${f.peakRssMb.toFixed(1)} MB.`,
    ...(problems.length > 0 ? ['', `Problems: ${problems.join('; ')}`] : []),
    '',
  ].join('\n');
}

export async function runEventsSuite(options: EventsOptions, benchDir: string): Promise<{ report: EventsReport; failed: boolean }> {
  const baseline = buildBaseline(options.baseline || defaultBaseline(), benchDir);
  const current = `${git('rev-parse', '--short', 'HEAD')} (${git('rev-parse', '--abbrev-ref', 'HEAD')})`;
  console.log(`bench: events suite; baseline ${baseline.commit}, current ${current}`);
  const cost = await runCost(options, benchDir, baseline.root);
  const fanOut = await runFanOut(options, benchDir);
  const failed = fanOut.missing > 0 || cost.some((m) => m.problems.length > 0);
  return { report: { baseline: baseline.commit, current, cost, fanOut }, failed };
}
