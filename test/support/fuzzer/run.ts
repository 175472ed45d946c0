import { loadContract, type Contract, type FailureCategory, type ObservedResponse } from './contract';
import { curlLine } from './curl';
import { Fixtures, type Principal } from './fixtures';
import { createRequestGenerator, materialize, type ConcreteRequest } from './requests';
import { createSender } from './transport';

export interface RunOptions {
  baseUrl: string;
  seed: number;
  requests: number;
  concurrency?: number;
  /** The first request index (to replay one request: `firstIndex: N, requests: 1`). */
  firstIndex?: number;
  apiKey?: string;
  metricsToken?: string;
  origin: string;
  admin?: () => Promise<Principal>;
  contract?: Contract;
  /** Declared headers that are not `required` but that this target always sends (see ContractOptions). */
  alwaysSent?: readonly string[];
  /** Fresh agents and tasks every this many requests. */
  refreshEvery?: number;
  onProgress?: (done: number, distinctFailures: number) => void;
  onFailure?: (failure: Failure) => void;
  /** Every exchange, for tracing. */
  onExchange?: (request: ConcreteRequest, response: ObservedResponse, milliseconds: number) => void;
}

export interface Failure {
  signature: string;
  category: FailureCategory;
  method: string;
  template: string;
  status: number;
  reason: string;
  errors: string[];
  detail?: string;
  labels: string[];
  operation: string;
  request: ConcreteRequest;
  curl: string;
  count: number;
}

export interface Summary {
  requests: number;
  durationMs: number;
  byCategory: Record<FailureCategory, number>;
  byStatus: Record<string, number>;
  byTransport: Record<string, number>;
  passwordOperations: number;
  failures: Failure[];
}

/** Sends `requests` generated requests to `baseUrl` and checks every answer against api.yaml. */
export async function runFuzzer(options: RunOptions): Promise<Summary> {
  const contract = options.contract ?? (await loadContract(undefined, { alwaysSent: options.alwaysSent }));
  const concurrency = options.concurrency ?? 8;
  const generator = createRequestGenerator(contract, options.seed);
  const sender = createSender(options.baseUrl, concurrency);
  const fixtures = new Fixtures({ baseUrl: options.baseUrl, apiKey: options.apiKey, metricsToken: options.metricsToken, origin: options.origin, admin: options.admin });
  const refreshEvery = options.refreshEvery ?? 300;
  const firstIndex = options.firstIndex ?? 0;
  const failures = new Map<string, Failure>();
  const summary: Summary = {
    requests: 0,
    durationMs: 0,
    byCategory: { '5xx': 0, contract: 0, shape: 0 },
    byStatus: {},
    byTransport: {},
    passwordOperations: 0,
    failures: [],
  };
  const started = Date.now();
  const progressEvery = Math.max(1, Math.round(options.requests / 10));
  let next = 0;

  const record = (request: ConcreteRequest, response: ObservedResponse) => {
    summary.requests += 1;
    summary.byStatus[response.status] = (summary.byStatus[response.status] ?? 0) + 1;
    summary.byTransport[request.transport] = (summary.byTransport[request.transport] ?? 0) + 1;
    const verdict = contract.check(response);
    if (verdict.ok) return;
    summary.byCategory[verdict.category] += 1;
    const signature = [verdict.category, request.method, verdict.template, response.status, verdict.errors[0] ?? verdict.reason].join(' | ');
    const known = failures.get(signature);
    if (known) {
      known.count += 1;
      return;
    }
    const failure: Failure = {
      signature,
      category: verdict.category,
      method: request.method,
      template: verdict.template,
      status: response.status,
      reason: verdict.reason,
      errors: verdict.errors,
      detail: verdict.detail,
      labels: request.labels,
      operation: request.operation,
      request,
      curl: curlLine(options.baseUrl, request),
      count: 1,
    };
    failures.set(signature, failure);
    options.onFailure?.(failure);
  };

  const worker = async () => {
    for (;;) {
      await fixtures.ready();
      const index = next++;
      if (index >= options.requests) return;
      const request = materialize(generator.generate(firstIndex + index), fixtures.view);
      const sent = performance.now();
      const response = await sender.send(request);
      options.onExchange?.(request, response, performance.now() - sent);
      record(request, response);
      fixtures.observe(request, response, contract.matchPath(request.path));
      if ((index + 1) % refreshEvery === 0) fixtures.refresh();
      if ((index + 1) % progressEvery === 0) options.onProgress?.(index + 1, failures.size);
    }
  };

  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    sender.close();
  }
  summary.durationMs = Date.now() - started;
  summary.passwordOperations = fixtures.passwordOperations;
  summary.failures = [...failures.values()];
  return summary;
}

export function formatFailure(failure: Failure): string {
  const lines = [
    `[${failure.category}] ${failure.method} ${failure.template} -> ${failure.status}: ${failure.reason} (${failure.count}x; from ${failure.operation} via ${failure.labels.join('+')}, request #${failure.request.index})`,
    ...failure.errors.map((error) => `    schema: ${error}`),
  ];
  if (failure.detail) lines.push(`    body: ${failure.detail.replace(/\s+/g, ' ').slice(0, 240)}`);
  lines.push(`    ${failure.curl.length > 2000 ? `${failure.curl.slice(0, 2000)}…` : failure.curl}`);
  return lines.join('\n');
}

export function formatSummary(summary: Summary): string {
  const statuses = Object.entries(summary.byStatus)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([status, count]) => `${status}:${count}`)
    .join(' ');
  const rate = summary.durationMs ? Math.round((summary.requests * 1000) / summary.durationMs) : 0;
  return [
    `requests ${summary.requests}, 5xx ${summary.byCategory['5xx']}, contract breaks ${summary.byCategory.contract}, shape breaks ${summary.byCategory.shape}`,
    `  distinct failures ${summary.failures.length}; ${(summary.durationMs / 1000).toFixed(1)} s, ${rate} requests/s; fixture password hashes ${summary.passwordOperations}`,
    `  statuses ${statuses}`,
    `  transports ${Object.entries(summary.byTransport).map(([name, count]) => `${name}:${count}`).join(' ')}`,
  ].join('\n');
}

export function failureCount(summary: Summary): number {
  return summary.byCategory['5xx'] + summary.byCategory.contract + summary.byCategory.shape;
}
