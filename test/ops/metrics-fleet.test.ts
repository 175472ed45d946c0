import { randomUUID } from 'node:crypto';
import { createWebhookSealer } from '../../src/app';
import type { Config } from '../../src/config/config';
import { createStore } from '../../src/data/store';
import type { NewEvent } from '../../src/data/records';
import { recordTaskEvent } from '../../src/domain/events';
import type { Database } from '../../src/data/database';
import { boundLabels, observeFleet, observeTaskEvent, observeWebhookAttempts, OTHER_AGENTS } from '../../src/http/fleet-metrics';
import { createMetrics } from '../../src/http/observability';
import { createLogger, type Logger } from '../../src/logger';
import { startWebhookEngine, type WebhookEngine } from '../../src/process/webhook-engine';
import { createWebhookSender } from '../../src/process/webhook-sender';
import { describeEachDatabase, metricValue, testConfig } from '../support/harness';
import { eventually, insertEvent, serviceWorkspaceId, startReceiver, type Receiver } from '../support/webhooks';
import { parseSamples, type Sample } from '../support/prometheus';


/** A gauge's samples as `{ agent: value }`. */
const byAgent = (samples: Sample[], name: string): Record<string, number> =>
  Object.fromEntries(samples.filter((sample) => sample.name === name).map((sample) => [sample.labels.agent ?? '', sample.value]));

/** The sum of a metric's samples whose labels include `labels` (0 when there are none). */
const total = (samples: Sample[], name: string, labels: Record<string, string> = {}): number =>
  samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value)).reduce((sum, sample) => sum + sample.value, 0);

/** The busiest agents labelled by id; a small limit, so that a few agents already overflow into `other`. */
const LIMIT = 3;
const WEBHOOKS: Config['webhooks'] = { allowPrivateNetworks: true, httpsOnly: false, timeoutMs: 1000, retryScheduleMs: [50], pollMs: 60_000, concurrency: 8 };
const FLEET_SIZE = 10_000;
/** Rows per insert statement: knex writes SQLite's as a compound SELECT, of at most 500 terms. */
const BATCH = 500;

describeEachDatabase(
  'the fleet on /metrics',
  (get) => {
    const api = () => get().http;
    const createAgent = async (name: string): Promise<{ id: string }> => (await api().post('/api/v1/agents').send({ name, type: 'type_a' }).expect(201)).body.data;
    const createTasks = async (agentId: string, count: number, body: object = {}) => {
      for (let i = 0; i < count; i++) await api().post(`/api/v1/agents/${agentId}/tasks`).send({ title: `task ${i}`, ...body }).expect(201);
    };
    const claim = async (agentId: string): Promise<{ id: string; agent_id: string; task_id: string }> => (await api().post(`/api/v1/agents/${agentId}/leases`).send({}).expect(201)).body.data;
    const finish = (lease: { id: string; agent_id: string }, body: object) => api().patch(`/api/v1/agents/${lease.agent_id}/leases/${lease.id}`).send(body).expect(200);
    const scrape = async () => parseSamples(await get().scrapeMetrics());
    /**
     * Ends the lease by time, as a worker that stopped heartbeating: its agent's next claim ends it
     * first (and finds nothing else: a retried task waits for its back-off).
     */
    const expire = async (lease: { id: string; agent_id: string }) => {
      await get().database.db('leases').where({ id: lease.id }).update({ expires_at: new Date(Date.now() - 1000).toISOString() });
      await api().post(`/api/v1/agents/${lease.agent_id}/leases`).send({}).expect(204);
    };

    it('when agents have queued and running tasks, then the queue gauges hold the busiest agents\' exact counts by id and the rest summed as other', async () => {
      const [a, b, c, d, e] = [await createAgent('a'), await createAgent('b'), await createAgent('c'), await createAgent('d'), await createAgent('e')];
      await createAgent('idle');
      await createTasks(a.id, 4);
      await claim(a.id);
      await createTasks(b.id, 3);
      await finish(await claim(b.id), { status: 'succeeded', result: { ok: true } });
      await claim(b.id);
      await createTasks(c.id, 3);
      await createTasks(d.id, 1);
      await createTasks(e.id, 1);
      await claim(e.id);

      const samples = await scrape();
      // a: 3 + 1, c: 3 + 0, b: 1 + 1 are the busiest three; d (1 queued) and e (1 running) are `other`.
      expect(byAgent(samples, 'fleet_tasks_queued')).toEqual({ [a.id]: 3, [c.id]: 3, [b.id]: 1, [OTHER_AGENTS]: 1 });
      expect(byAgent(samples, 'fleet_tasks_running')).toEqual({ [a.id]: 1, [c.id]: 0, [b.id]: 1, [OTHER_AGENTS]: 1 });
      // Four first leases were waited for; one of them ran to its outcome.
      expect(total(samples, 'fleet_task_wait_seconds_count')).toBe(4);
      expect(total(samples, 'fleet_task_wait_seconds_bucket', { le: '+Inf' })).toBe(4);
      expect(total(samples, 'fleet_task_run_seconds_count')).toBe(1);
      expect(total(samples, 'fleet_task_outcomes_total', { outcome: 'succeeded' })).toBe(1);
    });

    it('when attempts succeed, fail, are retried and expire, then the histograms and counters move by exactly as much', async () => {
      const before = await scrape();
      const moved = (after: Sample[], name: string, labels: Record<string, string> = {}) => total(after, name, labels) - total(before, name, labels);
      const agent = await createAgent('flow');
      await createTasks(agent.id, 1, { max_attempts: 3 });
      // A failure to retry: queued again after a back-off (an hour here).
      await finish(await claim(agent.id), { status: 'failed', error: 'flaky', retry: true });
      await createTasks(agent.id, 1);
      await finish(await claim(agent.id), { status: 'succeeded' });
      await createTasks(agent.id, 1);
      await finish(await claim(agent.id), { status: 'failed', error: 'for good' });
      // A lease that expires with no attempt left: the task fails with "lease expired".
      await createTasks(agent.id, 1, { max_attempts: 1 });
      await expire(await claim(agent.id));

      const after = await scrape();
      expect(moved(after, 'fleet_task_wait_seconds_count')).toBe(4);
      expect(moved(after, 'fleet_task_run_seconds_count')).toBe(3);
      expect(moved(after, 'fleet_task_run_seconds_sum')).toBeGreaterThan(0);
      expect(moved(after, 'fleet_task_outcomes_total', { outcome: 'succeeded' })).toBe(1);
      expect(moved(after, 'fleet_task_outcomes_total', { outcome: 'failed' })).toBe(2);
      expect(moved(after, 'fleet_task_retries_total')).toBe(1);
      expect(moved(after, 'fleet_lease_expirations_total')).toBe(1);

      // A lease that expires with attempts left: the task is queued again, a retry.
      await createTasks(agent.id, 1, { max_attempts: 2 });
      await expire(await claim(agent.id));
      const later = await scrape();
      expect(total(later, 'fleet_task_retries_total') - total(after, 'fleet_task_retries_total')).toBe(1);
      expect(total(later, 'fleet_task_outcomes_total') - total(after, 'fleet_task_outcomes_total')).toBe(0);
      // Its task.requeued event says reason "expired".
      expect(total(later, 'fleet_lease_expirations_total') - total(after, 'fleet_lease_expirations_total')).toBe(1);
    });

    it('when a transaction that recorded a task event rolls back, then nothing is counted; once one commits, it is', async () => {
      const store = createStore(get().database.db);
      const agent = { id: randomUUID(), owner_id: null, workspace_id: await store.workspaces.serviceId() };
      const outcomes = () => metricValue(get().metrics, 'fleet_task_outcomes_total', { outcome: 'succeeded' });
      const counted = await outcomes();
      await expect(
        store.transaction(async (tx) => {
          recordTaskEvent(tx, null, 'task.succeeded', agent, randomUUID(), { status: 'succeeded', previous_status: 'running' });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await outcomes()).toBe(counted);
      await store.transaction(async (tx) => {
        recordTaskEvent(tx, null, 'task.succeeded', agent, randomUUID(), { status: 'succeeded', previous_status: 'running' });
      });
      expect(await outcomes()).toBe(counted + 1);
    });

    describe('webhook deliveries', () => {
      let receiver: Receiver;
      let engine: WebhookEngine;
      beforeAll(async () => {
        receiver = await startReceiver();
        const config = get().config;
        engine = startWebhookEngine({
          store: createStore(get().database.db),
          sealer: createWebhookSealer(config.tokenEncryptionKey),
          sender: createWebhookSender({ allowPrivateNetworks: true, timeoutMs: WEBHOOKS.timeoutMs }),
          settings: WEBHOOKS,
          logger: createLogger({ logLevel: 'silent' }),
          onAttempt: observeWebhookAttempts(get().metrics),
        });
      });
      afterAll(async () => {
        await engine.stop();
        await receiver.close();
      });

      it('when a delivery succeeds and another fails until its retries are spent, then webhook_deliveries_total counts succeeded, retrying and failed', async () => {
        const deliveries = (outcome: string) => metricValue(get().metrics, 'webhook_deliveries_total', { outcome });
        await api().post('/api/v1/webhooks').send({ url: receiver.url, types: ['agent.deleted'] }).expect(201);
        const owner = get().user.user.id;
        await insertEvent(get().database.db, { type: 'agent.deleted', agent_id: randomUUID(), owner_id: owner });
        await eventually(async () => {
          await engine.poke();
          expect(await deliveries('succeeded')).toBe(1);
        });
        receiver.answer((_req, res) => res.writeHead(500).end());
        await insertEvent(get().database.db, { type: 'agent.deleted', agent_id: randomUUID(), owner_id: owner });
        await eventually(async () => {
          await engine.poke();
          expect(await deliveries('failed')).toBe(1);
        });
        expect(await deliveries('retrying')).toBe(1);
        expect(await deliveries('succeeded')).toBe(1);
      });
    });

    it(`when ${FLEET_SIZE.toLocaleString('en')} agents each have a queued task, then the queue gauges keep ${LIMIT} + 1 series each, summing to the whole queue, and the scrape answers 200`, async () => {
      const db = get().database.db;
      const at = new Date().toISOString();
      const workspaceId = await serviceWorkspaceId(db);
      const agents = Array.from({ length: FLEET_SIZE }, (_, i) => ({ id: randomUUID(), owner_id: null, workspace_id: workspaceId, name: `fleet ${i}`, type: 'type_a', status: 'idle', created_at: at, updated_at: at }));
      const tasks = agents.map((agent) => ({ id: randomUUID(), agent_id: agent.id, title: 'queued', priority: 0, status: 'queued', created_at: at, updated_at: at, available_at: at }));
      await db.transaction(async (trx) => {
        for (let start = 0; start < FLEET_SIZE; start += BATCH) await trx('agents').insert(agents.slice(start, start + BATCH));
        for (let start = 0; start < FLEET_SIZE; start += BATCH) await trx('tasks').insert(tasks.slice(start, start + BATCH));
      });
      const counts = async (status: string) => Number(((await db('tasks').where({ status }).count({ n: '*' }).first()) as { n: unknown }).n);

      const started = Date.now();
      const samples = await scrape();
      const scrapeMs = Date.now() - started;
      for (const name of ['fleet_tasks_queued', 'fleet_tasks_running']) {
        const series = samples.filter((sample) => sample.name === name);
        expect(series).toHaveLength(LIMIT + 1);
        expect(series.filter((sample) => sample.labels.agent === OTHER_AGENTS)).toHaveLength(1);
      }
      expect(total(samples, 'fleet_tasks_queued')).toBe(await counts('queued'));
      expect(total(samples, 'fleet_tasks_running')).toBe(await counts('running'));
      expect(byAgent(samples, 'fleet_tasks_queued')[OTHER_AGENTS]).toBeGreaterThanOrEqual(FLEET_SIZE - LIMIT);
      // One grouped query: well inside any scrape timeout, even on a shared machine.
      expect(scrapeMs).toBeLessThan(5000);
    }, 60_000);
  },
  // Retries wait an hour: a retried task is never claimed again within the suite.
  { metrics: { ...testConfig().metrics, agentLabelLimit: LIMIT }, webhooks: WEBHOOKS, leases: { ...testConfig().leases, retryBaseMs: 3_600_000, retryMaxMs: 3_600_000 } },
);

describe('the fleet metrics\' parts', () => {
  it('when there are more agents than the limit, then the busiest keep their ids (ties by id) and the rest are summed as other', () => {
    const load = [
      { agent_id: 'b', queued: 1, running: 1 },
      { agent_id: 'a', queued: 2, running: 0 },
      { agent_id: 'c', queued: 5, running: 0 },
      { agent_id: 'd', queued: 0, running: 1 },
    ];
    expect(boundLabels(load, 2)).toEqual([
      { agent: 'c', queued: 5, running: 0 },
      { agent: 'a', queued: 2, running: 0 },
      { agent: OTHER_AGENTS, queued: 1, running: 2 },
    ]);
    expect(boundLabels(load, 0)).toEqual([{ agent: OTHER_AGENTS, queued: 8, running: 2 }]);
    expect(boundLabels(load.slice(0, 1), 20)).toEqual([
      { agent: 'b', queued: 1, running: 1 },
      { agent: OTHER_AGENTS, queued: 0, running: 0 },
    ]);
  });

  it('when the database does not answer a scrape, then the scrape still answers, without the queue gauges, after one read and one warning', async () => {
    const metrics = createMetrics();
    const warnings: unknown[] = [];
    let reads = 0;
    const down = (() => {
      reads += 1;
      throw new Error('connect ECONNREFUSED');
    }) as unknown as Database;
    const logger = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Pick<Logger, 'warn'>;
    const stop = observeFleet(metrics, { db: down, logger, agentLabelLimit: 5 });
    try {
      const text = await metrics.registry.metrics();
      expect(text).toContain('# TYPE fleet_tasks_queued gauge');
      expect(text).not.toMatch(/^fleet_tasks_(queued|running)\{/m);
      expect(text).toContain('fleet_task_outcomes_total{outcome="failed"} 0');
      expect(reads).toBe(1);
      expect(warnings).toHaveLength(1);
    } finally {
      stop();
    }
  });

  it('when a requeue or a failure says its lease expired (by reason or by error), then it is one expiry; a release is no retry', async () => {
    const metrics = createMetrics();
    const event = (type: NewEvent['type'], data: Record<string, unknown>): NewEvent => ({ type, occurred_at: new Date().toISOString(), agent_id: randomUUID(), owner_id: null, workspace_id: randomUUID(), actor: null, task_id: randomUUID(), data });
    const value = (name: string, labels: Record<string, string> = {}) => metricValue(metrics, name, labels);
    observeTaskEvent(metrics, event('task.requeued', { status: 'queued', previous_status: 'running', reason: 'expired', error: 'lease expired' }));
    observeTaskEvent(metrics, event('task.requeued', { status: 'queued', previous_status: 'running', error: 'lease expired' }));
    observeTaskEvent(metrics, event('task.failed', { status: 'failed', previous_status: 'running', error: 'lease expired' }));
    expect(await value('fleet_lease_expirations_total')).toBe(3);
    expect(await value('fleet_task_retries_total')).toBe(2);
    expect(await value('fleet_task_outcomes_total', { outcome: 'failed' })).toBe(1);
    observeTaskEvent(metrics, event('task.requeued', { status: 'queued', previous_status: 'running', reason: 'released' }));
    observeTaskEvent(metrics, event('task.requeued', { status: 'queued', previous_status: 'running', attempts: 0 }));
    observeTaskEvent(metrics, event('task.requeued', { status: 'queued', previous_status: 'running', reason: 'failed', error: 'flaky' }));
    expect(await value('fleet_task_retries_total')).toBe(3);
    expect(await value('fleet_lease_expirations_total')).toBe(3);
  });
});
