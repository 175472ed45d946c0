/**
 * The work loop of `npm run bench`: tasks created, leased and succeeded per second over HTTP.
 *
 * For each database (SQLite, PostgreSQL) and process count (one process, WEB_CONCURRENCY=2) it
 * starts the service as `npm start` runs it on a fresh database, creates the agents and one agent
 * key for each (scopes tasks:write and tasks:work), then runs, in this process:
 * - producers that queue tasks through `POST /api/v1/agents/{id}/tasks`, keeping the backlog
 *   below a bound so that claims measure a queue that holds work, not an ever-growing table;
 * - workers (16 by default, spread over the agents) that claim with `POST .../leases`
 *   (`wait_seconds` 0, so that a claim's latency is its own work; an empty answer is counted and
 *   the worker tries again 20 ms later) and succeed each task with `PATCH .../leases/{id}`.
 * A warm-up runs first, unrecorded. After the measured window the producers stop, the workers
 * drain what is left, and every task is checked: succeeded, leased exactly once (`attempts` 1),
 * and the number of successes the service acknowledged equals the number of tasks.
 *
 * Optionally (the attempts suite, scripts/bench/attempts.ts) each task's lease is also extended
 * once (`PATCH .../leases/{id}` with `ttl_seconds`) before its outcome, the task logs lines
 * through its lease (`POST .../leases/{id}/logs`, in batches of at most 100 as the typed client's
 * worker sends them), and the heartbeat and the outcome carry usage. Then a sample of the tasks
 * is read back too: every line kept, and the usage summed on the task.
 *
 * The steering suite (scripts/bench/steering.ts) may also give each agent a `max_concurrency`
 * before the loop (`capShare` of the workers claiming for it), and queue `scheduledTasks` tasks
 * with `run_at` a day ahead through the API before the warm-up: they are not claimable during the
 * run, and the check after the drain expects each still queued, never leased.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { startApp, stopApp, type AppSpec, type RunningApp } from './apps';
import { cpuMillisBetween, machineBusyMillis, sampleCpu, type CpuSample } from './process-tree';

export interface WorkLoopOptions {
  durationS: number;
  warmupS: number;
  workers: number;
  agents: number;
  producers: number;
  backlog: number;
  /** Where a database per PostgreSQL run is created (and dropped after it). */
  pgUrl: string;
  configs: WorkLoopConfig[];
  /** Each task's lease is extended once (a heartbeat) before its outcome. */
  heartbeat?: boolean;
  /** Log lines each task appends through its lease before its outcome (0: none). */
  logLines?: number;
  /** Lines per `POST .../logs` (the service takes 1 to 100; the typed client's worker sends 100 at most). */
  logBatch?: number;
  /** The heartbeat and the outcome each report usage (tokens, cost, model). */
  usage?: boolean;
  /**
   * Each agent gets `max_concurrency` = this share of the workers claiming for it (at least 1),
   * through `PATCH /api/v1/agents/{id}`, before the loop: 1 checks the cap on every claim without
   * it binding, 0.5 makes it bind. Unset: no cap (and no request: a build before the cap runs too).
   */
  capShare?: number;
  /** Tasks queued before the warm-up with `run_at` a day ahead, spread over the agents (0 or unset: none). */
  scheduledTasks?: number;
}

export type WorkLoopConfig = 'sqlite' | 'sqlite-2w' | 'pg' | 'pg-2w';
export const WORK_LOOP_CONFIGS: WorkLoopConfig[] = ['sqlite', 'sqlite-2w', 'pg', 'pg-2w'];

export interface WorkLoopResult {
  config: WorkLoopConfig;
  seconds: number;
  createdPerSecond: number;
  succeededPerSecond: number;
  /** CPU the service's processes spent per task leased and succeeded (its create, claim and completion; not the database server's). */
  cpuMicrosPerTask: number;
  /** CPU this process (the producers and workers: the load generator) spent per task. */
  generatorCpuMicrosPerTask?: number;
  /** PostgreSQL: CPU of the server's backends connected to the run's database, per task (not its WAL writer or checkpointer). */
  databaseCpuMicrosPerTask?: number;
  /**
   * Cores kept busy over the window by everything else on the machine (its busy time from
   * /proc/stat less the service's, this process's and the run's PostgreSQL backends'): another
   * program's load, and PostgreSQL's own background work.
   */
  otherCores?: number;
  claims: number;
  emptyClaims: number;
  claimP50Ms: number;
  claimP99Ms: number;
  completeP99Ms: number;
  /** p99 of a heartbeat and of one log batch, when the loop sent them. */
  heartbeatP99Ms?: number;
  logBatchP99Ms?: number;
  /** Tasks checked after the drain, and what was wrong with them (empty when every one was right). */
  checkedTasks: number;
  problems: string[];
  /** The `max_concurrency` each agent was given (capShare), in the fleet's order. */
  caps?: number[];
  /**
   * The most leases of one agent the workers held at once, from a claim's answer to the sending
   * of its outcome: inside the time the service counts the task running, so a figure above the
   * cap is a cap exceeded (a lower bound of what the service ran at once).
   */
  maxHeldAtOnce?: number;
  /** Seconds taken to queue the `scheduledTasks` before the loop, and how many the check found still waiting. */
  scheduledSetupS?: number;
  scheduledWaiting?: number;
}

/** The limits the load must not meet: the bench measures the queue, not the rate limiter. */
export const RAISED_LIMITS: Record<string, string> = {
  RATE_LIMIT_API_MAX: '1000000',
  RATE_LIMIT_USER_MAX: '1000000',
  RATE_LIMIT_ROOT_MAX: '1000000',
  RATE_LIMIT_AGENT_KEY_MAX: '1000000',
  RATE_LIMIT_SERVICE_KEY_MAX: '1000000',
  QUOTA_TASKS_PER_AGENT: '0',
};

interface Recorder {
  claimMs: number[];
  completeMs: number[];
  heartbeatMs: number[];
  logBatchMs: number[];
  emptyClaims: number;
  created: number;
  succeeded: number;
  recording: boolean;
  /** Every task queued and every success acknowledged, warm-up and drain included. */
  queuedTotal: number;
  acknowledgedTotal: number;
  /** Leases each agent's workers hold now, and the most they held at once (whole run). */
  held: Map<string, number>;
  maxHeld: Map<string, number>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the heartbeat and the outcome each report when the loop sends usage: a modest LLM call. */
export const BENCH_USAGE = { input_tokens: 1200, output_tokens: 350, cost_usd: 0.004215, model: 'bench-model-1' };

/** A worker's log line as the typed client sends it: level, message, its time, and a small `data`. */
function logLine(task: number, n: number, of: number) {
  return {
    level: n % 10 === 9 ? ('warn' as const) : ('info' as const),
    message: `step ${n + 1} of ${of}: processed item ${task}-${n} and wrote its result to the scratch store`,
    at: new Date().toISOString(),
    data: { step: n + 1, of, item: `${task}-${n}`, ms: n % 37 },
  };
}

function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
}

export async function call(base: string, method: string, route: string, key: string, body?: unknown): Promise<{ status: number; json: unknown; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as unknown) : undefined, ms: performance.now() - started };
}

export function expectStatus(what: string, got: { status: number; json: unknown }, ...statuses: number[]): void {
  if (!statuses.includes(got.status)) throw new Error(`${what} answered ${got.status}: ${JSON.stringify(got.json)}`);
}

interface Fleet {
  base: string;
  agents: Array<{ id: string; secret: string }>;
}

async function createFleet(app: RunningApp, agents: number, serviceKey: string): Promise<Fleet> {
  const base = `http://127.0.0.1:${app.port}`;
  const fleet: Fleet = { base, agents: [] };
  for (let n = 0; n < agents; n++) {
    const agent = await call(base, 'POST', '/api/v1/agents', serviceKey, { name: `bench-agent-${n}`, type: 'type_a' });
    expectStatus('creating an agent', agent, 201);
    const id = (agent.json as { data: { id: string } }).data.id;
    const key = await call(base, 'POST', `/api/v1/agents/${id}/keys`, serviceKey, { name: 'bench worker', scopes: ['tasks:write', 'tasks:work'] });
    expectStatus('creating an agent key', key, 201);
    fleet.agents.push({ id, secret: (key.json as { data: { secret: string } }).data.secret });
  }
  return fleet;
}

/** Each agent's `max_concurrency`: `capShare` of the workers that claim for it (worker n claims for agent n mod agents), at least 1. */
async function capAgents(fleet: Fleet, options: WorkLoopOptions, serviceKey: string): Promise<number[]> {
  const caps: number[] = [];
  for (const [index, agent] of fleet.agents.entries()) {
    const workers = Math.floor(options.workers / fleet.agents.length) + (index < options.workers % fleet.agents.length ? 1 : 0);
    const cap = Math.max(1, Math.round(workers * (options.capShare ?? 1)));
    const res = await call(fleet.base, 'PATCH', `/api/v1/agents/${agent.id}`, serviceKey, { max_concurrency: cap });
    expectStatus('setting max_concurrency', res, 200);
    const set = (res.json as { data: { max_concurrency?: number | null } }).data.max_concurrency;
    if (set !== cap) throw new Error(`PATCH max_concurrency ${cap} answered max_concurrency ${String(set)}: this build has no cap`);
    caps.push(cap);
  }
  return caps;
}

/** `count` tasks with `run_at` a day ahead, through each agent's own POST .../tasks, 16 at a time; answers the seconds it took. */
async function queueScheduledTasks(fleet: Fleet, count: number): Promise<number> {
  const started = performance.now();
  const runAt = new Date(Date.now() + 24 * 3_600_000).toISOString();
  let next = 0;
  const queue = async () => {
    while (next < count) {
      const n = next++;
      const agent = fleet.agents[n % fleet.agents.length] as Fleet['agents'][number];
      const res = await call(fleet.base, 'POST', `/api/v1/agents/${agent.id}/tasks`, agent.secret, { title: `bench scheduled task ${n}`, input: { n }, run_at: runAt });
      expectStatus('queueing a scheduled task', res, 201);
      const stored = (res.json as { data: { run_at?: string | null } }).data.run_at;
      if (typeof stored !== 'string') throw new Error(`a task created with run_at answered run_at ${String(stored)}: this build has no run_at`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, queue));
  return (performance.now() - started) / 1000;
}

/** Producers and workers until `stop()`; the recorder counts only while `recording`. */
function runLoad(fleet: Fleet, options: WorkLoopOptions, recorder: Recorder) {
  let producing = true;
  let working = true;
  let failure: Error | undefined;
  const fail = (error: unknown) => {
    failure ??= error instanceof Error ? error : new Error(String(error));
    producing = false;
    working = false;
  };
  let outstanding = 0;
  let tasksTaken = 0;
  const produce = async (index: number) => {
    let n = 0;
    while (producing) {
      if (outstanding >= options.backlog) {
        await sleep(2);
        continue;
      }
      const agent = fleet.agents[(index + n++) % fleet.agents.length] as Fleet['agents'][number];
      outstanding++;
      const res = await call(fleet.base, 'POST', `/api/v1/agents/${agent.id}/tasks`, agent.secret, { title: `bench task ${index}-${n}`, input: { n } });
      expectStatus('queueing a task', res, 201);
      recorder.queuedTotal++;
      if (recorder.recording) recorder.created++;
    }
  };
  const work = async (index: number) => {
    const agent = fleet.agents[index % fleet.agents.length] as Fleet['agents'][number];
    const leases = `/api/v1/agents/${agent.id}/leases`;
    while (working) {
      // No long poll: a claim's latency is the claim's own work, never time spent waiting for a task.
      const claim = await call(fleet.base, 'POST', leases, agent.secret, { ttl_seconds: 60, wait_seconds: 0 });
      expectStatus('claiming', claim, 201, 204);
      if (claim.status === 204) {
        if (recorder.recording) recorder.emptyClaims++;
        if (!producing && outstanding === 0) return;
        await sleep(20);
        continue;
      }
      const lease = (claim.json as { data: { id: string; task: { input: unknown } } }).data;
      const leasePath = `${leases}/${lease.id}`;
      const holding = (recorder.held.get(agent.id) ?? 0) + 1;
      recorder.held.set(agent.id, holding);
      recorder.maxHeld.set(agent.id, Math.max(recorder.maxHeld.get(agent.id) ?? 0, holding));
      const heartbeatMs: number[] = [];
      const logBatchMs: number[] = [];
      if (options.heartbeat) {
        const beat = await call(fleet.base, 'PATCH', leasePath, agent.secret, { ttl_seconds: 60, ...(options.usage ? { usage: BENCH_USAGE } : {}) });
        expectStatus('a heartbeat', beat, 200);
        heartbeatMs.push(beat.ms);
      }
      const lines = options.logLines ?? 0;
      const batch = Math.max(1, Math.min(100, options.logBatch ?? 100));
      const taskNumber = tasksTaken++;
      for (let first = 0; first < lines; first += batch) {
        const body = { lines: Array.from({ length: Math.min(batch, lines - first) }, (_, i) => logLine(taskNumber, first + i, lines)) };
        const logged = await call(fleet.base, 'POST', `${leasePath}/logs`, agent.secret, body);
        expectStatus('appending log lines', logged, 204);
        logBatchMs.push(logged.ms);
      }
      // Released before the outcome is sent: the service still counts the task running until it is committed.
      recorder.held.set(agent.id, (recorder.held.get(agent.id) ?? 1) - 1);
      const done = await call(fleet.base, 'PATCH', leasePath, agent.secret, { status: 'succeeded', result: { echo: lease.task.input }, ...(options.usage ? { usage: BENCH_USAGE } : {}) });
      expectStatus('succeeding', done, 200);
      recorder.acknowledgedTotal++;
      outstanding--;
      if (recorder.recording) {
        recorder.claimMs.push(claim.ms);
        recorder.completeMs.push(done.ms);
        recorder.heartbeatMs.push(...heartbeatMs);
        recorder.logBatchMs.push(...logBatchMs);
        recorder.succeeded++;
      }
    }
  };
  const producers = Array.from({ length: options.producers }, (_, index) => produce(index).catch(fail));
  const workers = Array.from({ length: options.workers }, (_, index) => work(index).catch(fail));
  return {
    /** Stops the producers; the workers drain the backlog, then stop. */
    async drain() {
      producing = false;
      await Promise.all(producers);
      const deadline = Date.now() + 60_000;
      while (outstanding > 0 && !failure && Date.now() < deadline) await sleep(50);
      working = false;
      await Promise.all(workers);
      if (failure) throw failure;
      if (outstanding > 0) throw new Error(`${outstanding} tasks were still queued a minute after the producers stopped`);
    },
    failed: () => failure,
  };
}

/** Every task of every agent, read through the API: succeeded, leased once, nothing missing. */
async function checkTasks(fleet: Fleet, serviceKey: string, recorder: Recorder, options: WorkLoopOptions): Promise<{ checked: number; waiting: number; problems: string[] }> {
  const problems: string[] = [];
  let checked = 0;
  let waiting = 0;
  const sampled: Array<{ agentId: string; taskId: string }> = [];
  for (const agent of fleet.agents) {
    let cursor: string | undefined;
    do {
      const page = await call(fleet.base, 'GET', `/api/v1/agents/${agent.id}/tasks?limit=100${cursor ? `&cursor=${cursor}` : ''}`, serviceKey);
      expectStatus('listing tasks', page, 200);
      const body = page.json as { data: Array<{ id: string; status: string; attempts: number; run_at?: string | null }>; meta: { nextCursor?: string | null } };
      for (const task of body.data) {
        // A task queued before the loop to run a day later: still waiting, never leased.
        if (typeof task.run_at === 'string' && Date.parse(task.run_at) > Date.now()) {
          waiting++;
          if (task.status !== 'queued' || task.attempts !== 0) problems.push(`scheduled task ${task.id}: ${task.status} after ${task.attempts} attempts`);
          continue;
        }
        checked++;
        if (task.status !== 'succeeded' || task.attempts !== 1) problems.push(`task ${task.id}: ${task.status} after ${task.attempts} attempts`);
        if (checked % 97 === 1 && sampled.length < 20) sampled.push({ agentId: agent.id, taskId: task.id });
      }
      cursor = body.meta.nextCursor ?? undefined;
    } while (cursor);
  }
  if (checked !== recorder.queuedTotal) problems.push(`${checked} tasks stored, ${recorder.queuedTotal} queued`);
  if (waiting !== (options.scheduledTasks ?? 0)) problems.push(`${waiting} tasks waiting for their run_at, ${options.scheduledTasks ?? 0} queued so`);
  problems.push(...(await checkLogsAndUsage(fleet, serviceKey, options, sampled)));
  if (recorder.acknowledgedTotal !== recorder.queuedTotal) problems.push(`${recorder.acknowledgedTotal} successes acknowledged for ${recorder.queuedTotal} tasks`);
  return { checked, waiting, problems: problems.slice(0, 20) };
}

/** A sample of the tasks read back one by one: every log line kept, and the usage reported summed on the task. */
async function checkLogsAndUsage(fleet: Fleet, serviceKey: string, options: WorkLoopOptions, sampled: Array<{ agentId: string; taskId: string }>): Promise<string[]> {
  const lines = options.logLines ?? 0;
  if (lines === 0 && !options.usage) return [];
  const problems: string[] = [];
  const reports = (options.heartbeat ? 1 : 0) + 1;
  for (const { agentId, taskId } of sampled) {
    if (lines > 0) {
      let kept = 0;
      let cursor: string | undefined;
      do {
        const page = await call(fleet.base, 'GET', `/api/v1/agents/${agentId}/tasks/${taskId}/logs?limit=100${cursor ? `&cursor=${cursor}` : ''}`, serviceKey);
        expectStatus('reading a task\'s log', page, 200);
        const body = page.json as { data: unknown[]; meta: { nextCursor?: string | null } };
        kept += body.data.length;
        cursor = body.meta.nextCursor ?? undefined;
      } while (cursor);
      if (kept !== lines) problems.push(`task ${taskId}: ${kept} log lines kept, ${lines} sent`);
    }
    if (options.usage) {
      const task = await call(fleet.base, 'GET', `/api/v1/agents/${agentId}/tasks/${taskId}`, serviceKey);
      expectStatus('reading a task', task, 200);
      const usage = (task.json as { data: { usage?: { input_tokens: number; output_tokens: number } } }).data.usage;
      if (usage?.input_tokens !== reports * BENCH_USAGE.input_tokens || usage.output_tokens !== reports * BENCH_USAGE.output_tokens) {
        problems.push(`task ${taskId}: usage ${JSON.stringify(usage)} after ${reports} reports of ${JSON.stringify(BENCH_USAGE)}`);
      }
    }
  }
  return problems;
}

/** The server's backends for one database, by pid (PostgreSQL on this machine: /proc shows them). */
export async function sampleDatabaseCpu(pgUrl: string, name: string): Promise<CpuSample> {
  const client = new Client({ connectionString: pgUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
    const sample: CpuSample = new Map();
    for (const { pid } of rows) for (const [p, ms] of sampleCpu(pid)) if (p === pid) sample.set(p, ms);
    return sample;
  } finally {
    await client.end();
  }
}

export async function createPgDatabase(pgUrl: string): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `bench_work_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new Client({ connectionString: pgUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** `root`: another checkout of the service to run instead of this one (its dist/ built). */
export async function runWorkLoop(config: WorkLoopConfig, options: WorkLoopOptions, runDir: string, root?: string): Promise<WorkLoopResult> {
  const serviceKey = `bench-${randomBytes(16).toString('hex')}`;
  const spec: AppSpec = { name: 'service', description: `work loop, ${config}`, service: config.endsWith('-2w') ? { WEB_CONCURRENCY: '2' } : {} };
  const pg = config.startsWith('pg') ? await createPgDatabase(options.pgUrl) : undefined;
  const app = await startApp(spec, { dir: path.join(runDir), apiKey: serviceKey, databaseUrl: pg?.url, env: { ...RAISED_LIMITS, LOG_LEVEL: 'warn' }, root });
  try {
    const fleet = await createFleet(app, options.agents, serviceKey);
    const caps = options.capShare === undefined ? undefined : await capAgents(fleet, options, serviceKey);
    const scheduledSetupS = (options.scheduledTasks ?? 0) > 0 ? await queueScheduledTasks(fleet, options.scheduledTasks ?? 0) : undefined;
    const recorder: Recorder = {
      claimMs: [],
      completeMs: [],
      heartbeatMs: [],
      logBatchMs: [],
      emptyClaims: 0,
      created: 0,
      succeeded: 0,
      recording: false,
      queuedTotal: 0,
      acknowledgedTotal: 0,
      held: new Map(),
      maxHeld: new Map(),
    };
    const load = runLoad(fleet, options, recorder);
    await sleep(options.warmupS * 1000);
    recorder.recording = true;
    const databaseBefore = pg ? await sampleDatabaseCpu(options.pgUrl, pg.name) : undefined;
    const cpuBefore = sampleCpu(app.pid);
    const generatorBefore = process.cpuUsage();
    const machineBefore = machineBusyMillis();
    const started = performance.now();
    await sleep(options.durationS * 1000);
    recorder.recording = false;
    const seconds = (performance.now() - started) / 1000;
    const cpuMillis = cpuMillisBetween(cpuBefore, sampleCpu(app.pid));
    const generator = process.cpuUsage(generatorBefore);
    const machineMillis = machineBusyMillis() - machineBefore;
    const databaseMillis = pg && databaseBefore ? cpuMillisBetween(databaseBefore, await sampleDatabaseCpu(options.pgUrl, pg.name)) : undefined;
    const measured = { ...recorder };
    await load.drain();
    const check = await checkTasks(fleet, serviceKey, recorder, options);
    return {
      config,
      seconds,
      createdPerSecond: measured.created / seconds,
      succeededPerSecond: measured.succeeded / seconds,
      cpuMicrosPerTask: measured.succeeded > 0 ? (cpuMillis * 1000) / measured.succeeded : Number.NaN,
      generatorCpuMicrosPerTask: measured.succeeded > 0 ? (generator.user + generator.system) / measured.succeeded : Number.NaN,
      ...(databaseMillis === undefined ? {} : { databaseCpuMicrosPerTask: measured.succeeded > 0 ? (databaseMillis * 1000) / measured.succeeded : Number.NaN }),
      otherCores: Math.max(0, machineMillis - cpuMillis - (generator.user + generator.system) / 1000 - (databaseMillis ?? 0)) / (seconds * 1000),
      claims: measured.claimMs.length + measured.emptyClaims,
      emptyClaims: measured.emptyClaims,
      claimP50Ms: quantile(measured.claimMs, 0.5),
      claimP99Ms: quantile(measured.claimMs, 0.99),
      completeP99Ms: quantile(measured.completeMs, 0.99),
      ...(options.heartbeat ? { heartbeatP99Ms: quantile(measured.heartbeatMs, 0.99) } : {}),
      ...((options.logLines ?? 0) > 0 ? { logBatchP99Ms: quantile(measured.logBatchMs, 0.99) } : {}),
      checkedTasks: check.checked,
      problems: [
        ...fleet.agents.flatMap((agent, index) => {
          const held = recorder.maxHeld.get(agent.id) ?? 0;
          const cap = caps?.[index];
          return cap !== undefined && held > cap ? [`agent ${agent.id}: its workers held ${held} leases at once under a cap of ${cap}`] : [];
        }),
        ...check.problems,
      ],
      maxHeldAtOnce: Math.max(0, ...recorder.maxHeld.values()),
      ...(caps ? { caps } : {}),
      ...(scheduledSetupS === undefined ? {} : { scheduledSetupS, scheduledWaiting: check.waiting }),
    };
  } finally {
    await stopApp(app);
    await pg?.drop();
  }
}

export function renderWorkLoop(results: WorkLoopResult[], options: WorkLoopOptions): string {
  const lines = [
    '## Work loop',
    '',
    `${options.workers} workers and ${options.producers} producers over HTTP (Node's fetch, keep-alive) in the bench process, ${options.agents} agent(s), one agent key each; backlog bounded at ${options.backlog} tasks; ${options.warmupS} s warm-up, ${options.durationS} s measured. A claim is \`POST /api/v1/agents/{id}/leases\` (wait_seconds 0: an empty queue answers 204 at once, counted as an empty claim, and the worker tries again 20 ms later), a completion \`PATCH .../leases/{id}\` with status succeeded.`,
    '',
    '| Database, processes | Created/s | Leased and succeeded/s | Service CPU µs per task | Claim p50 (ms) | Claim p99 (ms) | Completion p99 (ms) | Empty claims | Tasks checked | Problems |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...results.map(
      (r) =>
        `| ${r.config} | ${r.createdPerSecond.toFixed(0)} | ${r.succeededPerSecond.toFixed(0)} | ${r.cpuMicrosPerTask.toFixed(0)} | ${r.claimP50Ms.toFixed(1)} | ${r.claimP99Ms.toFixed(1)} | ${r.completeP99Ms.toFixed(1)} | ${r.emptyClaims} | ${r.checkedTasks} | ${r.problems.length === 0 ? 'none' : r.problems.join('; ')} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
