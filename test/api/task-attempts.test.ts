import supertest from 'supertest';
import { buildApp } from '../../src/app';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStore } from '../../src/data/store';
import { createStatsCache, getAgentStats } from '../../src/domain/fleet-health';
import { appendLogs, sweepExpiredLeases, type WorkQueue } from '../../src/domain/leases';
import { createTaskWakeups } from '../../src/domain/task-wakeups';
import { createLogger } from '../../src/logger';
import { describeEachDatabase, TEST_API_KEY } from '../support/harness';
import { openEventStream } from '../support/event-stream-client';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describeEachDatabase(
  'attempts, logs and usage',
  (get) => {
    const api = () => get().http;
    const service = () => supertest(get().app);
    const createAgent = async () => (await api().post('/api/v1/agents').send({ name: 'worker', type: 'type_a' }).expect(201)).body.data;
    const createTask = async (agentId: string, body: object = {}) =>
      (await api().post(`/api/v1/agents/${agentId}/tasks`).send({ title: 'summarise', ...body }).expect(201)).body.data;
    const claim = async (agentId: string) => (await api().post(`/api/v1/agents/${agentId}/leases`).send({}).expect(201)).body.data;
    const leasePath = (lease: { agent_id: string; id: string }) => `/api/v1/agents/${lease.agent_id}/leases/${lease.id}`;
    const attemptsOf = async (agentId: string, taskId: string) => (await api().get(`/api/v1/agents/${agentId}/tasks/${taskId}/attempts`).expect(200)).body;
    const logsOf = async (agentId: string, taskId: string, query = '') => (await api().get(`/api/v1/agents/${agentId}/tasks/${taskId}/logs${query}`).expect(200)).body;
    const queue = (): WorkQueue => ({ store: createStore(get().database.db), retry: get().config.leases, wakeups: createTaskWakeups(), quotas: get().config.quotas });
    const expire = async (lease: { id: string }) => {
      await createStore(get().database.db).leases.updateActive(lease.id, { expires_at: new Date(Date.now() - 1000).toISOString() });
    };

    describe('attempts', () => {
      it('when a worker fails with retry, then the task keeps last_error, its attempt the error, and task.requeued says why', async () => {
        const agent = await createAgent();
        const task = await createTask(agent.id);
        const first = await claim(agent.id);
        const failed = await api().patch(leasePath(first)).send({ status: 'failed', error: 'model timed out', retry: true }).expect(200);
        expect(failed.body.data.task).toMatchObject({ status: 'queued', error: null, last_error: 'model timed out' });

        const page = await attemptsOf(agent.id, task.id);
        expect(page.meta).toEqual({ nextCursor: null, hasMore: false });
        expect(page.data).toEqual([
          {
            number: 1,
            lease_id: first.id,
            worker: { kind: 'user', credential_id: get().user.user.id, name: get().user.user.name },
            started_at: first.created_at,
            ended_at: expect.stringMatching(ISO_MS),
            outcome: 'failed',
            error: 'model timed out',
            last_heartbeat_at: null,
            progress: null,
            usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0 },
            model: null,
          },
        ]);
        const events = (await api().get(`/api/v1/events?agent_id=${agent.id}&types=task.requeued`).expect(200)).body.data;
        expect(events).toHaveLength(1);
        expect(events[0].data).toMatchObject({ status: 'queued', previous_status: 'running', reason: 'failed', error: 'model timed out', last_error: 'model timed out' });
      });

      it('when attempts succeed, are released, expire or are cancelled, then each is listed oldest first with its outcome and worker', async () => {
        const agent = await createAgent();
        const task = await createTask(agent.id, { max_attempts: 5 });
        const released = await claim(agent.id);
        await api().delete(leasePath(released)).expect(204);
        const expired = await claim(agent.id);
        await expire(expired);
        expect(await sweepExpiredLeases(queue())).toBeGreaterThanOrEqual(1);
        await createStore(get().database.db).tasks.update(task.id, 'queued', { available_at: new Date(Date.now() - 1000).toISOString() }, 0);
        // A service key claims the third attempt: the worker names it by number, never the key.
        const third = (await service().post(`/api/v1/agents/${agent.id}/leases`).set('X-API-Key', TEST_API_KEY).send({}).expect(201)).body.data;
        await service().patch(leasePath(third)).set('X-API-Key', TEST_API_KEY).send({ progress: { percent: 40, message: 'reading' } }).expect(200);
        await service().patch(leasePath(third)).set('X-API-Key', TEST_API_KEY).send({ status: 'succeeded', result: { ok: true } }).expect(200);

        const attempts = (await attemptsOf(agent.id, task.id)).data;
        expect(attempts.map((a: { number: number; outcome: string }) => [a.number, a.outcome])).toEqual([
          [1, 'released'],
          [2, 'expired'],
          [3, 'succeeded'],
        ]);
        expect(attempts[1].error).toBe('lease expired');
        expect(attempts[2]).toMatchObject({ worker: { kind: 'service_key', credential_id: 'service-key-1', name: 'Service key 1' }, progress: { percent: 40, message: 'reading' } });
        expect(attempts[2].last_heartbeat_at).toMatch(ISO_MS);
        const reasons = (await api().get(`/api/v1/events?agent_id=${agent.id}&types=task.requeued`).expect(200)).body.data.map((e: { data: { reason: string; error: unknown } }) => [e.data.reason, e.data.error]);
        expect(reasons).toEqual([
          ['released', null],
          ['expired', 'lease expired'],
        ]);
        const done = (await api().get(`/api/v1/agents/${agent.id}/tasks/${task.id}`).expect(200)).body.data;
        expect(done).toMatchObject({ status: 'succeeded', last_error: 'lease expired' });

        const cancelledTask = await createTask(agent.id);
        const held = await claim(agent.id);
        expect(held.task_id).toBe(cancelledTask.id);
        await api().patch(`/api/v1/agents/${agent.id}/tasks/${cancelledTask.id}`).send({ status: 'cancelled' }).expect(200);
        expect((await attemptsOf(agent.id, cancelledTask.id)).data[0]).toMatchObject({ number: 1, outcome: 'cancelled' });
      });

      it('when attempts are paged, then the cursor continues after the last one, and a foreign cursor is 400', async () => {
        const agent = await createAgent();
        const task = await createTask(agent.id);
        for (let i = 0; i < 3; i++) await api().delete(leasePath(await claim(agent.id))).expect(204);
        const first = (await api().get(`/api/v1/agents/${agent.id}/tasks/${task.id}/attempts?limit=2`).expect(200)).body;
        expect(first.data.map((a: { number: number }) => a.number)).toEqual([1, 2]);
        expect(first.meta).toEqual({ nextCursor: '2', hasMore: true });
        const second = (await api().get(`/api/v1/agents/${agent.id}/tasks/${task.id}/attempts?limit=2&cursor=2`).expect(200)).body;
        expect(second.data.map((a: { number: number }) => a.number)).toEqual([3]);
        const refused = await api().get(`/api/v1/agents/${agent.id}/tasks/${task.id}/attempts?cursor=abc`).expect(400);
        expect(refused.body.error.code).toBe('VALIDATION_ERROR');
        await api().get(`/api/v1/agents/${agent.id}/tasks/0190a8f0-0000-7000-8000-000000000000/attempts`).expect(404);
        const stranger = await get().signUp();
        await stranger.http.get(`/api/v1/agents/${agent.id}/tasks/${task.id}/attempts`).expect(404);
      });
    });

    describe('usage', () => {
      it('when heartbeats and the outcome report usage, then the attempt, the task and the agent by hour and day sum it', async () => {
        const agent = await createAgent();
        const task = await createTask(agent.id);
        const lease = await claim(agent.id);
        const beat = await api().patch(leasePath(lease)).send({ usage: { input_tokens: 1200, output_tokens: 300, cost_usd: 0.0123, model: 'gpt-x' } }).expect(200);
        expect(beat.body.data.task.usage).toEqual({ input_tokens: 1200, output_tokens: 300, cost_usd: 0.0123 });
        await api().patch(leasePath(lease)).send({ status: 'succeeded', result: 'done', usage: { input_tokens: 800, output_tokens: 200, cost_usd: 0.0077, model: 'gpt-x' } }).expect(200);
        const read = (await api().get(`/api/v1/agents/${agent.id}/tasks/${task.id}`).expect(200)).body.data;
        expect(read.usage).toEqual({ input_tokens: 2000, output_tokens: 500, cost_usd: 0.02 });
        const [attempt] = (await attemptsOf(agent.id, task.id)).data;
        expect(attempt).toMatchObject({ usage: { input_tokens: 2000, output_tokens: 500, cost_usd: 0.02 }, model: 'gpt-x' });

        const hourly = (await api().get(`/api/v1/agents/${agent.id}/usage`).expect(200)).body.data;
        expect(hourly).toMatchObject({ agent_id: agent.id, granularity: 'hour', totals: { input_tokens: 2000, output_tokens: 500, cost_usd: 0.02 } });
        expect(hourly.buckets).toHaveLength(25);
        const current = hourly.buckets.at(-1);
        expect(current).toMatchObject({ input_tokens: 2000, models: [{ model: 'gpt-x', input_tokens: 2000, output_tokens: 500, cost_usd: 0.02 }] });
        const daily = (await api().get(`/api/v1/agents/${agent.id}/usage?granularity=day`).expect(200)).body.data;
        expect(daily.buckets).toHaveLength(31);
        expect(daily.buckets.at(-1).start).toMatch(/T00:00:00\.000Z$/);
        expect(daily.totals.cost_usd).toBe(0.02);
      });

      it('when usage is negative, absurd or empty, or a range is inverted or too long, then 400 and nothing is counted', async () => {
        const agent = await createAgent();
        const task = await createTask(agent.id);
        const lease = await claim(agent.id);
        for (const usage of [{ input_tokens: -1 }, { output_tokens: 1e12 }, { cost_usd: -0.5 }, { cost_usd: 1e9 }, {}, { model: '' }, { input_tokens: 1.5 }]) {
          const res = await api().patch(leasePath(lease)).send({ usage });
          expect(res.status).toBe(400);
          expect(res.body.error.code).toBe('VALIDATION_ERROR');
        }
        expect((await api().get(`/api/v1/agents/${agent.id}/tasks/${task.id}`).expect(200)).body.data.usage).toEqual({ input_tokens: 0, output_tokens: 0, cost_usd: 0 });
        const inverted = await api().get(`/api/v1/agents/${agent.id}/usage?from=2026-02-02T00:00:00Z&to=2026-02-01T00:00:00Z`).expect(400);
        expect(inverted.body.error.code).toBe('VALIDATION_ERROR');
        await api().get(`/api/v1/agents/${agent.id}/usage?from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z`).expect(400);
        await api().get(`/api/v1/agents/${agent.id}/usage?granularity=week`).expect(400);
      });

      it('when a lease is lost, then usage reported with it is refused and counted nowhere', async () => {
        const agent = await createAgent();
        const task = await createTask(agent.id);
        const lease = await claim(agent.id);
        await api().patch(leasePath(lease)).send({ status: 'succeeded' }).expect(200);
        const lost = await api().patch(leasePath(lease)).send({ usage: { input_tokens: 10 } }).expect(409);
        expect(lost.body.error.code).toBe('LEASE_LOST');
        expect((await api().get(`/api/v1/agents/${agent.id}/tasks/${task.id}`).expect(200)).body.data.usage.input_tokens).toBe(0);
      });
    });

    describe('logs', () => {
      it('when a worker appends batches, then they read back oldest first, by attempt, level and cursor', async () => {
        const agent = await createAgent();
        const task = await createTask(agent.id, { max_attempts: 3 });
        const first = await claim(agent.id);
        await api()
          .post(`${leasePath(first)}/logs`)
          .send({ lines: [{ level: 'debug', message: 'starting' }, { level: 'info', message: 'fetched', data: { bytes: 512 } }, { level: 'error', message: 'timeout', at: new Date(Date.now() - 5000).toISOString() }] })
          .expect(204);
        await api().patch(leasePath(first)).send({ status: 'failed', error: 'timeout', retry: true }).expect(200);
        await createStore(get().database.db).tasks.update(task.id, 'queued', { available_at: new Date(Date.now() - 1000).toISOString() }, 0);
        const second = await claim(agent.id);
        await api().post(`${leasePath(second)}/logs`).send({ lines: [{ level: 'warn', message: 'retrying' }] }).expect(204);

        const all = await logsOf(agent.id, task.id);
        expect(all.data.map((line: { attempt: number; message: string }) => [line.attempt, line.message])).toEqual([
          [1, 'starting'],
          [1, 'fetched'],
          [1, 'timeout'],
          [2, 'retrying'],
        ]);
        expect(all.data[1]).toEqual({ id: expect.stringMatching(/^[0-9]+$/), attempt: 1, lease_id: first.id, level: 'info', message: 'fetched', data: { bytes: 512 }, at: expect.stringMatching(ISO_MS) });
        expect(all.data[0].data).toBeNull();
        expect((await logsOf(agent.id, task.id, '?attempt=2')).data.map((line: { message: string }) => line.message)).toEqual(['retrying']);
        expect((await logsOf(agent.id, task.id, '?level=warn')).data.map((line: { message: string }) => line.message)).toEqual(['timeout', 'retrying']);
        const page = await logsOf(agent.id, task.id, '?limit=3');
        expect(page.meta).toEqual({ nextCursor: page.data[2].id, hasMore: true });
        expect((await logsOf(agent.id, task.id, `?cursor=${page.meta.nextCursor}`)).data.map((line: { message: string }) => line.message)).toEqual(['retrying']);
      });

      it('when lines are too many, too long, too large or misdated, then 400 and the batch writes nothing', async () => {
        const agent = await createAgent();
        const task = await createTask(agent.id);
        const lease = await claim(agent.id);
        const bad = [
          { lines: [] },
          { lines: Array.from({ length: 101 }, () => ({ level: 'info', message: 'x' })) },
          { lines: [{ level: 'info', message: 'x'.repeat(8193) }] },
          { lines: [{ level: 'loud', message: 'x' }] },
          { lines: [{ level: 'info', message: 'ok' }, { level: 'info', message: 'big', data: { blob: 'x'.repeat(9000) } }] },
          { lines: [{ level: 'info', message: 'ok' }, { level: 'info', message: 'old', at: '2020-01-01T00:00:00.000Z' }] },
          { lines: [{ level: 'info', message: 'future', at: new Date(Date.now() + 3_600_000).toISOString() }] },
        ];
        for (const body of bad) {
          const res = await api().post(`${leasePath(lease)}/logs`).send(body);
          expect(res.status).toBe(400);
          expect(res.body.error.code).toBe('VALIDATION_ERROR');
        }
        expect((await logsOf(agent.id, task.id)).data).toEqual([]);
      });

      it('when the lease is lost, then its worker writes no line (409 LEASE_LOST)', async () => {
        const agent = await createAgent();
        const task = await createTask(agent.id);
        const lease = await claim(agent.id);
        await expire(lease);
        const lost = await api().post(`${leasePath(lease)}/logs`).send({ lines: [{ level: 'info', message: 'late' }] }).expect(409);
        expect(lost.body.error).toMatchObject({ code: 'LEASE_LOST', details: { reason: 'expired' } });
        expect((await logsOf(agent.id, task.id)).data).toEqual([]);
      });

      it('when a task logs past its bound, then the oldest lines go first', async () => {
        const agent = await createAgent();
        const task = await createTask(agent.id);
        const lease = await claim(agent.id);
        const store = createStore(get().database.db);
        const bounded: WorkQueue = { ...queue(), logLinesPerTask: 5 };
        const principal = { kind: 'service' as const, keyNumber: 1 };
        for (let batch = 0; batch < 3; batch++) {
          await appendLogs(bounded, principal, agent.id, lease.id, Array.from({ length: 3 }, (_, i) => ({ level: 'info' as const, message: `line ${batch * 3 + i}` })));
        }
        const lines = await store.taskLogs.list(task.id, { after: '0', limit: 100 });
        expect(lines.map((line) => line.message)).toEqual(['line 4', 'line 5', 'line 6', 'line 7', 'line 8']);
        // The task counts what it keeps: the next append knows at once what to trim.
        expect(Number((await get().database.db('tasks').where({ id: task.id }).first('log_lines')).log_lines)).toBe(5);
        // A batch larger than the bound keeps its own newest lines, in order.
        await appendLogs(bounded, principal, agent.id, lease.id, Array.from({ length: 7 }, (_, i) => ({ level: 'warn' as const, message: `big ${i}` })));
        const after = await store.taskLogs.list(task.id, { after: '0', limit: 100 });
        expect(after.map((line) => line.message)).toEqual(['big 2', 'big 3', 'big 4', 'big 5', 'big 6']);
      });

      it('when a stream follows a task on another instance, then lines appended elsewhere arrive live, and Last-Event-ID resumes', async () => {
        const agent = await createAgent();
        const task = await createTask(agent.id);
        const lease = await claim(agent.id);
        await api().post(`${leasePath(lease)}/logs`).send({ lines: [{ level: 'info', message: 'before' }] }).expect(204);
        // A second instance over the same database.
        const other = buildApp({ config: get().config, db: get().database.db, logger: createLogger({ logLevel: 'silent' }) });
        const server = createHttpServer(other);
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const url = `${base}/api/v1/agents/${agent.id}/tasks/${task.id}/logs`;
        try {
          const stream = await openEventStream(url, { 'X-API-Key': TEST_API_KEY });
          expect(stream.status).toBe(200);
          expect(stream.headers.get('cache-control')).toBe('no-store');
          await stream.waitFor(1);
          await api().post(`${leasePath(lease)}/logs`).send({ lines: [{ level: 'warn', message: 'live' }] }).expect(204);
          const [first, second] = await stream.waitFor(2, 3000);
          expect(first).toMatchObject({ event: 'log' });
          expect(JSON.parse(String(second?.data))).toMatchObject({ message: 'live', level: 'warn', attempt: 1 });
          stream.close();
          const resumed = await openEventStream(url, { 'X-API-Key': TEST_API_KEY, 'Last-Event-ID': String(first?.id) });
          const [again] = await resumed.waitFor(1);
          expect(JSON.parse(String(again?.data)).message).toBe('live');
          resumed.close();
          const refused = await fetch(url, { headers: { Accept: 'text/event-stream' } });
          expect(refused.status).toBe(401);
        } finally {
          server.closeAllConnections();
          await new Promise((resolve) => server.close(resolve));
        }
      });
    });

    describe("the fleet's health", () => {
      it('when workers hold and finish leases, then the workers list names each with its active leases and last hour', async () => {
        const agent = await createAgent();
        const done = await createTask(agent.id, { title: 'done' });
        const held = await createTask(agent.id, { title: 'held' });
        const first = await claim(agent.id);
        expect(first.task_id).toBe(done.id);
        await api().patch(leasePath(first)).send({ status: 'succeeded' }).expect(200);
        const second = await claim(agent.id);
        await api().patch(leasePath(second)).send({ ttl_seconds: 120, progress: { percent: 10 } }).expect(200);
        const workers = (await api().get(`/api/v1/agents/${agent.id}/workers`).expect(200)).body;
        expect(workers.meta).toEqual({ nextCursor: null, hasMore: false });
        expect(workers.data).toEqual([
          {
            kind: 'user',
            credential_id: get().user.user.id,
            name: get().user.user.name,
            last_seen_at: expect.stringMatching(ISO_MS),
            active_leases: [{ lease_id: second.id, task_id: held.id, task_title: 'held', expires_at: expect.stringMatching(ISO_MS), last_heartbeat_at: expect.stringMatching(ISO_MS), progress: { percent: 10 } }],
            succeeded_last_hour: 1,
            failed_last_hour: 0,
          },
        ]);
      });

      it('when several credentials work an agent, then the workers page by cursor, and a cursor of no worker ends the list', async () => {
        const agent = await createAgent();
        await createTask(agent.id);
        await createTask(agent.id);
        await claim(agent.id);
        await service().post(`/api/v1/agents/${agent.id}/leases`).set('X-API-Key', TEST_API_KEY).send({}).expect(201);
        const first = (await api().get(`/api/v1/agents/${agent.id}/workers?limit=1`).expect(200)).body;
        expect(first.data).toHaveLength(1);
        expect(first.meta.hasMore).toBe(true);
        const second = (await api().get(`/api/v1/agents/${agent.id}/workers?limit=1&cursor=${encodeURIComponent(first.meta.nextCursor)}`).expect(200)).body;
        expect(second.data).toHaveLength(1);
        expect(second.meta).toEqual({ nextCursor: null, hasMore: false });
        expect(new Set([first.data[0].kind, second.data[0].kind])).toEqual(new Set(['user', 'service_key']));
        const gone = (await api().get(`/api/v1/agents/${agent.id}/workers`).query({ cursor: 'agent_key:0190a8f0-0000-7000-8000-000000000000' }).expect(200)).body;
        expect(gone).toMatchObject({ data: [], meta: { nextCursor: null, hasMore: false } });
        await api().get(`/api/v1/agents/${agent.id}/workers?cursor=nonsense`).expect(400);
      });

      it('when tasks wait, run and finish, then the stats count them and measure wait and run time', async () => {
        const agent = await createAgent();
        for (let i = 0; i < 4; i++) await createTask(agent.id);
        const a = await claim(agent.id);
        await api().patch(leasePath(a)).send({ status: 'succeeded' }).expect(200);
        const b = await claim(agent.id);
        await api().patch(leasePath(b)).send({ status: 'failed', error: 'no', retry: true }).expect(200);
        await claim(agent.id);
        const stats = (await api().get(`/api/v1/agents/${agent.id}/stats`).expect(200)).body.data;
        expect(stats).toMatchObject({
          agent_id: agent.id,
          window: '1h',
          tasks: { queued: 2, running: 1, succeeded: 1, failed: 0, cancelled: 0 },
          queue_depth: 1,
          scheduled: 1,
          succeeded: 1,
          failed: 1,
        });
        expect(stats.throughput_per_minute).toBeCloseTo(2 / 60, 3);
        expect(stats.wait_seconds.p50).toBeGreaterThanOrEqual(0);
        expect(stats.run_seconds.p95).toBeGreaterThanOrEqual(0);
        expect(stats.series).toHaveLength(60);
        const totals = stats.series.reduce(
          (sum: { created: number; succeeded: number; failed: number }, bucket: { created: number; succeeded: number; failed: number }) => ({
            created: sum.created + bucket.created,
            succeeded: sum.succeeded + bucket.succeeded,
            failed: sum.failed + bucket.failed,
          }),
          { created: 0, succeeded: 0, failed: 0 },
        );
        expect(totals).toEqual({ created: 4, succeeded: 1, failed: 0 });
        // Now two are queued; before the first was created, none was.
        expect(stats.series.at(-1).queue_depth).toBe(2);
        expect(stats.series[0].queue_depth).toBe(0);
        expect(Date.parse(stats.series[1].start) - Date.parse(stats.series[0].start)).toBe(60_000);
        const day = (await api().get(`/api/v1/agents/${agent.id}/stats?window=24h`).expect(200)).body.data;
        expect(day.window).toBe('24h');
        expect(day.series).toHaveLength(96);
        expect(day.series.at(-1).queue_depth).toBe(2);
        await api().get(`/api/v1/agents/${agent.id}/stats?window=7d`).expect(400);
        const idle = await createAgent();
        const empty = (await api().get(`/api/v1/agents/${idle.id}/stats`).expect(200)).body.data;
        expect(empty).toMatchObject({ queue_depth: 0, wait_seconds: { p50: null, p95: null }, run_seconds: { p50: null, p95: null }, throughput_per_minute: 0 });
      });

      it('when an ended bucket has been read, then the instance does not count its events again, while the open buckets are read afresh', async () => {
        const agent = await createAgent();
        await createTask(agent.id);
        const day = async () => (await api().get(`/api/v1/agents/${agent.id}/stats?window=24h`).expect(200)).body.data.series as Array<{ start: string; created: number }>;
        const createdIn = (series: Array<{ start: string; created: number }>, at: number) =>
          series.find((bucket) => Date.parse(bucket.start) <= at && at < Date.parse(bucket.start) + 15 * 60_000)?.created;
        const twoHoursAgo = Date.now() - 2 * 3_600_000;
        expect(createdIn(await day(), twoHoursAgo)).toBe(0);
        expect(createdIn(await day(), Date.now())).toBe(1);
        // Events written behind the service's back: one in a bucket that ended long ago, one now.
        const event = (occurredAt: number) => ({
          type: 'task.created', occurred_at: new Date(occurredAt).toISOString(), agent_id: agent.id, owner_id: get().user.user.id, task_id: null, data: JSON.stringify({ status: 'queued' }),
        });
        await get().database.db('events').insert([event(twoHoursAgo), event(Date.now())]);
        const cached = await day();
        expect(createdIn(cached, twoHoursAgo)).toBe(0);
        expect(createdIn(cached, Date.now())).toBe(2);
        // An instance that had not read it yet counts it.
        const fresh = await getAgentStats(createStore(get().database.db), createStatsCache(), { kind: 'service', keyNumber: 1 }, agent.id, '24h');
        expect(createdIn(fresh.series, twoHoursAgo)).toBe(1);
        expect(fresh.series.map((bucket) => bucket.created)).toEqual(cached.map((bucket) => bucket.created + (bucket === cached.find((b) => createdIn([b], twoHoursAgo) !== undefined) ? 1 : 0)));
      });
    });
  },
);
