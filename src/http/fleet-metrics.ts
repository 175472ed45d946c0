/**
 * The fleet's health on /metrics: the queue's depth and the running tasks by agent, read from the
 * database at each scrape, and the queue's flow (waits, run times, outcomes, retries, expiries),
 * counted from the task events this process commits.
 */
import { Gauge } from 'prom-client';
import type { Database } from '../data/database';
import { watchEventCommits } from '../data/events-repository';
import { readFleetLoad, type AgentLoad } from '../data/fleet-load';
import type { NewEvent } from '../data/records';
import { taskVersionsOf } from '../domain/events';
import { LEASE_EXPIRED_ERROR } from '../domain/leases';
import type { Logger } from '../logger';
import { FLEET_GAUGES, type Metrics } from './observability';

/** The `agent` label of the agents beyond the labelled ones, summed. */
export const OTHER_AGENTS = 'other';

export interface FleetObservation {
  db: Database;
  logger: Pick<Logger, 'warn'>;
  /** How many of the busiest agents get a label of their own (METRICS_AGENT_LABEL_LIMIT). */
  agentLabelLimit: number;
}

/**
 * Puts the fleet on `metrics`: the queue gauges, read with one grouped query when scraped, and the
 * flow counted from `db`'s committed task events (src/domain/events.ts). Once per registry.
 * Answers how to stop counting.
 */
export function observeFleet(metrics: Metrics, { db, logger, agentLabelLimit }: FleetObservation): () => void {
  // Both gauges are collected at once (prom-client collects a registry's metrics together): they share one read.
  let reading: Promise<LabelledLoad | undefined> | undefined;
  const read = () =>
    (reading ??= readFleetLoad(db)
      .then((load) => boundLabels(load, agentLabelLimit))
      .catch((error: unknown) => {
        // A scrape still answers (with the process's other metrics) while the database does not.
        logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'fleet metrics: the task counts could not be read');
        return undefined;
      })
      .finally(() => {
        reading = undefined;
      }));
  const gauge = (name: string, help: string, count: keyof Omit<AgentLoad, 'agent_id'>) =>
    new Gauge({
      name,
      help,
      labelNames: ['agent'],
      registers: [metrics.registry],
      async collect() {
        const load = await read();
        this.reset();
        for (const agent of load ?? []) this.set({ agent: agent.agent }, agent[count]);
      },
    });
  const [queued, running] = FLEET_GAUGES;
  gauge(
    queued,
    `Queued tasks (the queue's depth), by agent: the ${agentLabelLimit} agents with the most queued and running tasks under their id, the rest summed as agent="${OTHER_AGENTS}". Read from the database at each scrape.`,
    'queued',
  );
  gauge(
    running,
    `Running (leased) tasks, by agent: the same agents as fleet_tasks_queued, the rest summed as agent="${OTHER_AGENTS}". Read from the database at each scrape.`,
    'running',
  );
  // Every outcome from the start, at 0: rate() and alerts see a series before its first increment.
  for (const outcome of ['succeeded', 'failed']) metrics.taskOutcomes.inc({ outcome }, 0);
  return watchEventCommits(db, (_lastId, events) => {
    for (const event of events) observeTaskEvent(metrics, event);
  });
}

type LabelledLoad = Array<{ agent: string; queued: number; running: number }>;

/**
 * The `limit` agents with the most queued and running tasks (ties by id, so that the same fleet
 * gives the same labels), each under its id, and the others summed as `other`: at most limit + 1
 * series whatever the fleet's size. `other` is always there, 0 when nobody is left over.
 */
export function boundLabels(load: readonly AgentLoad[], limit: number): LabelledLoad {
  const busiest = [...load].sort((a, b) => b.queued + b.running - (a.queued + a.running) || (a.agent_id < b.agent_id ? -1 : a.agent_id > b.agent_id ? 1 : 0));
  const labelled: LabelledLoad = busiest.slice(0, limit).map(({ agent_id, queued, running }) => ({ agent: agent_id, queued, running }));
  const other = { agent: OTHER_AGENTS, queued: 0, running: 0 };
  for (const rest of busiest.slice(limit)) {
    other.queued += rest.queued;
    other.running += rest.running;
  }
  return [...labelled, other];
}

const seconds = (from: string | null | undefined, to: string | null | undefined): number | undefined => {
  if (!from || !to) return undefined;
  const elapsed = (Date.parse(to) - Date.parse(from)) / 1000;
  return Number.isFinite(elapsed) && elapsed >= 0 ? elapsed : undefined;
};

/**
 * One committed task event, counted. The changed fields (`data`) say what happened; the task's
 * versions either side (kept in memory by recordTaskChange) give the times that did not change.
 * An event recorded without them (another path, or a test's) is still counted, only not timed.
 */
export function observeTaskEvent(metrics: Metrics, event: NewEvent): void {
  const data = event.data as Record<string, unknown>;
  const versions = taskVersionsOf(event);
  switch (event.type) {
    case 'task.leased': {
      // The lease of the first attempt: a released lease gives its attempt back, so the next one is "first" again.
      if (versions && versions.before.attempts === 0) {
        const wait = seconds(versions.after.created_at, versions.after.started_at);
        if (wait !== undefined) metrics.taskWait.observe(wait);
      }
      return;
    }
    case 'task.succeeded':
    case 'task.failed': {
      metrics.taskOutcomes.inc({ outcome: event.type === 'task.succeeded' ? 'succeeded' : 'failed' });
      if (versions?.before.status === 'running') {
        const run = seconds(versions.before.started_at, versions.after.finished_at ?? versions.after.updated_at);
        if (run !== undefined) metrics.taskRun.observe(run);
      }
      // The error of this failure: the changed field, or the task's own when it repeats the last one.
      const error = data.error ?? (event.type === 'task.failed' ? versions?.after.error : undefined);
      if (event.type === 'task.failed' && (data.reason === 'expired' || error === LEASE_EXPIRED_ERROR)) metrics.leaseExpirations.inc();
      return;
    }
    case 'task.requeued': {
      // `reason` (failed, expired, released, retried) when the event names it; otherwise a release
      // is the requeue that gave its attempt back.
      const released = data.reason !== undefined ? data.reason === 'released' : versions ? versions.after.attempts < versions.before.attempts : 'attempts' in data;
      if (!released) metrics.taskRetries.inc();
      if (data.reason === 'expired' || data.error === LEASE_EXPIRED_ERROR) metrics.leaseExpirations.inc();
      return;
    }
    default:
      return;
  }
}

/** What became of a delivery after an attempt (the webhook engine's `onAttempt`), counted. */
export function observeWebhookAttempts(metrics: Metrics): (status: 'succeeded' | 'pending' | 'failed') => void {
  for (const outcome of ['succeeded', 'retrying', 'failed']) metrics.webhookDeliveries.inc({ outcome }, 0);
  return (status) => metrics.webhookDeliveries.inc({ outcome: status === 'pending' ? 'retrying' : status });
}
