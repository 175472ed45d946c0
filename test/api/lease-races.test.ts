import { randomBytes } from 'node:crypto';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { connectDatabase } from '../../src/data/database';
import { describeWithPostgres } from '../support/harness';
import { jsonCaller, listeningPort, serviceEnv, useServerProcesses, type ServerProcess } from '../support/server-process';
import { PG_TEST_URL } from '../support/services';

const API_KEY = 'lease-races-key-0123456789abcdef';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A service process's environment: its database, no API rate limit to speak of, and the test's own lease settings. */
const envFor = (databaseUrl: string, overrides: Record<string, string> = {}) =>
  serviceEnv(API_KEY, { DATABASE_URL: databaseUrl, RATE_LIMIT_API_MAX: '1000000', RATE_LIMIT_USER_MAX: '1000000', ...overrides });

const call = jsonCaller(API_KEY);

/** An agent with `count` queued tasks, created through `port`. */
async function queueTasks(port: number, count: number): Promise<{ agentId: string; taskIds: string[] }> {
  const agent = await call(port, 'POST', '/api/v1/agents', { name: 'race', type: 'type_a' });
  expect(agent.status).toBe(201);
  const agentId = agent.body.data.id as string;
  const taskIds: string[] = [];
  for (let start = 0; start < count; start += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, count - start) }, (_, i) => call(port, 'POST', `/api/v1/agents/${agentId}/tasks`, { title: `task ${start + i}`, priority: (start + i) % 3 })),
    );
    for (const res of batch) {
      expect(res.status).toBe(201);
      taskIds.push(res.body.data.id);
    }
  }
  return { agentId, taskIds };
}

interface Tally {
  /** Task id to the worker whose success report was acknowledged (200). */
  acknowledged: Map<string, string>;
  /** A second acknowledgment for one task: must never happen. */
  doubles: string[];
  unexpected: string[];
}

/**
 * `workers` workers, spread over the processes, each claiming and reporting success until every
 * task has been acknowledged (or the deadline passes).
 */
async function race(ports: number[], agentId: string, total: number, workers: number, holdMs = 0): Promise<Tally> {
  const tally: Tally = { acknowledged: new Map(), doubles: [], unexpected: [] };
  const deadline = Date.now() + 150_000;
  const work = async (worker: number) => {
    const name = `worker-${worker}`;
    for (let n = 0; tally.acknowledged.size < total && Date.now() < deadline; n++) {
      const port = ports[(worker + n) % ports.length] as number;
      const claim = await call(port, 'POST', `/api/v1/agents/${agentId}/leases`, { ttl_seconds: 120, wait_seconds: 1 });
      if (claim.status === 204) continue;
      if (claim.status !== 201) {
        tally.unexpected.push(`claim ${claim.status} ${JSON.stringify(claim.body)}`);
        continue;
      }
      const lease = claim.body.data;
      if (holdMs > 0) await sleep(holdMs);
      const done = await call(ports[(worker + n + 1) % ports.length] as number, 'PATCH', `/api/v1/agents/${agentId}/leases/${lease.id}`, { status: 'succeeded', result: { by: name } });
      if (done.status !== 200) {
        tally.unexpected.push(`report ${done.status} ${JSON.stringify(done.body)}`);
        continue;
      }
      if (tally.acknowledged.has(lease.task_id)) tally.doubles.push(lease.task_id);
      tally.acknowledged.set(lease.task_id, name);
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, worker) => work(worker)));
  return tally;
}

/** What the database holds after the race: every task succeeded once, by the worker acknowledged, under exactly one lease. */
async function expectEachTaskDoneOnce(db: Knex, taskIds: string[], tally: Tally): Promise<void> {
  expect(tally.unexpected).toEqual([]);
  expect(tally.doubles).toEqual([]);
  expect(tally.acknowledged.size).toBe(taskIds.length);
  const tasks: Array<{ id: string; status: string; attempts: number; result: unknown; lease_id: string | null }> = await db('tasks').whereIn('id', taskIds).select('id', 'status', 'attempts', 'result', 'lease_id');
  const resultOf = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value) as { by: string };
  expect(tasks.filter((task) => task.status !== 'succeeded' || Number(task.attempts) !== 1 || task.lease_id !== null)).toEqual([]);
  expect(tasks.filter((task) => resultOf(task.result).by !== tally.acknowledged.get(task.id))).toEqual([]);
  const leases: Array<{ task_id: string; n: string | number }> = await db('leases').whereIn('task_id', taskIds).groupBy('task_id').select('task_id').count({ n: '*' });
  expect(leases).toHaveLength(taskIds.length);
  expect(leases.filter((row) => Number(row.n) !== 1)).toEqual([]);
  const open = await db('leases').whereIn('task_id', taskIds).whereNot({ status: 'completed' }).select('id');
  expect(open).toEqual([]);
}

describe('leases across server processes', () => {
  const processes = useServerProcesses();
  const started = async (env: Record<string, string>): Promise<{ server: ServerProcess; port: number }> => {
    const server = processes.spawn(env);
    return { server, port: await listeningPort(server) };
  };

  describeWithPostgres('on PostgreSQL (one schema, two processes)', () => {
    let admin: Knex;
    let schema: string;
    beforeEach(async () => {
      schema = `test_races_${randomBytes(5).toString('hex')}`;
      admin = knex({ client: 'pg', connection: PG_TEST_URL });
      await admin.raw('create schema ??', [schema]);
    });
    afterEach(async () => {
      await admin.raw('drop schema ?? cascade', [schema]);
      await admin.destroy();
    });

    it('when 24 workers on two processes race for 300 tasks, then every task is leased and succeeds exactly once', async () => {
      const url = `${PG_TEST_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
      const first = await started(envFor(url));
      const second = await started(envFor(url));
      const { agentId, taskIds } = await queueTasks(first.port, 300);
      const tally = await race([first.port, second.port], agentId, taskIds.length, 24);
      const db = knex({ client: 'pg', connection: PG_TEST_URL, searchPath: [schema] });
      try {
        await expectEachTaskDoneOnce(db, taskIds, tally);
        expect(await db('agents').where({ id: agentId }).first('status')).toEqual({ status: 'idle' });
      } finally {
        await db.destroy();
      }
    }, 240_000);

    it('when 24 workers on two processes race for 120 tasks of an agent capped at 3, then never more than 3 run at once, and every task succeeds once', async () => {
      const url = `${PG_TEST_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
      const first = await started(envFor(url));
      const second = await started(envFor(url));
      const { agentId, taskIds } = await queueTasks(first.port, 120);
      expect((await call(first.port, 'PATCH', `/api/v1/agents/${agentId}`, { max_concurrency: 3 })).status).toBe(200);
      const tally = await race([first.port, second.port], agentId, taskIds.length, 24, 15);
      const db = knex({ client: 'pg', connection: PG_TEST_URL, searchPath: [schema] });
      try {
        await expectEachTaskDoneOnce(db, taskIds, tally);
        // Each lease runs from its claim to its outcome, both stamped under the agent's lock.
        const leases: Array<{ created_at: Date; ended_at: Date }> = await db('leases').where({ agent_id: agentId }).select('created_at', 'ended_at');
        const moments = leases.flatMap((lease) => [
          { at: lease.created_at.getTime(), step: 1 },
          { at: lease.ended_at.getTime(), step: -1 },
        ]);
        // An end and a claim at the same millisecond: the end came first (the claim waited for its commit).
        moments.sort((a, b) => a.at - b.at || a.step - b.step);
        let running = 0;
        let most = 0;
        for (const moment of moments) {
          running += moment.step;
          most = Math.max(most, running);
        }
        expect(most).toBe(3);
      } finally {
        await db.destroy();
      }
    }, 240_000);
  });

  describe('on SQLite (one file, two processes)', () => {
    it('when 8 workers on two processes race for 60 tasks, then every task is leased and succeeds exactly once', async () => {
      const url = `sqlite:${path.join(processes.tempDir(), 'fleet.sqlite')}`;
      const first = await started(envFor(url));
      const second = await started(envFor(url));
      const { agentId, taskIds } = await queueTasks(first.port, 60);
      const tally = await race([first.port, second.port], agentId, taskIds.length, 8);
      const db = await connectDatabase({ client: 'sqlite', filename: path.join(processes.tempDir(), 'fleet.sqlite') });
      try {
        await expectEachTaskDoneOnce(db, taskIds, tally);
      } finally {
        await db.destroy();
      }
    }, 240_000);
  });

  describe('the process layer', () => {
    it("when a lease expires, then the process's own sweep timer queues its task again or fails it, without any claim", async () => {
      const filename = path.join(processes.tempDir(), 'fleet.sqlite');
      const { server, port } = await started(envFor(`sqlite:${filename}`, { LEASE_SWEEP_INTERVAL_MS: '200' }));
      const agent = (await call(port, 'POST', '/api/v1/agents', { name: 'swept', type: 'type_a' })).body.data;
      const task = (await call(port, 'POST', `/api/v1/agents/${agent.id}/tasks`, { title: 'abandoned', max_attempts: 1 })).body.data;
      const lease = (await call(port, 'POST', `/api/v1/agents/${agent.id}/leases`, { ttl_seconds: 600 })).body.data;
      // The worker stopped heartbeating long ago.
      const db = await connectDatabase({ client: 'sqlite', filename });
      try {
        await db('leases').where({ id: lease.id }).update({ expires_at: new Date(Date.now() - 1000).toISOString() });
      } finally {
        await db.destroy();
      }
      await server.waitForLog((line) => line.msg === 'expired leases ended');
      const read = await call(port, 'GET', `/api/v1/agents/${agent.id}/tasks/${task.id}`);
      expect(read.body.data).toMatchObject({ status: 'failed', error: 'lease expired', lease_id: null });
      expect((await call(port, 'GET', `/api/v1/agents/${agent.id}/leases/${lease.id}`)).body.data.status).toBe('expired');
    }, 60_000);

    it('when SIGTERM arrives while a claim waits for a task, then it answers 204 at once and the process exits cleanly', async () => {
      const { server, port } = await started(envFor(`sqlite:${path.join(processes.tempDir(), 'fleet.sqlite')}`));
      const agent = (await call(port, 'POST', '/api/v1/agents', { name: 'draining', type: 'type_a' })).body.data;
      const asked = Date.now();
      const waiting = call(port, 'POST', `/api/v1/agents/${agent.id}/leases`, { wait_seconds: 20 });
      await sleep(500);
      server.child.kill('SIGTERM');
      const res = await waiting;
      expect(res.status).toBe(204);
      // Well before the 20 seconds it was willing to wait.
      expect(Date.now() - asked).toBeLessThan(15_000);
      expect(await server.exited).toEqual({ code: 0, signal: null });
    }, 60_000);
  });
});
