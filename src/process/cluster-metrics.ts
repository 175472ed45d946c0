import type { Worker } from 'node:cluster';
import { AggregatorRegistry, Registry, type Aggregator } from 'prom-client';
import { answerIpc, createIpcCaller, type IpcLink } from './cluster-ipc';
import { FLEET_GAUGES } from '../http/observability';

const METRICS_CHANNEL = 'agent-fleet:metrics';
/** Well inside Prometheus's default scrape timeout (10 s). */
const COLLECT_TIMEOUT_MS = 5000;

/**
 * How samples of several workers combine when the metric does not say (prom-client sums by
 * default, right for counters and histograms). A dependency is up only if it is up in every worker.
 */
const AGGREGATORS: Record<string, Aggregator> = { dependency_up: 'min' };

type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** In a worker: answers the primary's requests for this registry's samples. */
export function answerMetricsRequests(primary: IpcLink, registry: Registry): void {
  answerIpc(primary, METRICS_CHANNEL, () => registry.getMetricsAsJSON());
}

/**
 * In the primary: a registry whose text is the sum of every worker's (prom-client's cluster
 * aggregation over our own IPC requests). A worker that does not answer fails the scrape rather
 * than leaving its counts out, which Prometheus would read as a counter reset.
 */
export class ClusterRegistry extends Registry {
  private readonly collectors = new Map<number, (body: null) => Promise<MetricsJson>>();

  /** Asks `worker` for its samples from now on (until it exits). */
  watch(worker: Worker): void {
    this.collectors.set(worker.id, createIpcCaller<null, MetricsJson>(worker, METRICS_CHANNEL, COLLECT_TIMEOUT_MS));
    worker.once('exit', () => this.collectors.delete(worker.id));
  }

  override async metrics(): Promise<string> {
    const perWorker = await Promise.all([...this.collectors.values()].map((collect) => collect(null)));
    // The fleet's gauges are read from the database every worker shares: one worker's reading is the
    // fleet's (a sum would count it once per worker, and readings a moment apart could label other agents).
    const combined = perWorker.map((metrics, index) =>
      metrics.filter((sample) => index === 0 || !(FLEET_GAUGES as readonly string[]).includes(sample.name)).map((sample) => ({ ...sample, aggregator: AGGREGATORS[sample.name] ?? sample.aggregator })),
    );
    return AggregatorRegistry.aggregate(combined).metrics();
  }
}
