import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import type { HttpTimeouts } from '../config/config';
import type { Logger } from '../logger';
import type { Metrics } from './observability';
import { methodNotAllowed, routeNotFound } from '../errors';
import { toProblem } from './error-handler';
import { renderProblem, type Problem } from './problems';
import { ROUTE_TABLE, surfaceOfPath, type RouteTable } from '../contract/route-table';
import { SECURITY_HEADERS, type SecurityHeaders } from './security-headers';
import { expressMessageClassesOf } from './express-message-classes';

/** What Node's HTTP parser refused, and how it is answered (RFC 9110 / RFC 9112 statuses). */
const PARSER_PROBLEMS: Record<string, Problem> = {
  HPE_HEADER_OVERFLOW: { status: 431, code: 'headers_too_large', message: 'Request headers are too large' },
  HPE_UNEXPECTED_CONTENT_LENGTH: { status: 400, code: 'validation_error', message: 'Content-Length and Transfer-Encoding must not both be sent' },
  HPE_INVALID_TRANSFER_ENCODING: { status: 400, code: 'validation_error', message: 'Unsupported Transfer-Encoding' },
  HPE_INVALID_CONTENT_LENGTH: { status: 400, code: 'validation_error', message: 'Invalid Content-Length' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'request_timeout', message: 'The request was not received in time' },
};
const MALFORMED: Problem = { status: 400, code: 'validation_error', message: 'Malformed HTTP request' };
/** How long a refused connection may stay open after its answer, for the client to read it. */
const LINGER_MS = 1000;

/**
 * Node's slow-client limits from configuration. Node checks them only every
 * `connectionsCheckingInterval` (30 s by default, which would let a 1 s limit run for 31 s).
 */
export function serverTimeoutOptions(timeouts: HttpTimeouts): { requestTimeout: number; headersTimeout: number; keepAliveTimeout: number; connectionsCheckingInterval: number } {
  return {
    requestTimeout: timeouts.requestTimeoutMs,
    headersTimeout: timeouts.headersTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(timeouts.headersTimeoutMs / 2))),
  };
}

/**
 * The service's HTTP server. Requests that Node's parser refuses never reach Express: they are
 * answered here, in the error shape of the surface their target names, with an X-Request-ID, a
 * log line and a metric, instead of Node's bare `400 Bad Request`.
 */
export function createHttpServer(app: Express, deps: { logger: Logger; metrics: Metrics; timeouts: HttpTimeouts }): Server {
  const routes = app.get(ROUTE_TABLE) as RouteTable | undefined;
  // What Express's answers that are not pages carry, written out once for the answers given here.
  const security = (app.get(SECURITY_HEADERS) as SecurityHeaders | undefined)?.other ?? [];
  const securityLines = security.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const securityFields = Object.fromEntries(security);
  // RFC 9112 section 3.2.2: a server must accept a request target in absolute form
  // (`GET http://host/agents`); it is routed like its path. Rewritten before Express, whose router
  // would otherwise keep re-attaching the scheme and host to every path it matches.
  const server = createServer({ ...serverTimeoutOptions(deps.timeouts), ...expressMessageClassesOf(app) }, (req, res) => {
    if (req.url !== undefined && !req.url.startsWith('/')) req.url = originFormOf(req.url) ?? req.url;
    app(req, res);
  });

  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex & { _httpMessage?: ServerResponse | null }) => {
    // The response Node keeps on the socket for the request in progress, when a timeout struck
    // after its headers arrived (a dribbled body): its path and id are known.
    const inFlight = socket._httpMessage ?? undefined;
    // A reset, a half-written request, or an answer already on its way: there is nobody left to
    // answer, or a status line now would corrupt the response the client is reading.
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const inFlightId = inFlight?.getHeader('X-Request-ID');
    const requestId = typeof inFlightId === 'string' ? inFlightId : randomUUID();
    const inFlightTarget = inFlight?.req && ((inFlight.req as IncomingMessage & { originalUrl?: string }).originalUrl ?? inFlight.req.url);
    const { method, target } = inFlightTarget !== undefined ? { method: inFlight?.req.method ?? '', target: inFlightTarget } : requestLineOf(err.rawPacket);
    const problem = err.code === 'HPE_INVALID_METHOD' ? unknownMethod(method, target, routes) : (err.code && PARSER_PROBLEMS[err.code]) || MALFORMED;
    const { status, body } = renderProblem(problem, routes?.surfaceOf(target) ?? surfaceOfPath(target), requestId);
    const payload = JSON.stringify(body);
    deps.metrics.rejectedRequests.inc({ status: String(status), reason: err.code ?? 'unknown' });
    deps.logger.warn({ reqId: requestId, status, reason: err.code, remoteAddress: (socket as { remoteAddress?: string }).remoteAddress }, 'request refused by the HTTP parser');
    // The server keeps half-open sockets: a client that goes on sending (a slowloris, a dribbled
    // body) would otherwise hold this one open after its answer.
    const linger = setTimeout(() => socket.destroy(), LINGER_MS);
    linger.unref();
    socket.once('close', () => clearTimeout(linger));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(payload)}\r\n` +
        `X-Request-ID: ${requestId}\r\n` +
        securityLines +
        (problem.headers?.Allow ? `Allow: ${problem.headers.Allow}\r\n` : '') +
        'Connection: close\r\n\r\n' +
        payload,
    );
  });

  // Node answers an `Expect` other than 100-continue with a bare 417 unless told otherwise.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const requestId = randomUUID();
    const problem: Problem = { status: 417, code: 'expectation_failed', message: 'Only Expect: 100-continue is supported' };
    const { status, body } = renderProblem(problem, routes?.surfaceOf(req.url ?? '/') ?? surfaceOfPath(req.url ?? '/'), requestId);
    deps.metrics.rejectedRequests.inc({ status: String(status), reason: 'expectation' });
    res.writeHead(status, { ...securityFields, 'Content-Type': 'application/json; charset=utf-8', 'X-Request-ID': requestId, Connection: 'close' }).end(JSON.stringify(body));
  });

  return server;
}

/** The path and query of `http://host/path?query`, exactly as sent: dot segments are not resolved. */
function originFormOf(target: string): string | undefined {
  const authority = /^https?:\/\/[^/?#]*/i.exec(target);
  if (!authority) return undefined;
  const rest = target.slice(authority[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/**
 * A method Node does not know is answered like one api.yaml does not list for the path: 405 with
 * `Allow` on a path it declares, 404 elsewhere (never a 5xx for what a client sent).
 */
function unknownMethod(method: string, target: string, routes: RouteTable | undefined): Problem {
  const path = target.split('?', 1)[0] ?? '';
  const route = path.startsWith('/') ? routes?.find(path)?.route : undefined;
  return toProblem(route ? methodNotAllowed(method, route.template, route.allow) : routeNotFound());
}

/** The method and path of the request line, when what arrived has one. */
function requestLineOf(raw: Buffer | undefined): { method: string; target: string } {
  const line = raw?.subarray(0, 8192).toString('latin1').split('\r\n', 1)[0] ?? '';
  const [method = '', target = '/'] = line.split(' ');
  return { method: method.replace(/[^\x21-\x7e]/g, '?'), target: target.startsWith('/') ? target : (originFormOf(target) ?? '/') };
}
