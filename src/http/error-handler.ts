import type { ErrorRequestHandler } from 'express';
import { HttpError as ValidatorError } from 'express-openapi-validator/dist/framework/types';
import { databaseOutageOf } from '../data/database-errors';
import { AppError, OAuthError, type FieldProblem } from '../errors';
import type { Logger } from '../logger';
import type { Metrics } from './observability';
import { surfaceOfPath, type Surface } from '../contract/route-table';
import { renderProblem, type Problem } from './problems';

const STATUS_OF: Record<AppError['code'], number> = {
  validation_error: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  state_conflict: 409,
  precondition_failed: 412,
  quota_exceeded: 409,
  lease_lost: 409,
  events_expired: 410,
  unsupported_media_type: 415,
  rate_limit_exceeded: 429,
  idempotency_key_in_use: 409,
  idempotency_key_reused: 422,
};

/** HTTP headers an error code always carries, from the error's details. */
function headersOf(err: AppError, allow: unknown): Record<string, string> | undefined {
  if (err.code === 'unauthorized') return { 'WWW-Authenticate': 'Bearer', ...err.headers };
  if (err.code === 'method_not_allowed' && typeof allow === 'string') return { Allow: allow, ...err.headers };
  return err.headers;
}

/** express.json's own failures carry a `type` naming what went wrong. */
const BODY_PARSER_PROBLEMS: Record<string, Problem> = {
  'entity.parse.failed': { status: 400, code: 'validation_error', message: 'Malformed JSON in request body' },
  'entity.too.large': { status: 413, code: 'payload_too_large', message: 'Request body is too large' },
  'encoding.unsupported': { status: 415, code: 'unsupported_media_type', message: 'Unsupported Content-Encoding: use gzip, deflate, br or none' },
  'charset.unsupported': { status: 415, code: 'unsupported_media_type', message: 'Unsupported charset: use utf-8' },
  'request.aborted': { status: 400, code: 'validation_error', message: 'Request body was not received completely' },
  'request.size.invalid': { status: 400, code: 'validation_error', message: 'Request body size does not match Content-Length' },
  'stream.encoding.set': { status: 400, code: 'validation_error', message: 'Request body could not be read' },
};

/** A body whose Content-Encoding does not match what it holds (zlib refuses it). */
const UNREADABLE_BODY: Problem = { status: 400, code: 'validation_error', message: 'Request body could not be decoded with its Content-Encoding' };
const INTERNAL: Problem = { status: 500, code: 'internal_error', message: 'An unexpected error occurred' };
const NOT_FOUND: Problem = { status: 404, code: 'not_found', message: 'Not Found' };
/** The challenge of the token endpoint's client authentication (RFC 6749 section 2.3.1). */
const CLIENT_CHALLENGE = 'Basic realm="agent-fleet"';
/** How long a client should wait before retrying after a dependency outage. */
const RETRY_AFTER_OUTAGE_SECONDS = '5';

export function toProblem(err: unknown): Problem {
  if (err instanceof AppError) {
    const { fields, allow, ...rest } = (err.details ?? {}) as { fields?: FieldProblem[]; allow?: unknown } & Record<string, unknown>;
    return {
      status: STATUS_OF[err.code],
      code: err.code,
      message: err.message,
      fields,
      details: Object.keys(rest).length > 0 ? rest : undefined,
      headers: headersOf(err, allow),
      schemaViolation: err.schemaViolation,
    };
  }
  if (err instanceof OAuthError) {
    // RFC 6749 section 5.2: a client that failed to authenticate gets 401 and how to authenticate.
    if (err.code === 'invalid_client') return { status: 401, code: 'unauthorized', message: err.description, oauthError: err.code, headers: { 'WWW-Authenticate': CLIENT_CHALLENGE } };
    return { status: 400, code: 'validation_error', message: err.description, oauthError: err.code };
  }
  if (err instanceof ValidatorError) return fromValidatorError(err);
  if (databaseOutageOf(err)) {
    return { status: 503, code: 'service_unavailable', message: 'The database is unavailable; retry shortly', headers: { 'Retry-After': RETRY_AFTER_OUTAGE_SECONDS } };
  }
  const parserType = (err as { type?: unknown } | null)?.type;
  if (typeof parserType === 'string' && parserType in BODY_PARSER_PROBLEMS) return BODY_PARSER_PROBLEMS[parserType] as Problem;
  // The body parser's other client errors (zlib or brotli refusing a body that does not match its
  // Content-Encoding, say) carry an http-errors status.
  const { status, expose } = (err ?? {}) as { status?: unknown; expose?: unknown };
  if (expose === true && typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413) return BODY_PARSER_PROBLEMS['entity.too.large'] as Problem;
    if (status === 415) return { status: 415, code: 'unsupported_media_type', message: 'Unsupported request body encoding' };
    return UNREADABLE_BODY;
  }
  return INTERNAL;
}

function fromValidatorError(err: ValidatorError): Problem {
  switch (err.status) {
    case 400: {
      const errors = err.errors ?? [];
      // RFC 6749 section 5.2: a grant type the token endpoint does not serve has a code of its own.
      const unsupportedGrant = errors.some((item) => item.path === '/body/grant_type' && (item as { errorCode?: string }).errorCode === 'enum.openapi.validation');
      return {
        status: 400,
        code: 'validation_error',
        message: 'Request validation failed',
        fields: errors.map(toFieldProblem),
        schemaViolation: true,
        ...(unsupportedGrant ? { oauthError: 'unsupported_grant_type' as const } : {}),
      };
    }
    case 404:
      return NOT_FOUND;
    case 405:
      return {
        status: 405,
        code: 'method_not_allowed',
        message: err.message,
        headers: err.headers?.Allow ? { Allow: err.headers.Allow.toUpperCase() } : undefined,
      };
    case 413:
      return { status: 413, code: 'payload_too_large', message: 'Request body is too large' };
    case 415:
      return { status: 415, code: 'unsupported_media_type', message: 'Request body must be application/json' };
    default:
      return INTERNAL;
  }
}

/** `/body/name`, `/query/limit`: the validator's paths, turned into a location and a field name. */
function toFieldProblem(item: { path: string; message: string }): FieldProblem {
  const parts = item.path.split(/[./]/).filter(Boolean);
  const location = parts[0];
  const known = location === 'body' || location === 'query' || location === 'path' || location === 'headers';
  // A query parameter is named as a whole (`fields`, not `fields.1`); bodies keep array indexes.
  const named = known ? parts.slice(1) : parts;
  const field = (location === 'query' ? named.filter((part) => !/^\d+$/.test(part)) : named).join('.');
  const where = location === 'headers' ? 'header' : known ? (location as FieldProblem['in']) : 'body';
  return { field: field || '(body)', in: where, message: item.message };
}

/**
 * The one place where a failure becomes a response: every route, every surface. `surfaceOf` is
 * the route table's (a declared path's surface is its own, /token's is OAuth's).
 */
export function errorHandler(logger: Logger, metrics: Pick<Metrics, 'dependencyFailures'>, surfaceOf: (path: string) => Surface = surfaceOfPath): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const problem = toProblem(err);
    const outage = databaseOutageOf(err);
    if (outage) {
      metrics.dependencyFailures.inc({ dependency: 'database', reason: outage });
      // An outage is not a bug: no stack trace per request, only what the driver said.
      logger.warn({ reqId: req.id, reason: outage, err: err instanceof Error ? err.message : String(err) }, 'database unavailable');
    } else if (problem.status >= 500) logger.error({ reqId: req.id, err }, 'request failed');
    if (res.headersSent) {
      // Half a response is already on the wire: cut it, so the client sees a failure, not a short body.
      req.socket.destroy();
      return;
    }
    const surface = surfaceOf(req.path);
    const { status, body } = renderProblem(problem, surface, req.id);
    if (problem.headers) res.set(problem.headers);
    if (surface === 'oauth') res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    try {
      res.status(status).json(body);
    } catch (renderError) {
      // Response validation refused this error body: api.yaml and this handler disagree. The caller
      // still gets JSON in its surface's shape, never Express's HTML page or a stack trace.
      logger.error({ reqId: req.id, err: renderError, status }, 'error response breaks api.yaml');
      const fallback = renderProblem(INTERNAL, surface, req.id);
      res.status(fallback.status).type('application/json').end(JSON.stringify(fallback.body));
    }
  };
}
