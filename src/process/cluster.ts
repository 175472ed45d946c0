import cluster, { type Worker } from 'node:cluster';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClusterRegistry } from './cluster-metrics';
import { connectAndPrepare } from './database-start';
import { workerEnvironment, type Config } from '../config/config';
import { createMetricsServer } from '../http/metrics-server';
import { createMetrics } from '../http/observability';
import { keepSharedCounters } from './shared-counters';
import type { Logger } from '../logger';

/** How soon a worker that exited unexpectedly is replaced. */
export interface RespawnPolicy {
  /** The wait after a worker that ran for less than `stableMs`; it doubles with each such exit. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A worker that ran this long is replaced at once, and its slot's back-off starts over. */
  stableMs: number;
}

export const RESPAWN_POLICY: RespawnPolicy = { baseDelayMs: 1000, maxDelayMs: 30_000, stableMs: 30_000 };

/**
 * After the workers' own shutdown timeout (they close their remaining connections then), a
 * moment for them to close the database and exit before they are killed.
 */
const FORCE_KILL_GRACE_MS = 2000;

/** The wait before replacing a worker that ran `livedMs`, given the previous wait of its slot. */
export function nextRespawnDelay(previousDelayMs: number, livedMs: number, policy: RespawnPolicy = RESPAWN_POLICY): number {
  if (livedMs >= policy.stableMs) return 0;
  return Math.min(policy.maxDelayMs, previousDelayMs === 0 ? policy.baseDelayMs : previousDelayMs * 2);
}

interface Slot {
  worker?: Worker;
  startedAt: number;
  delayMs: number;
  respawn?: NodeJS.Timeout;
}

/**
 * The cluster primary (WEB_CONCURRENCY above 1). It serves no request itself: it brings the
 * schema and the first admin up once, keeps the counters the workers share when there is no
 * Redis, serves the workers' summed metrics on METRICS_PORT, forks the workers (each runs
 * src/process/server.ts's start path and listens on the shared port), replaces those that die, and on
 * SIGTERM or SIGINT has every one of them drain before it exits.
 */
export async function runPrimary(config: Config, logger: Logger): Promise<void> {
  for (const warning of config.warnings) logger.warn(warning);
  await prepareDatabase(config, logger);

  const counters = config.redis ? undefined : keepSharedCounters(config);
  const registry = new ClusterRegistry();
  let metricsServer: Server | undefined;
  if (config.metrics.port !== undefined) {
    // Only the registry is read: the listener serves the sum of the workers' samples.
    metricsServer = createMetricsServer({ metrics: { ...createMetrics(), registry }, logger, timeouts: config.http }).listen(config.metrics.port, config.metrics.host);
    await new Promise<void>((resolve, reject) => metricsServer?.once('listening', resolve).once('error', reject));
    const address = metricsServer.address() as AddressInfo;
    logger.info({ metricsPort: address.port, metricsHost: config.metrics.host }, `metrics of every worker listening on ${config.metrics.host}:${address.port}/metrics`);
  }

  const env = workerEnvironment(config);
  const slots: Slot[] = Array.from({ length: config.webConcurrency }, () => ({ startedAt: 0, delayMs: 0 }));
  let anyListening = false;
  let stopping: { signal: NodeJS.Signals; clean: boolean; force?: NodeJS.Timeout } | undefined;

  const finish = () => {
    if (!stopping) return;
    clearTimeout(stopping.force);
    metricsServer?.close();
    metricsServer?.closeAllConnections();
    logger.info({ clean: stopping.clean }, 'stopped');
    process.exit(stopping.clean ? 0 : 1);
  };

  const stop = (signal: NodeJS.Signals, clean = true) => {
    if (stopping) return;
    stopping = { signal, clean };
    for (const slot of slots) clearTimeout(slot.respawn);
    const running = slots.flatMap((slot) => (slot.worker ? [slot.worker] : []));
    logger.info({ signal, workers: running.length }, 'stopping the workers: each drains its in-flight requests');
    if (running.length === 0) return finish();
    // The signal itself, not cluster's disconnect (which closes idle keep-alive sockets at once):
    // each worker drains as a single process does.
    for (const worker of running) worker.process.kill(signal);
    stopping.force = setTimeout(() => {
      for (const slot of slots) {
        if (!slot.worker) continue;
        logger.warn({ worker: slot.worker.id, pid: slot.worker.process.pid }, 'worker still running after the shutdown timeout: killing it');
        slot.worker.process.kill('SIGKILL');
      }
    }, config.shutdownTimeoutMs + FORCE_KILL_GRACE_MS);
  };

  const exited = (slot: Slot, worker: Worker, code: number | null, signal: NodeJS.Signals | null) => {
    if (slot.worker === worker) slot.worker = undefined;
    if (stopping) {
      // Stopped by the signal it was sent before it could drain (it was still starting): as asked.
      if (code !== 0 && signal !== stopping.signal) stopping.clean = false;
      if (slots.every((other) => !other.worker)) finish();
      return;
    }
    if (!anyListening) {
      logger.error({ worker: worker.id, pid: worker.process.pid, code, signal }, 'a worker failed before any was listening: stopping (see its error above)');
      return stop('SIGTERM', false);
    }
    const livedMs = Date.now() - slot.startedAt;
    slot.delayMs = nextRespawnDelay(slot.delayMs, livedMs);
    logger.error({ worker: worker.id, pid: worker.process.pid, code, signal, livedMs, respawnInMs: slot.delayMs }, 'worker exited unexpectedly: replacing it');
    slot.respawn = setTimeout(() => fork(slot), slot.delayMs);
  };

  const fork = (slot: Slot) => {
    if (stopping) return;
    const worker = cluster.fork(env);
    slot.worker = worker;
    slot.startedAt = Date.now();
    // Without a listener, an IPC failure (a message to a worker that has just died) would throw here.
    worker.on('error', (error: Error) => logger.warn({ worker: worker.id, err: error.message }, 'IPC with a worker failed'));
    counters?.serve(worker);
    registry.watch(worker);
    worker.once('listening', () => {
      anyListening = true;
    });
    worker.once('exit', (code: number | null, signal: NodeJS.Signals | null) => exited(slot, worker, code, signal));
    logger.info({ worker: worker.id, pid: worker.process.pid }, 'worker started');
  };

  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  logger.info({ pid: process.pid, workers: config.webConcurrency, sharedCounters: config.redis ? 'redis' : 'primary' }, `cluster primary: starting ${config.webConcurrency} workers`);
  for (const slot of slots) fork(slot);
}

/**
 * Migrations and the first admin, once, before any worker exists. PostgreSQL would serialise
 * migrating workers by its advisory lock, but two processes creating knex's tables in a fresh
 * SQLite file race, and N workers would each check for the admin at the same moment. The workers
 * then find the schema current (their own migration step does nothing) and skip the admin.
 */
async function prepareDatabase(config: Config, logger: Logger): Promise<void> {
  const db = await connectAndPrepare(config, logger, { admin: true });
  await db.destroy();
}
