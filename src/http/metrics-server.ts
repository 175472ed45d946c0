import { createServer, type Server, type ServerResponse } from 'node:http';
import type { HttpTimeouts } from '../config';
import type { Logger } from '../logger';
import { serverTimeoutOptions } from './http-server';
import { renderMetrics, type Metrics } from './observability';
import { renderProblem, type Problem } from './problems';

const NOT_FOUND: Problem = { status: 404, code: 'not_found', message: 'Not Found' };

/**
 * The metrics listener (METRICS_PORT): GET /metrics in Prometheus's text format and nothing else,
 * without a token. It is meant for a private interface (METRICS_HOST, 127.0.0.1 by default) that
 * only the scraper reaches; it never sees the API's routes, credentials or rate limits.
 */
export function createMetricsServer(deps: { metrics: Metrics; logger: Logger; timeouts: HttpTimeouts }): Server {
  return createServer(serverTimeoutOptions(deps.timeouts), (req, res) => {
    const path = (req.url ?? '').split('?', 1)[0];
    if (path !== '/metrics') return sendProblem(res, NOT_FOUND);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return sendProblem(res, { status: 405, code: 'method_not_allowed', message: `${String(req.method).slice(0, 20)} is not allowed on /metrics` });
    }
    renderMetrics(deps.metrics).then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        deps.logger.error({ err: error }, 'metrics could not be collected');
        sendProblem(res, { status: 500, code: 'internal_error', message: 'An unexpected error occurred' });
      },
    );
  });
}

function sendProblem(res: ServerResponse, problem: Problem): void {
  const { status, body } = renderProblem(problem, 'root', '');
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}
