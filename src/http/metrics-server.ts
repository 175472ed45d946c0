import { createServer, type Server, type ServerResponse } from 'node:http';
import type { HttpTimeouts } from '../config/config';
import type { Logger } from '../logger';
import { serverTimeoutOptions } from './http-server';
import { renderMetrics, type Metrics } from './observability';
import { methodNotAllowed, routeNotFound } from '../errors';
import { toProblem } from './error-handler';
import type { ApiDocument } from '../contract/openapi';
import { renderProblem, type Problem } from './problems';
import { compileRouteTable, pathOf, shippedRouteTable } from '../contract/route-table';

/**
 * The metrics listener (METRICS_PORT): GET /metrics in Prometheus's text format and nothing else,
 * without a token. It is meant for a private interface (METRICS_HOST, 127.0.0.1 by default) that
 * only the scraper reaches; it never sees the API's routes, credentials or rate limits.
 */
export function createMetricsServer(deps: { metrics: Metrics; logger: Logger; timeouts: HttpTimeouts; apiDocument?: ApiDocument }): Server {
  const metricsPath = pathOf(deps.apiDocument ? compileRouteTable(deps.apiDocument) : shippedRouteTable(), 'getMetrics');
  return createServer(serverTimeoutOptions(deps.timeouts), (req, res) => {
    const path = (req.url ?? '').split('?', 1)[0];
    if (path !== metricsPath) return sendProblem(res, toProblem(routeNotFound()));
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendProblem(res, toProblem(methodNotAllowed(String(req.method), metricsPath, 'GET, HEAD')));
    renderMetrics(deps.metrics).then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        deps.logger.error({ err: error }, 'metrics could not be collected');
        sendProblem(res, toProblem(error));
      },
    );
  });
}

function sendProblem(res: ServerResponse, problem: Problem): void {
  const { status, body } = renderProblem(problem, 'root', '');
  res.writeHead(status, { ...problem.headers, 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}
