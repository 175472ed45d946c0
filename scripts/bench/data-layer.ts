/**
 * `npx tsx scripts/bench/data-layer.ts`: microseconds per call of the data layer's hot paths, on
 * SQLite and PostgreSQL, through the Store the HTTP layer uses (no HTTP, no validation, no logs).
 *
 * Each case runs `--rounds` rounds of `--iterations` sequential calls after a warm-up round; the
 * figures printed are the median round's: wall time, and this process's CPU time (user + system).
 * The CPU figure is what the data layer itself costs in this process, and it holds up on a busy
 * machine where wall time does not; wall time also counts the database's own work (PostgreSQL's
 * parsing and planning, SQLite's fsync) and every wait.
 *
 * Options (flag or environment variable):
 *   --databases=sqlite,pg   BENCH_DATABASES
 *   --iterations=5000       BENCH_ITERATIONS   calls per round
 *   --rounds=5              BENCH_ROUNDS
 *   --seed=1000             BENCH_SEED         agents (half of them the user's) before measuring
 *   --json                                     one JSON line per database instead of the table
 *
 * PostgreSQL: PG_TEST_URL (default postgres://postgres@127.0.0.1:5432/test), in a schema of its own
 * that is dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { DEFAULT_DATABASE_LIMITS, type DatabaseConfig } from '../../src/data/database';
import { connectDatabase, type Database } from '../../src/data/database';
import { newId, now } from '../../src/data/ids';
import { createStore, type Store } from '../../src/data/store';
import type { Principal } from '../../src/domain/access';
import { createAgent } from '../../src/domain/agents';
import { offsetQuery, type ListQuery } from '../../src/domain/collection';
import type { Agent, AgentCreate, Task, User } from '../../src/model';
import type { Quotas } from '../../src/domain/quotas';

type DatabaseKind = 'sqlite' | 'pg';

interface Options {
  databases: DatabaseKind[];
  iterations: number;
  rounds: number;
  seed: number;
  json: boolean;
}

interface Fixture {
  store: Store;
  db: Database;
  user: User;
  /** Where agents without an owner (the API key's) go. */
  serviceWorkspaceId: string;
  ownAgent: Agent;
  otherAgent: Agent;
  task: Task;
  sessionId: string;
}

interface Case {
  name: string;
  run(fixture: Fixture): Promise<unknown>;
}

const PG_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const QUOTAS: Quotas = { agentsPerUser: 10_000_000, tasksPerAgent: 0, storedBytesPerUser: 0 };
const SERVICE: Principal = { kind: 'service', keyNumber: 1 };
const NEW_AGENT: AgentCreate = { name: 'bench', type: 'type_a' };
/** The root surface's default page (`GET /agents`), and the v1 surface's first cursor page of 100. */
const OFFSET_PAGE: ListQuery = offsetQuery(0, 100);
const CURSOR_PAGE: ListQuery = { filters: [], sort: { field: 'created_at', descending: true }, window: { kind: 'cursor', limit: 100 } };

const CASES: Case[] = [
  { name: 'agents.find (any owner)', run: (f) => f.store.agents.find(f.otherAgent.id) },
  { name: 'agents.reach (member scope)', run: (f) => f.store.agents.reach(f.ownAgent.id, { memberId: f.user.id }) },
  { name: 'agents.list offset 100', run: (f) => f.store.agents.list(OFFSET_PAGE, {}) },
  { name: 'agents.list cursor 100', run: (f) => f.store.agents.list(CURSOR_PAGE, {}) },
  { name: 'agents.insert', run: (f) => f.store.agents.insert(agentOf(null, f.serviceWorkspaceId)) },
  { name: 'createAgent (API key)', run: (f) => createAgent(f.store, SERVICE, NEW_AGENT, QUOTAS) },
  { name: 'createAgent (user, quota)', run: (f) => createAgent(f.store, { kind: 'user', user: f.user }, NEW_AGENT, QUOTAS) },
  { name: 'store.transaction (empty)', run: (f) => f.store.transaction(async () => undefined) },
  { name: 'tasks.find', run: (f) => f.store.tasks.find(f.ownAgent.id, f.task.id) },
  { name: 'sessions.findLive', run: (f) => f.store.sessions.findLive(f.sessionId, f.user.id, now()) },
];

function parseOptions(argv: string[]): Options {
  const flag = (name: string, env: string, fallback: string) =>
    argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? process.env[env] ?? fallback;
  const count = (name: string, env: string, fallback: string) => {
    const value = Number(flag(name, env, fallback));
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
    return value;
  };
  const databases = flag('databases', 'BENCH_DATABASES', 'sqlite,pg').split(',');
  for (const kind of databases) if (kind !== 'sqlite' && kind !== 'pg') throw new Error(`unknown database ${kind}`);
  return {
    databases: databases as DatabaseKind[],
    iterations: count('iterations', 'BENCH_ITERATIONS', '5000'),
    rounds: count('rounds', 'BENCH_ROUNDS', '5'),
    seed: count('seed', 'BENCH_SEED', '1000'),
    json: argv.includes('--json'),
  };
}

/** An agent of `workspaceId`: an owner's personal workspace (its id is the owner's), or `service` for one without an owner. */
function agentOf(ownerId: string | null, workspaceId: string): Agent {
  const timestamp = now();
  return { id: newId(), owner_id: ownerId, workspace_id: workspaceId, name: 'bench', type: 'type_a', status: 'idle', created_at: timestamp, updated_at: timestamp, max_concurrency: null };
}

async function openDatabase(kind: DatabaseKind): Promise<{ db: Database; close(): Promise<void> }> {
  const suffix = randomBytes(6).toString('hex');
  if (kind === 'sqlite') {
    const filename = path.join(os.tmpdir(), `agent-fleet-bench-${suffix}.sqlite`);
    const db = await connectDatabase({ client: 'sqlite', filename, limits: DEFAULT_DATABASE_LIMITS });
    return {
      db,
      close: async () => {
        await db.destroy();
        for (const extra of ['', '-wal', '-shm']) rmSync(filename + extra, { force: true });
      },
    };
  }
  const schema = `bench_${suffix}`;
  const admin = knex({ client: 'pg', connection: PG_URL });
  await admin.raw('create schema ??', [schema]);
  const config: DatabaseConfig = { client: 'pg', connectionString: PG_URL, limits: DEFAULT_DATABASE_LIMITS };
  const db = await connectDatabase(config, { searchPath: schema });
  return {
    db,
    close: async () => {
      await db.destroy();
      await admin.raw('drop schema ?? cascade', [schema]);
      await admin.destroy();
    },
  };
}

async function seed(db: Database, agents: number): Promise<Fixture> {
  const store = createStore(db);
  const timestamp = now();
  const user = await store.users.insert({
    id: newId(),
    name: 'Bench',
    email: `bench-${randomBytes(4).toString('hex')}@example.test`,
    age: null,
    role: 'user',
    password_hash: null,
    created_at: timestamp,
    updated_at: timestamp,
  });
  const serviceWorkspaceId = await store.workspaces.serviceId();
  const seeded: Agent[] = [];
  for (let i = 0; i < agents; i += 1) seeded.push(await store.agents.insert(i % 2 === 0 ? agentOf(user.id, user.id) : agentOf(null, serviceWorkspaceId)));
  const ownAgent = seeded[0] as Agent;
  const otherAgent = seeded[1] as Agent;
  const task: Task = {
    id: newId(),
    agent_id: ownAgent.id,
    title: 'bench',
    description: null,
    input: { a: 1 },
    priority: 5,
    status: 'queued',
    result: null,
    error: null,
    created_at: timestamp,
    updated_at: timestamp,
    started_at: null,
    finished_at: null,
    attempts: 0,
    max_attempts: 3,
    available_at: timestamp,
    progress: null,
    lease_id: null,
    last_error: null,
    usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0 },
      run_at: null,
      timeout_seconds: null,
      deadline_at: null,
      schedule_id: null,
  };
  await store.tasks.insert(task, 20);
  const sessionId = newId();
  await store.sessions.insert({ id: sessionId, user_id: user.id, method: 'password', created_at: timestamp, expires_at: '9999-01-01T00:00:00.000Z', revoked_at: null, revoked_reason: null });
  return { store, db, user, serviceWorkspaceId, ownAgent, otherAgent, task, sessionId };
}

interface Figures {
  wall: number;
  cpu: number;
}

async function measure(fixture: Fixture, test: Case, options: Options): Promise<Figures> {
  const round = async (): Promise<Figures> => {
    const started = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    for (let i = 0; i < options.iterations; i += 1) await test.run(fixture);
    const used = process.cpuUsage(cpu);
    return { wall: Number(process.hrtime.bigint() - started) / 1000 / options.iterations, cpu: (used.user + used.system) / options.iterations };
  };
  await round();
  const rounds: Figures[] = [];
  for (let i = 0; i < options.rounds; i += 1) rounds.push(await round());
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  return { wall: median(rounds.map((figures) => figures.wall)), cpu: median(rounds.map((figures) => figures.cpu)) };
}

const round1 = (value: number) => Math.round(value * 10) / 10;

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const results: Record<string, Record<string, Figures>> = {};
  for (const kind of options.databases) {
    const { db, close } = await openDatabase(kind);
    try {
      const fixture = await seed(db, options.seed);
      const figures: Record<string, Figures> = {};
      for (const test of CASES) {
        const { wall, cpu } = await measure(fixture, test, options);
        figures[test.name] = { wall: round1(wall), cpu: round1(cpu) };
      }
      results[kind] = figures;
    } finally {
      await close();
    }
  }
  if (options.json) {
    for (const [kind, figures] of Object.entries(results)) console.log(JSON.stringify({ database: kind, ...figures }));
    return;
  }
  const width = Math.max(...CASES.map((test) => test.name.length));
  const columns = options.databases.flatMap((kind) => [`${kind} wall`, `${kind} cpu`]);
  console.log(`µs per call (median of ${options.rounds} rounds of ${options.iterations}), Node ${process.version}`);
  console.log(`${''.padEnd(width)}  ${columns.map((column) => column.padStart(11)).join('  ')}`);
  for (const test of CASES) {
    const cells = options.databases.flatMap((kind) => {
      const figures = results[kind]?.[test.name];
      return [String(figures?.wall ?? ''), String(figures?.cpu ?? '')];
    });
    console.log(`${test.name.padEnd(width)}  ${cells.map((cell) => cell.padStart(11)).join('  ')}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
