/** The benchmark's figures: medians over rounds, ratios, targets, and their Markdown rendering. */
import type { AppName } from './apps';
import { REQUEST_TIMEOUT_S, ROUTES, type RouteKey } from './load';

export interface Measurement {
  round: number;
  route: RouteKey;
  app: AppName;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** utime + stime of the app's whole process tree over the measured window, per answered request. */
  cpuMicrosPerRequest: number;
  answered: number;
  /** Processes in the app's tree during the window (a primary and its workers). */
  processes: number;
  /** Sum of the tree's VmHWM right after the window: which load raised the peak. */
  peakTreeMb: number;
  /** Non-2xx statuses and connection errors: any makes the run invalid. */
  failures: Record<string, number>;
}

export interface Summary {
  route: RouteKey;
  app: AppName;
  rounds: number;
  requestsPerSecond: number;
  minRequestsPerSecond: number;
  maxRequestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  cpuMicrosPerRequest: number;
}

export interface ProcessPeak {
  pid: number;
  role: string;
  atReadyMb: number;
  afterSeedingMb: number;
  peakMb: number;
}

export interface AppResult {
  name: AppName;
  description: string;
  processes: ProcessPeak[];
  /** Sum of the tree's VmHWM: an upper bound of what the tree held at once. */
  peakTreeMb: number;
  /** The measurement that raised the tree's peak the most, and by how much. */
  largestRise?: { round: number; route: RouteKey; mb: number };
}

export interface Ratio {
  route: RouteKey;
  serviceOverExpress?: number;
  cpuServiceOverExpress?: number;
  /** Against bare Express whose server makes its requests with Express's prototypes in place (`express-classes`). */
  serviceOverLeanExpress?: number;
  serviceOverFastify?: number;
  twoWorkersOverFastify?: number;
}

export interface Target {
  description: string;
  measured: string;
  /** undefined when an app it needs was not run. */
  met?: boolean;
}

export interface BenchReport {
  context: Record<string, string>;
  apps: AppResult[];
  measurements: Measurement[];
  summary: Summary[];
  ratios: Ratio[];
  targets: Target[];
  /** Why the run is invalid (non-2xx answers, errors); empty when it is not. */
  problems: string[];
}

const TARGETS = {
  /** Per process, the service against bare Express, on every route. */
  minRatioToExpress: 0.5,
  maxServicePeakRssMb: 160,
  /** VmHWM of the single-process service once it answers /health: what start-up alone costs. */
  maxServiceReadyRssMb: 90,
  /** WEB_CONCURRENCY=2 against one Fastify process, on the reads. */
  minTwoWorkersRatioToFastify: 0.8,
  twoWorkersRoutes: ['get-one', 'list'] as RouteKey[],
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

export function summarise(measurements: Measurement[]): Summary[] {
  const groups = new Map<string, Measurement[]>();
  for (const m of measurements) groups.set(`${m.route} ${m.app}`, [...(groups.get(`${m.route} ${m.app}`) ?? []), m]);
  return [...groups.values()].map((group) => {
    const first = group[0] as Measurement;
    const rates = group.map((m) => m.requestsPerSecond);
    return {
      route: first.route,
      app: first.app,
      rounds: group.length,
      requestsPerSecond: median(rates),
      minRequestsPerSecond: Math.min(...rates),
      maxRequestsPerSecond: Math.max(...rates),
      p50Ms: median(group.map((m) => m.p50Ms)),
      p99Ms: median(group.map((m) => m.p99Ms)),
      cpuMicrosPerRequest: median(group.map((m) => m.cpuMicrosPerRequest)),
    };
  });
}

const find = (summary: Summary[], route: RouteKey, app: AppName) => summary.find((s) => s.route === route && s.app === app);
const ratioOf = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : a / b);

export function computeRatios(summary: Summary[]): Ratio[] {
  return ROUTES.map(({ key }) => {
    const rate = (app: AppName) => find(summary, key, app)?.requestsPerSecond;
    return {
      route: key,
      serviceOverExpress: ratioOf(rate('service'), rate('express')),
      cpuServiceOverExpress: ratioOf(find(summary, key, 'service')?.cpuMicrosPerRequest, find(summary, key, 'express')?.cpuMicrosPerRequest),
      serviceOverLeanExpress: ratioOf(rate('service'), rate('express-classes')),
      serviceOverFastify: ratioOf(rate('service'), rate('fastify')),
      twoWorkersOverFastify: ratioOf(rate('service-2w'), rate('fastify')),
    };
  });
}

const fixed = (value: number | undefined, digits: number) => (value === undefined || !Number.isFinite(value) ? 'n/a' : value.toFixed(digits));
const routeName = (key: RouteKey) => ROUTES.find((route) => route.key === key)?.name ?? key;

export function evaluateTargets(summary: Summary[], ratios: Ratio[], apps: AppResult[]): Target[] {
  const targets: Target[] = [];
  // Stock bare Express is always a floor; express-classes only when it ran.
  const floors = [
    { app: 'express', against: 'bare Express req/s (one process each)', ratioOf: (ratio: Ratio) => ratio.serviceOverExpress, always: true },
    { app: 'express-classes', against: "bare Express with Express's prototypes in place (express-classes)", ratioOf: (ratio: Ratio) => ratio.serviceOverLeanExpress, always: false },
  ] as const;
  for (const floor of floors) {
    for (const ratio of ratios) {
      const bare = find(summary, ratio.route, floor.app);
      if (bare === undefined && !floor.always) continue;
      const measured = floor.ratioOf(ratio);
      targets.push({
        description: `${routeName(ratio.route)}: service at least ${TARGETS.minRatioToExpress}× ${floor.against}`,
        measured: `${fixed(measured, 2)}× (${fixed(find(summary, ratio.route, 'service')?.requestsPerSecond, 0)} against ${fixed(bare?.requestsPerSecond, 0)} req/s)`,
        met: measured === undefined ? undefined : measured >= TARGETS.minRatioToExpress,
      });
    }
  }
  const service = apps.find((app) => app.name === 'service');
  const atReady = service?.processes[0]?.atReadyMb;
  targets.push({
    description: `resident size of the single-process service once ready at most ${TARGETS.maxServiceReadyRssMb} MB`,
    measured: `${fixed(atReady, 0)} MB`,
    met: atReady === undefined || !Number.isFinite(atReady) ? undefined : atReady <= TARGETS.maxServiceReadyRssMb,
  });
  targets.push({
    description: `peak RSS of the single-process service at most ${TARGETS.maxServicePeakRssMb} MB`,
    measured: `${fixed(service?.peakTreeMb, 0)} MB`,
    met: service === undefined ? undefined : service.peakTreeMb <= TARGETS.maxServicePeakRssMb,
  });
  const twoWorkers = apps.find((app) => app.name === 'service-2w');
  const oneProcess = twoWorkers !== undefined && twoWorkers.processes.length === 1;
  for (const route of TARGETS.twoWorkersRoutes) {
    const ratio = ratios.find((r) => r.route === route)?.twoWorkersOverFastify;
    targets.push({
      description: `${routeName(route)}: service with WEB_CONCURRENCY=2 at least ${TARGETS.minTwoWorkersRatioToFastify}× single-process Fastify req/s`,
      measured: `${fixed(ratio, 2)}× (${fixed(find(summary, route, 'service-2w')?.requestsPerSecond, 0)} against ${fixed(find(summary, route, 'fastify')?.requestsPerSecond, 0)} req/s)${oneProcess ? '; it ran as one process: WEB_CONCURRENCY is not implemented on this commit' : ''}`,
      met: ratio === undefined ? undefined : ratio >= TARGETS.minTwoWorkersRatioToFastify,
    });
  }
  return targets;
}

/** A Markdown table padded to line up in a terminal too. */
function table(headers: string[], rows: string[][], rightAligned: boolean[]): string[] {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => (rightAligned[i] ? cell.padStart(widths[i] as number) : cell.padEnd(widths[i] as number))).join(' | ')} |`;
  const rule = `|${widths.map((width, i) => (rightAligned[i] ? `${'-'.repeat(width + 1)}:` : `${'-'.repeat(width + 2)}`)).join('|')}|`;
  return [line(headers), rule, ...rows.map(line)];
}

export function renderMarkdown(report: BenchReport): string {
  const lines: string[] = ['# Agent Fleet API benchmark', ''];
  for (const [key, value] of Object.entries(report.context)) lines.push(`- ${key}: ${value}`);
  lines.push('', '## Apps', '');
  for (const app of report.apps) lines.push(`- \`${app.name}\`: ${app.description}`);

  const rounds = Math.max(0, ...report.summary.map((s) => s.rounds));
  lines.push('', `## Results (median of ${rounds} round${rounds === 1 ? '' : 's'})`, '');
  const rows: string[][] = [];
  for (const route of ROUTES) {
    for (const app of report.apps) {
      const s = find(report.summary, route.key, app.name);
      if (!s) continue;
      rows.push([
        route.name,
        app.name,
        fixed(s.requestsPerSecond, 0),
        `${fixed(s.minRequestsPerSecond, 0)}–${fixed(s.maxRequestsPerSecond, 0)}`,
        fixed(s.p50Ms, 1),
        fixed(s.p99Ms, 1),
        fixed(s.cpuMicrosPerRequest, 0),
        fixed(app.peakTreeMb, 0),
      ]);
    }
  }
  lines.push(...table(['route', 'app', 'req/s', 'req/s range', 'p50 ms', 'p99 ms', 'CPU µs/req', 'peak RSS MB (tree)'], rows, [false, false, true, true, true, true, true, true]));

  lines.push('', '## Peak RSS per process (VmHWM)', '');
  const sum = (processes: ProcessPeak[], field: 'atReadyMb' | 'afterSeedingMb') => processes.reduce((total, p) => total + p[field], 0);
  const rise = (app: AppResult) => (app.largestRise ? `round ${app.largestRise.round}, ${routeName(app.largestRise.route)}: +${fixed(app.largestRise.mb, 0)}` : '');
  const memoryRows = report.apps.flatMap((app) => {
    const single = app.processes.length === 1;
    return [
      ...app.processes.map((p) => [app.name, p.role, String(p.pid), fixed(p.atReadyMb, 0), fixed(p.afterSeedingMb, 0), fixed(p.peakMb, 0), single ? rise(app) : '']),
      ...(single ? [] : [[app.name, 'tree (sum)', '', fixed(sum(app.processes, 'atReadyMb'), 0), fixed(sum(app.processes, 'afterSeedingMb'), 0), fixed(app.peakTreeMb, 0), rise(app)]]),
    ];
  });
  lines.push(
    ...table(['app', 'process', 'pid', 'once ready MB', 'after seeding MB', 'peak MB', 'largest rise of the peak (MB)'], memoryRows, [false, false, true, true, true, true, false]),
  );

  lines.push('', '## Ratios (req/s unless stated)', '');
  lines.push(
    ...table(
      ['route', 'service / bare Express', 'CPU µs/req: service / bare Express', 'service / express-classes', 'service / Fastify', 'service ×2 workers / Fastify'],
      report.ratios.map((r) => [
        routeName(r.route),
        fixed(r.serviceOverExpress, 2),
        fixed(r.cpuServiceOverExpress, 2),
        fixed(r.serviceOverLeanExpress, 2),
        fixed(r.serviceOverFastify, 2),
        fixed(r.twoWorkersOverFastify, 2),
      ]),
      [false, true, true, true, true, true],
    ),
  );

  lines.push('', '## Targets', '');
  for (const target of report.targets) lines.push(`- **${target.met === undefined ? 'not measured' : target.met ? 'met' : 'missed'}**: ${target.description}: ${target.measured}`);

  if (report.problems.length > 0) {
    lines.push('', '## RUN INVALID', '', `Answers other than 2xx, timeouts (no answer within ${REQUEST_TIMEOUT_S} s) or connection errors during measurement: these figures are not a benchmark of the routes.`, '');
    for (const problem of report.problems) lines.push(`- ${problem}`);
  }
  return `${lines.join('\n')}\n`;
}
