import type { Worker } from 'node:cluster';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp, createProcessEventFeed, createWebhookSealer } from '../app';
import { createTokenService } from '../auth/tokens';
import { primaryLink } from './cluster-ipc';
import { answerMetricsRequests } from './cluster-metrics';
import { connectAndPrepare } from './database-start';
import type { Config } from '../config/config';
import { publishEventCommit, redisEventListener } from '../data/event-notifications';
import { watchEventCommits } from '../data/events-repository';
import { connectRedis } from '../data/redis';
import { createStore } from '../data/store';
import { pruneEvents } from '../domain/events';
import { purgeExpiredKeys } from '../domain/idempotency';
import { sweepDeadlines, sweepExpiredLeases } from '../domain/leases';
import { fireDueSchedules } from '../domain/schedules';
import { createTaskWakeups } from '../domain/task-wakeups';
import { prepareDrain } from '../http/drain';
import { releaseYoungGeneration } from './heap-limits';
import { createHttpServer } from '../http/http-server';
import { createMetricsServer } from '../http/metrics-server';
import { createMetrics, observeRedis } from '../http/observability';
import { observeWebhookAttempts } from '../http/fleet-metrics';
import { startPeriodicJob } from './periodic-job';
import { startWebhookEngine } from './webhook-engine';
import { createWebhookSender } from './webhook-sender';
import { connectSharedCounters } from './shared-counters';
import { createLogger } from '../logger';

/** How often each process prunes the event log, and deletes expired Idempotency-Keys. */
const EVENT_PRUNE_INTERVAL_MS = 60_000;
const IDEMPOTENCY_PURGE_INTERVAL_MS = 5 * 60_000;

/**
 * The service in this process: by itself (WEB_CONCURRENCY=1), or as one `worker` of a cluster
 * whose primary has already logged the configuration's warnings, migrated the database and
 * created the admin, and keeps the shared counters when there is no Redis.
 */
export async function serve(config: Config, worker: Worker | undefined): Promise<void> {
  const logger = worker ? createLogger(config).child({ worker: worker.id }) : createLogger(config);
  if (!worker) for (const warning of config.warnings) logger.warn(warning);
  const tokens = createTokenService(config.auth.jwt);
  await tokens.ready();
  const metrics = createMetrics();
  // Both dependencies are connected, each within its own deadline, before the port opens: Redis
  // while the database migrates, so the first answer of readiness already knows whether Redis is up.
  const [db, redis] = await Promise.all([
    connectAndPrepare(config, logger, { admin: !worker }),
    config.redis ? connectRedis(config.redis, logger, observeRedis(metrics)) : undefined,
  ]);
  const primary = worker ? primaryLink() : undefined;
  // Redis, when configured, is shared by every process of every machine: the primary's counters are not needed.
  const sharedCounters = primary && !redis ? connectSharedCounters(primary) : undefined;
  if (primary) answerMetricsRequests(primary, metrics.registry);
  const lifecycle = { draining: false };
  const wakeups = createTaskWakeups();
  // Every instance's streams hear of this one's events: PostgreSQL's NOTIFY, and Redis's pub/sub when configured.
  const events = createProcessEventFeed(db, logger, config, redisEventListener(redis));
  const unpublish = redis ? watchEventCommits(db, (lastId) => publishEventCommit(redis, lastId)) : undefined;
  const store = createStore(db);
  // Started before the app, which wakes it when a delivery is sent again.
  const webhooks = startWebhookEngine({
    store,
    sealer: createWebhookSealer(config.tokenEncryptionKey),
    sender: createWebhookSender({ allowPrivateNetworks: config.webhooks.allowPrivateNetworks, timeoutMs: config.webhooks.timeoutMs }),
    settings: config.webhooks,
    logger,
    onAttempt: observeWebhookAttempts(metrics),
  });
  const app = buildApp({ config, db, logger, tokens, redis, metrics, lifecycle, sharedCounters, wakeups, events, deliveriesDue: () => void webhooks.poke() });
  const queue = { store, retry: config.leases, wakeups, quotas: config.quotas, logLinesPerTask: config.leases.logLinesPerTask };
  // Safe when processes overlap: each lease is ended once, each row deleted once.
  const maintenance = [
    startPeriodicJob({ intervalMs: config.leases.sweepIntervalMs, run: () => sweepExpiredLeases(queue), done: 'expired leases ended', failed: 'lease sweep failed' }, logger),
    startPeriodicJob({ intervalMs: config.leases.sweepIntervalMs, run: () => sweepDeadlines(queue), done: 'tasks past their deadline failed', failed: 'deadline sweep failed' }, logger),
    // Each firing is made once: under its agent's lock, while its next_run_at is still the one listed.
    startPeriodicJob({ intervalMs: config.schedules.pollMs, run: () => fireDueSchedules(store, { quotas: config.quotas, wakeups, logger }), done: 'schedules fired', failed: 'schedule poll failed' }, logger),
    startPeriodicJob({ intervalMs: EVENT_PRUNE_INTERVAL_MS, run: () => pruneEvents(store, config.events.retentionHours), done: 'old events pruned', failed: 'event pruning failed' }, logger),
    // An expired key still in the table is taken over by its next request anyway: no hurry.
    startPeriodicJob({ intervalMs: IDEMPOTENCY_PURGE_INTERVAL_MS, run: () => purgeExpiredKeys(store), done: 'expired idempotency keys purged', failed: 'idempotency key purge failed' }, logger),
  ];

  const server = createHttpServer(app, { logger, metrics, timeouts: config.http }).listen(config.port, config.host);
  const drain = prepareDrain(server);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  releaseYoungGeneration();
  logger.info({ port, host: config.host, database: config.database.client }, `agent fleet API listening on http://localhost:${port}`);

  // A worker's samples are served, summed with the others', by the primary's metrics listener.
  let metricsServer: Server | undefined;
  if (config.metrics.port !== undefined && !worker) {
    metricsServer = createMetricsServer({ metrics, logger, timeouts: config.http }).listen(config.metrics.port, config.metrics.host);
    await new Promise<void>((resolve, reject) => metricsServer?.once('listening', resolve).once('error', reject));
    const address = metricsServer.address() as AddressInfo;
    logger.info({ metricsPort: address.port, metricsHost: config.metrics.host }, `metrics listening on ${config.metrics.host}:${address.port}/metrics`);
  }

  const stop = async (signal: string) => {
    if (lifecycle.draining) return;
    // Readiness answers 503 from here on.
    lifecycle.draining = true;
    logger.info({ signal, inFlight: drain.inFlight() }, 'draining in-flight requests');
    const force = setTimeout(() => {
      logger.warn('shutdown timeout: closing the remaining connections');
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    force.unref();
    // A scrape is short: the metrics listener just stops.
    metricsServer?.close();
    metricsServer?.closeAllConnections();
    // Claims waiting for a task answer 204 now, rather than hold the drain for up to their wait.
    wakeups.close();
    // Event streams end now, and their clients reconnect to another instance with Last-Event-ID.
    // Webhook attempts under way end within WEBHOOK_TIMEOUT_MS; one cut short by the exit keeps its
    // claim until it expires, and is made again.
    await Promise.all([drain.start(), ...maintenance.map((job) => job.stop()), events.close(), webhooks.stop()]);
    unpublish?.();
    await db.destroy();
    await redis?.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
