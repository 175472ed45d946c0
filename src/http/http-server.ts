import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../logger';
import type { Metrics } from './observability';
import { renderProblem, surfaceOfPath, type Problem } from './problems';

/** What Node's HTTP parser refused, and how it is answered (RFC 9110 / RFC 9112 statuses). */
const PARSER_PROBLEMS: Record<string, Problem> = {
  HPE_HEADER_OVERFLOW: { status: 431, code: 'headers_too_large', message: 'Request headers are too large' },
  HPE_INVALID_METHOD: { status: 501, code: 'not_implemented', message: 'Unknown request method' },
  HPE_UNEXPECTED_CONTENT_LENGTH: { status: 400, code: 'validation_error', message: 'Content-Length and Transfer-Encoding must not both be sent' },
  HPE_INVALID_TRANSFER_ENCODING: { status: 400, code: 'validation_error', message: 'Unsupported Transfer-Encoding' },
  HPE_INVALID_CONTENT_LENGTH: { status: 400, code: 'validation_error', message: 'Invalid Content-Length' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'request_timeout', message: 'The request was not received in time' },
};
const MALFORMED: Problem = { status: 400, code: 'validation_error', message: 'Malformed HTTP request' };

/**
 * The service's HTTP server. Requests that Node's parser refuses never reach Express: they are
 * answered here, in the error shape of the surface their target names, with an X-Request-ID, a
 * log line and a metric, instead of Node's bare `400 Bad Request`.
 */
export function createHttpServer(app: RequestListener, deps: { logger: Logger; metrics: Metrics }): Server {
  // RFC 9112 section 3.2.2: a server must accept a request target in absolute form
  // (`GET http://host/agents`); it is routed like its path. Rewritten before Express, whose router
  // would otherwise keep re-attaching the scheme and host to every path it matches.
  const server = createServer((req, res) => {
    if (req.url !== undefined && !req.url.startsWith('/')) req.url = originFormOf(req.url) ?? req.url;
    app(req, res);
  });

  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    // A reset or a half-written request: there is nobody left to answer.
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const problem = (err.code && PARSER_PROBLEMS[err.code]) || MALFORMED;
    const requestId = randomUUID();
    const target = requestTargetOf(err.rawPacket);
    const { status, body } = renderProblem(problem, surfaceOfPath(target), requestId);
    const payload = JSON.stringify(body);
    deps.metrics.rejectedRequests.inc({ status: String(status), reason: err.code ?? 'unknown' });
    deps.logger.warn({ reqId: requestId, status, reason: err.code, remoteAddress: (socket as { remoteAddress?: string }).remoteAddress }, 'request refused by the HTTP parser');
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(payload)}\r\n` +
        `X-Request-ID: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        payload,
    );
  });

  // Node answers an `Expect` other than 100-continue with a bare 417 unless told otherwise.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const requestId = randomUUID();
    const problem: Problem = { status: 417, code: 'expectation_failed', message: 'Only Expect: 100-continue is supported' };
    const { status, body } = renderProblem(problem, surfaceOfPath(req.url ?? '/'), requestId);
    deps.metrics.rejectedRequests.inc({ status: String(status), reason: 'expectation' });
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'X-Request-ID': requestId, Connection: 'close' }).end(JSON.stringify(body));
  });

  return server;
}

function originFormOf(target: string): string | undefined {
  try {
    const url = new URL(target);
    return url.protocol === 'http:' || url.protocol === 'https:' ? `${url.pathname}${url.search}` : undefined;
  } catch {
    return undefined;
  }
}

/** The path of the request line, when what arrived has one. */
function requestTargetOf(raw: Buffer | undefined): string {
  const line = raw?.subarray(0, 8192).toString('latin1').split('\r\n', 1)[0] ?? '';
  const target = line.split(' ')[1] ?? '/';
  if (target.startsWith('/')) return target;
  try {
    return new URL(target).pathname;
  } catch {
    return '/';
  }
}
