/**
 * The stats suite of `npm run bench`: `GET /api/v1/agents/{id}/stats` on PostgreSQL with an agent
 * of a million tasks.
 *
 * Seeds a database of its own (created beside `--pg-url`, migrated by the build under test,
 * dropped after unless `--keep`) in SQL alone (generate_series and INSERT ... SELECT; the tables'
 * secondary indexes dropped during the load and made again as the migrations define them), then
 * VACUUM ANALYZE:
 * - the agent: `tasks` tasks created evenly over the last `days` days, ids time-ordered (UUIDv7 as
 *   the service makes them): the newest 200 queued (a tenth of them waiting for a retry, their
 *   first attempt failed), the 16 before them running, the rest succeeded (95 %), failed (3 %) or
 *   cancelled while queued (2 %); 6 % of the finished tasks took two attempts and 1 % three, and
 *   half of the failed three; a lease per attempt (number, worker, outcome, heartbeat, usage), a
 *   tenth of the retried attempts expired; waits of 1 s to 10 min, runs of 5 s to 5 min;
 * - `otherAgents` more agents with `otherTasks` tasks each, made the same way;
 * - the events of every agent's last `eventHours` hours, as the service records them (each task's
 *   created, leased, one progress per attempt, requeued, succeeded, failed, cancelled), ids in time
 *   order across the agents.
 * Then, with the service (the checkout's build, or `--current`'s) started on that database, it
 * times `runs` sequential reads of each window over HTTP after 3 unrecorded ones, and the same
 * through the build's own getAgentStats in this process, every query it sends timed; then runs
 * EXPLAIN (ANALYZE, BUFFERS) on each query (the last bindings of each text), and, for each
 * `--stats-try-index` statement, creates it, analyzes, and times and explains the queries again.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { startApp, stopApp, type AppSpec } from './apps';
import { createPgDatabase, RAISED_LIMITS } from './work-loop';

export interface StatsOptions {
  tasks: number;
  otherAgents: number;
  otherTasks: number;
  days: number;
  eventHours: number;
  runs: number;
  pgUrl: string;
  /** Statements run after the first measurement (`create index ...`), each measured on top of the ones before. */
  tryIndexes: string[];
  keep: boolean;
}

export type StatsWindow = '1h' | '24h';
const WINDOWS: StatsWindow[] = ['1h', '24h'];
const WARM_UP_RUNS = 3;
const QUEUED = 200;
const RUNNING = 16;

export interface QueryTiming {
  sql: string;
  /** Times the text ran in one read. */
  perRead: number;
  /** Median over the reads of the text's summed time in one read (ms, as this process saw it). */
  medianMs: number;
  plan?: string;
}

export interface WindowFigures {
  window: StatsWindow;
  httpMs: number[];
  /** The first read over HTTP, before the instance kept anything of the window. */
  firstHttpMs: number;
  inProcessMs: number[];
  queries: QueryTiming[];
  /** The answer's size, to say what was read. */
  sample: { tasks: Record<string, number>; succeeded: number; failed: number; series: number };
}

export interface StatsPhase {
  /** What was added before this phase (an index), or `as migrated`. */
  label: string;
  windows: WindowFigures[];
}

export interface StatsReport {
  build: string;
  seeded: { tasks: number; leases: number; events: number; seconds: number; tableMb: Record<string, number> };
  phases: StatsPhase[];
  seconds: number;
}

interface Build {
  connectDatabase(config: unknown, options?: unknown): Promise<Knex>;
  DEFAULT_DATABASE_LIMITS: unknown;
  createStore(db: Knex): unknown;
  /** Builds from before the series cache take (store, principal, agentId, window). */
  getAgentStats(...args: unknown[]): Promise<{ tasks: Record<string, number>; succeeded: number; failed: number; series?: unknown[] }>;
  /** The instance's cache of settled buckets, in builds that keep one. */
  createStatsCache?: () => unknown;
}

/** The build's own modules (its dist/), so that the queries timed in this process are the ones its server sends. */
function loadBuild(root: string): Build {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const database = require(path.join(root, 'dist', 'data', 'database.js')) as Pick<Build, 'connectDatabase' | 'DEFAULT_DATABASE_LIMITS'>;
  const store = require(path.join(root, 'dist', 'data', 'store.js')) as Pick<Build, 'createStore'>;
  const health = require(path.join(root, 'dist', 'domain', 'fleet-health.js')) as Pick<Build, 'getAgentStats' | 'createStatsCache'>;
  /* eslint-enable @typescript-eslint/no-require-imports */
  return { ...database, ...store, ...health };
}

const quantile = (values: number[], q: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
};

/** UUIDv7 of a timestamp expression, the rest from an md5 hex text (as the service's ids sort: by time). */
const uuidV7 = (at: string, hex: string) => `(lpad(to_hex((extract(epoch from ${at}) * 1000)::bigint), 12, '0') || '7' || substr(${hex}, 1, 3) || '8' || substr(${hex}, 4, 15))::uuid`;

/** The seed, in SQL: see the file's comment. `now` is fixed for the whole seed. */
async function seed(db: Knex, agents: Array<{ id: string; tasks: number }>, options: StatsOptions, now: string): Promise<StatsReport['seeded']> {
  const started = performance.now();
  const at = `'${now}'::timestamptz`;
  const since = `(${at} - interval '${options.eventHours} hours')`;
  await db.transaction(async (trx) => {
    // The load skips the foreign keys' triggers (the rows are made consistent here) and the secondary indexes, made again after.
    await trx.raw('set local session_replication_role = replica');
    await trx.raw('select setseed(0.42)');
    // What the service keeps with its writes (in a build that keeps them), written with the rows.
    const has = async (sql: string) => ((await trx.raw(sql)).rows as unknown[]).length > 0;
    const waitColumn = (await has(`select 1 from information_schema.columns where table_schema = current_schema() and table_name = 'leases' and column_name = 'wait_ms'`))
      ? { name: ', wait_ms', value: ', greatest(0, round(extract(epoch from (start - c)) * 1000))' }
      : { name: '', value: '' };
    const indexes = (await trx.raw(`select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename in ('tasks', 'leases', 'events') and indexname not like '%_pkey'`)).rows as Array<{ indexname: string; indexdef: string }>;
    for (const { indexname } of indexes) await trx.raw(`drop index ${indexname}`);
    // A build with workspaces keeps a service key's agents in the `service` workspace.
    const workspace = (await has(`select 1 from information_schema.columns where table_schema = current_schema() and table_name = 'agents' and column_name = 'workspace_id'`))
      ? { name: ', workspace_id', value: ", (select id from workspaces where kind = 'service')" }
      : { name: '', value: '' };
    for (const agent of agents) {
      await trx.raw(
        `insert into agents (id, owner_id, name, type, status, created_at, updated_at, stored_bytes${workspace.name}) values (?, null, ?, 'type_a', 'running', ${at} - interval '${options.days + 1} days', ${at}, 0${workspace.value})`,
        [agent.id, `bench stats ${agent.tasks}`],
      );
    }
    const values = agents.map((agent) => `('${agent.id}'::uuid, ${agent.tasks})`).join(', ');
    await trx.raw(`
      create temp table seed_tasks on commit drop as
      with g as (
        select a.agent_id, a.n, i, ${at} - make_interval(secs => ${options.days * 86400}::float8 * (1 - i::float8 / a.n)) as c,
               random() as u, random() as v, 1 + random() * 599 as w, 5 + random() * 295 as r
        from (values ${values}) as a(agent_id, n), generate_series(1, a.n) as i
      ), s as (
        select *, case when i > n - ${QUEUED} then 'queued' when i > n - ${QUEUED + RUNNING} then 'running'
                       when u < 0.95 then 'succeeded' when u < 0.98 then 'failed' else 'cancelled' end as status
        from g
      ), t as (
        select *, case status
                    when 'queued' then case when v < 0.1 then 1 else 0 end
                    when 'running' then case when v < 0.07 then 2 else 1 end
                    when 'succeeded' then case when v < 0.01 then 3 when v < 0.07 then 2 else 1 end
                    when 'failed' then case when v < 0.5 then 1 else 3 end
                    else 0 end as att,
                  md5(agent_id::text || ':' || i) as h
        from s
      )
      select agent_id, i, c, w, r, status, att, h, (status = 'queued' and att = 1) as scheduled,
             ${uuidV7('c', 'h')} as tid,
             -- Times shrink for the newest tasks, so that nothing has happened after now.
             least(1.0, greatest(0.0, (extract(epoch from ${at} - c) - 1) / (w + greatest(att - 1, 0) * (r + 30) + r))) as k
      from t`);
    await trx.raw(`
      create temp table seed_leases on commit drop as
      select s.agent_id, s.tid, s.i, s.h, s.status as task_status, s.k, s.r, j, s.att, s.c,
             l.start, case when s.status = 'running' and j = s.att then null else l.start + make_interval(secs => s.k * s.r) end as ended,
             ${uuidV7('l.start', "md5(s.h || ':' || j)")} as lid,
             case when s.status = 'running' and j = s.att then null
                  when j < s.att or s.scheduled then case when get_byte(decode(md5(s.h || ':' || j), 'hex'), 0) < 26 then 'expired' else 'failed' end
                  when s.status = 'succeeded' then 'succeeded' else 'failed' end as outcome
      from seed_tasks s, generate_series(1, s.att) as j,
           lateral (select s.c + make_interval(secs => s.k * (s.w + (j - 1) * (s.r + 30))) as start) as l`);
    await trx.raw(`
      insert into tasks (id, agent_id, title, description, input, priority, status, result, error, created_at, updated_at, started_at, finished_at,
                         stored_bytes, attempts, max_attempts, available_at, progress, lease_id, last_error, input_tokens, output_tokens, cost_micro_usd)
      select s.tid, s.agent_id, 'bench task ' || s.i, null, jsonb_build_object('n', s.i), 5, s.status,
             case when s.status = 'succeeded' then jsonb_build_object('ok', true, 'items', s.i % 100) end,
             case when s.status = 'failed' then 'the worker gave up' end,
             s.c, coalesce(f.fin, f.started, l.ended, s.c), f.started, f.fin, 80, s.att, 3,
             case when s.scheduled then ${at} + interval '5 minutes' else coalesce(f.started, s.c) end,
             null, case when s.status = 'running' then l.lid end,
             case when s.status = 'failed' or s.att > 1 or s.scheduled then 'the worker gave up' end,
             s.att * 1200, s.att * 350, s.att * 4215
      from seed_tasks s
      left join seed_leases l on l.tid = s.tid and l.j = s.att
      cross join lateral (
        select case when s.att > 0 and not s.scheduled then l.start end as started,
               case when s.status in ('succeeded', 'failed') then l.ended when s.status = 'cancelled' then s.c + make_interval(secs => s.k * s.w) end as fin
      ) as f
      order by s.c`);
    await trx.raw(`
      insert into leases (id, agent_id, task_id, status, ttl_seconds, expires_at, created_at, ended_at, number, worker_kind, worker_id, outcome, error,
                          last_heartbeat_at, progress, input_tokens, output_tokens, cost_micro_usd, model${waitColumn.name})
      select lid, agent_id, tid, case when outcome is null then 'active' when outcome = 'expired' then 'expired' else 'completed' end, case when outcome is null then 3600 else 60 end,
             coalesce(ended, ${at} + interval '1 hour'), start, ended, j, 'agent_key', 'key-' || (i % 8), outcome,
             case outcome when 'failed' then 'the worker gave up' when 'expired' then 'lease expired' end,
             start + make_interval(secs => k * r / 2), jsonb_build_object('percent', 50), 1200, 350, 4215, 'bench-model-1'${waitColumn.value}
      from seed_leases order by start`);
    await trx.raw(`
      insert into events (type, occurred_at, agent_id, owner_id, task_id, data)
      select type, occurred_at, agent_id, null, task_id, data from (
        select 'task.created' as type, c as occurred_at, agent_id, tid as task_id,
               jsonb_build_object('id', tid, 'agent_id', agent_id, 'title', 'bench task ' || i, 'description', null, 'input', jsonb_build_object('n', i),
                                  'priority', 5, 'status', 'queued', 'result', null, 'error', null, 'created_at', c, 'updated_at', c, 'started_at', null,
                                  'finished_at', null, 'attempts', 0, 'max_attempts', 3, 'available_at', c, 'progress', null, 'lease_id', null,
                                  'last_error', null, 'usage', jsonb_build_object('input_tokens', 0, 'output_tokens', 0, 'cost_usd', 0)) as data
        from seed_tasks where c >= ${since}
        union all
        select 'task.leased', start, agent_id, tid,
               jsonb_build_object('status', 'running', 'previous_status', 'queued', 'attempts', j, 'started_at', start, 'updated_at', start, 'lease_id', lid, 'title', 'bench task ' || i)
        from seed_leases where start >= ${since}
        union all
        select 'task.progress', start + make_interval(secs => k * r / 2), agent_id, tid,
               jsonb_build_object('progress', jsonb_build_object('percent', 50), 'updated_at', start + make_interval(secs => k * r / 2), 'title', 'bench task ' || i)
        from seed_leases where start + make_interval(secs => k * r / 2) >= ${since} and start + make_interval(secs => k * r / 2) <= ${at}
        union all
        select case when outcome = 'succeeded' then 'task.succeeded' when j = att and task_status = 'failed' then 'task.failed' else 'task.requeued' end, ended, agent_id, tid,
               case when outcome = 'succeeded' then jsonb_build_object('status', 'succeeded', 'previous_status', 'running', 'result', jsonb_build_object('ok', true), 'finished_at', ended, 'updated_at', ended, 'lease_id', null, 'title', 'bench task ' || i)
                    when j = att and task_status = 'failed' then jsonb_build_object('status', 'failed', 'previous_status', 'running', 'error', 'the worker gave up', 'last_error', 'the worker gave up', 'finished_at', ended, 'updated_at', ended, 'lease_id', null, 'title', 'bench task ' || i)
                    else jsonb_build_object('status', 'queued', 'previous_status', 'running', 'started_at', null, 'lease_id', null, 'available_at', ended + interval '30 seconds', 'updated_at', ended, 'reason', case when outcome = 'expired' then 'expired' else 'failed' end, 'error', 'the worker gave up', 'title', 'bench task ' || i) end
        from seed_leases where ended >= ${since}
        union all
        select 'task.cancelled', c + make_interval(secs => k * w), agent_id, tid,
               jsonb_build_object('status', 'cancelled', 'previous_status', 'queued', 'finished_at', c + make_interval(secs => k * w), 'updated_at', c + make_interval(secs => k * w), 'title', 'bench task ' || i)
        from seed_tasks where status = 'cancelled' and c + make_interval(secs => k * w) >= ${since}
      ) e order by occurred_at`);
    for (const { indexdef } of indexes) await trx.raw(indexdef);
    // Its task counters, made as its migration makes them.
    if (await has(`select 1 from information_schema.tables where table_schema = current_schema() and table_name = 'agent_task_counts'`)) {
      await trx.raw('insert into agent_task_counts (agent_id, status, n) select agent_id, status, count(*) from tasks group by agent_id, status');
    }
  });
  for (const table of ['tasks', 'leases', 'events', 'agents']) await db.raw(`vacuum (analyze) ${table}`);
  const count = async (table: string) => Number((await db.raw(`select count(*) as n from ${table}`)).rows[0].n);
  const tableMb: Record<string, number> = {};
  for (const table of ['tasks', 'leases', 'events']) tableMb[table] = Number((await db.raw('select pg_total_relation_size(?) as bytes', [table])).rows[0].bytes) / 2 ** 20;
  return { tasks: await count('tasks'), leases: await count('leases'), events: await count('events'), seconds: (performance.now() - started) / 1000, tableMb };
}

interface Recorded {
  sql: string;
  bindings: unknown[];
  ms: number;
}

/** Times every query the knex instance sends (its client's `query`, which both knex's runner and the compiled queries call). */
function recordQueries(db: Knex): { take(): Recorded[] } {
  let recorded: Recorded[] = [];
  const client = db.client as { query(connection: unknown, query: { sql: string; bindings?: unknown[] }): Promise<unknown> };
  const query = client.query.bind(client);
  client.query = async (connection, object) => {
    const sql = object.sql;
    const bindings = [...(object.bindings ?? [])];
    const started = performance.now();
    try {
      return await query(connection, object);
    } finally {
      recorded.push({ sql, bindings, ms: performance.now() - started });
    }
  };
  return {
    take() {
      const taken = recorded;
      recorded = [];
      return taken;
    },
  };
}

/** The plan's lines that say what it did: each node, its index condition and filter, the top node's buffers, the times. */
export function keyPlanLines(plan: string): string[] {
  const lines = plan.split('\n');
  return lines.filter((line, index) => index === 0 || /->|Index Cond|Filter:|Rows Removed|Heap Fetches|Sort Method|Execution Time|Planning Time/.test(line) || (index === 1 && /Buffers/.test(line)));
}

async function explain(db: Knex, sql: string, bindings: unknown[]): Promise<string> {
  const result = await db.raw(`explain (analyze, buffers) ${sql}`, bindings as Knex.RawBinding[]);
  return (result.rows as Array<{ 'QUERY PLAN': string }>).map((row) => row['QUERY PLAN']).join('\n');
}

async function measureInProcess(build: Build, db: Knex, recorder: ReturnType<typeof recordQueries>, agentId: string, window: StatsWindow, runs: number) {
  const store = build.createStore(db);
  const principal = { kind: 'service', keyNumber: 1 };
  // As the server reads: with an instance's series cache when the build keeps one.
  const cache = build.createStatsCache?.();
  const read = () => (cache === undefined ? build.getAgentStats(store, principal, agentId, window) : build.getAgentStats(store, cache, principal, agentId, window));
  for (let n = 0; n < WARM_UP_RUNS; n++) await read();
  recorder.take();
  const times: number[] = [];
  const reads: Recorded[][] = [];
  let answer: Awaited<ReturnType<Build['getAgentStats']>> | undefined;
  for (let n = 0; n < runs; n++) {
    const started = performance.now();
    answer = await read();
    times.push(performance.now() - started);
    reads.push(recorder.take());
  }
  const texts = [...new Set(reads.flat().map((query) => query.sql))];
  const queries: QueryTiming[] = texts.map((sql) => ({
    sql,
    perRead: (reads[0] ?? []).filter((query) => query.sql === sql).length,
    medianMs: quantile(
      reads.map((read) => read.filter((query) => query.sql === sql).reduce((sum, query) => sum + query.ms, 0)),
      0.5,
    ),
  }));
  for (const query of queries) {
    const last = reads.flat().filter((recorded) => recorded.sql === query.sql).at(-1) as Recorded;
    query.plan = await explain(db, last.sql, last.bindings);
  }
  recorder.take();
  return {
    times,
    queries,
    sample: { tasks: answer?.tasks ?? {}, succeeded: answer?.succeeded ?? 0, failed: answer?.failed ?? 0, series: answer?.series?.length ?? 0 },
  };
}

async function measureHttp(port: number, apiKey: string, agentId: string, window: StatsWindow, runs: number): Promise<{ first: number; times: number[] }> {
  const read = async () => {
    const started = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/agents/${agentId}/stats?window=${window}`, { headers: { 'x-api-key': apiKey } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`GET stats?window=${window} answered ${res.status}: ${body.slice(0, 500)}`);
    return performance.now() - started;
  };
  const first = await read();
  for (let n = 1; n < WARM_UP_RUNS; n++) await read();
  const times: number[] = [];
  for (let n = 0; n < runs; n++) times.push(await read());
  return { first, times };
}

/** `root`: the build to measure (this checkout's, or a revision's from buildBaseline), its dist/ built. */
export async function runStatsSuite(options: StatsOptions, benchDir: string, root: string, buildName: string): Promise<StatsReport> {
  const started = performance.now();
  const build = loadBuild(root);
  const pg = await createPgDatabase(options.pgUrl);
  const runDir = path.join(benchDir, `stats-${Date.now()}`);
  mkdirSync(runDir, { recursive: true });
  // The seed's statements run for tens of seconds: past the service's statement timeout.
  const db = await build.connectDatabase({ client: 'pg', connectionString: pg.url, limits: { ...(build.DEFAULT_DATABASE_LIMITS as object), statementTimeoutMs: 900_000 } });
  try {
    const agentId = randomUUID();
    const agents = [{ id: agentId, tasks: options.tasks }, ...Array.from({ length: options.otherAgents }, () => ({ id: randomUUID(), tasks: options.otherTasks }))];
    console.log(`bench: stats: seeding ${pg.name}: ${options.tasks} tasks for the agent, ${options.otherAgents} × ${options.otherTasks} for others, over ${options.days} days; events of the last ${options.eventHours} h`);
    const seeded = await seed(db, agents, options, new Date().toISOString());
    console.log(`bench: stats: seeded ${seeded.tasks} tasks, ${seeded.leases} leases, ${seeded.events} events in ${seeded.seconds.toFixed(0)} s (vacuumed and analyzed)`);
    const recorder = recordQueries(db);
    const apiKey = `bench-${randomUUID()}`;
    const spec: AppSpec = { name: 'service', description: 'stats', service: {} };
    const phases: StatsPhase[] = [];
    const measurePhase = async (label: string) => {
      const app = await startApp(spec, { dir: runDir, apiKey, databaseUrl: pg.url, env: { ...RAISED_LIMITS, LOG_LEVEL: 'warn' }, root });
      const windows: WindowFigures[] = [];
      try {
        for (const window of WINDOWS) {
          const { first: firstHttpMs, times: httpMs } = await measureHttp(app.port, apiKey, agentId, window, options.runs);
          const inProcess = await measureInProcess(build, db, recorder, agentId, window, options.runs);
          windows.push({ window, httpMs, firstHttpMs, inProcessMs: inProcess.times, queries: inProcess.queries, sample: inProcess.sample });
          console.log(
            `bench: stats ${label}: window=${window} first read over HTTP ${firstHttpMs.toFixed(1)} ms; then over HTTP median ${quantile(httpMs, 0.5).toFixed(1)} ms, p95 ${quantile(httpMs, 0.95).toFixed(1)} ms; in process median ${quantile(inProcess.times, 0.5).toFixed(1)} ms; ${inProcess.queries.map((q) => `${q.perRead}× ${q.medianMs.toFixed(1)} ms`).join(', ')}`,
          );
        }
      } finally {
        await stopApp(app);
      }
      phases.push({ label, windows });
    };
    await measurePhase('as migrated');
    for (const statement of options.tryIndexes) {
      await db.raw(statement);
      await db.raw('analyze');
      await measurePhase(`with ${statement}`);
    }
    return { build: buildName, seeded, phases, seconds: (performance.now() - started) / 1000 };
  } finally {
    await db.destroy();
    rmSync(runDir, { recursive: true, force: true });
    if (options.keep) console.log(`bench: stats: database ${pg.name} kept (${pg.url}); drop it with DROP DATABASE ${pg.name}`);
    else await pg.drop();
  }
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
/** The target: a stats read under this, on the median and the p95. */
export const STATS_TARGET_MS = 50;

/** A query's text on one line, shortened for a table. */
const oneLine = (sql: string, max = 160) => {
  const text = sql.replace(/\s+/g, ' ').trim();
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
};

export function renderStats(report: StatsReport, options: StatsOptions): string {
  const lines = [
    '## Agent stats at scale (PostgreSQL)',
    '',
    `Build: ${report.build}. Seeded in SQL (${fixed(report.seeded.seconds, 0)} s): ${report.seeded.tasks.toLocaleString('en')} tasks (${options.tasks.toLocaleString('en')} of the agent measured, ${options.otherAgents} other agents with ${options.otherTasks.toLocaleString('en')} each) over ${options.days} days, ${report.seeded.leases.toLocaleString('en')} leases, ${report.seeded.events.toLocaleString('en')} events (the last ${options.eventHours} h); tasks ${fixed(report.seeded.tableMb.tasks ?? Number.NaN, 0)} MB, leases ${fixed(report.seeded.tableMb.leases ?? Number.NaN, 0)} MB, events ${fixed(report.seeded.tableMb.events ?? Number.NaN, 0)} MB with their indexes; VACUUM ANALYZE after the load. ${options.runs} sequential reads per window after ${WARM_UP_RUNS} unrecorded ones, over HTTP (the service as \`npm start\` runs it, one process) and in this process (the build's getAgentStats on a pool of its own).`,
    '',
  ];
  const verdicts: string[] = [];
  for (const phase of report.phases) {
    lines.push(`### ${phase.label}`, '', '| Window | First read over HTTP (ms) | HTTP median | HTTP p95 | In process median | In process p95 | Target < 50 ms (HTTP p95) | Read |', '|---|---:|---:|---:|---:|---:|---|---|');
    for (const w of phase.windows) {
      const p95 = quantile(w.httpMs, 0.95);
      const met = p95 < STATS_TARGET_MS;
      lines.push(
        `| ${w.window} | ${fixed(w.firstHttpMs, 1)} | ${fixed(quantile(w.httpMs, 0.5), 1)} | ${fixed(p95, 1)} | ${fixed(quantile(w.inProcessMs, 0.5), 1)} | ${fixed(quantile(w.inProcessMs, 0.95), 1)} | ${met ? 'met' : '**missed**'} | ${Object.entries(w.sample.tasks).map(([status, n]) => `${status} ${n}`).join(', ')}; ${w.sample.succeeded} succeeded, ${w.sample.failed} failed in the window; ${w.sample.series} buckets |`,
      );
      verdicts.push(`- **${met ? 'met' : 'missed'}** (${phase.label}): window=${w.window}, a stats read under ${STATS_TARGET_MS} ms: HTTP median ${fixed(quantile(w.httpMs, 0.5), 1)} ms, p95 ${fixed(p95, 1)} ms`);
    }
    lines.push('', 'Each query of a read, in process: how many times a read sends it, and the median of its summed time per read (ms):', '');
    lines.push('| Query | 1h: times, ms | 24h: times, ms |', '|---|---:|---:|');
    const texts = [...new Set(phase.windows.flatMap((w) => w.queries.map((q) => q.sql)))];
    for (const sql of texts) {
      const cell = (window: StatsWindow) => {
        const q = phase.windows.find((w) => w.window === window)?.queries.find((candidate) => candidate.sql === sql);
        return q ? `${q.perRead}×, ${fixed(q.medianMs, 1)}` : '';
      };
      lines.push(`| \`${oneLine(sql).replace(/\|/g, '\\|')}\` | ${cell('1h')} | ${cell('24h')} |`);
    }
    lines.push('', 'Plans (EXPLAIN (ANALYZE, BUFFERS), the last bindings of each query; key lines):', '');
    for (const w of phase.windows) {
      for (const q of w.queries) {
        if (!q.plan) continue;
        lines.push(`window=${w.window}: \`${oneLine(q.sql, 200).replace(/`/g, "'")}\``, '', '```', ...keyPlanLines(q.plan), '```', '');
      }
    }
  }
  lines.push('Targets:', '', ...verdicts, '', `The suite took ${fixed(report.seconds / 60, 1)} min.`, '');
  return lines.join('\n');
}

/** The full plans, for .bench/stats-plans.md. */
export function renderPlans(report: StatsReport): string {
  const lines = ['# Stats plans, in full', ''];
  for (const phase of report.phases) {
    lines.push(`## ${phase.label}`, '');
    for (const w of phase.windows) for (const q of w.queries) lines.push(`### window=${w.window}`, '', '```sql', q.sql, '```', '', '```', q.plan ?? '', '```', '');
  }
  return lines.join('\n');
}
