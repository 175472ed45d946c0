import type { ErrorRequestHandler, Request } from 'express';
import { HttpError as ValidatorError } from 'express-openapi-validator/dist/framework/types';
import { AppError, OAuthError, type FieldProblem } from '../errors';
import type { Logger } from '../logger';
import type { components } from '../../generated/api';

type RootError = components['schemas']['Error'];
type ApiError = components['schemas']['ApiError'];
type OAuthErrorBody = components['schemas']['OAuthError'];

/** What went wrong, before it is written in the shape of the surface that was called. */
interface Problem {
  status: number;
  code: string;
  message: string;
  fields?: FieldProblem[];
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** The root surface answers schema violations with 422, /api with 400. */
  schemaViolation?: boolean;
}

const STATUS_OF: Record<AppError['code'], number> = {
  validation_error: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  state_conflict: 409,
  precondition_failed: 412,
  rate_limit_exceeded: 429,
};

/** express.json's own failures carry a `type` naming what went wrong. */
const BODY_PARSER_PROBLEMS: Record<string, Problem> = {
  'entity.parse.failed': { status: 400, code: 'validation_error', message: 'Malformed JSON in request body' },
  'entity.too.large': { status: 413, code: 'payload_too_large', message: 'Request body is too large' },
  'encoding.unsupported': { status: 415, code: 'unsupported_media_type', message: 'Unsupported content encoding' },
  'charset.unsupported': { status: 415, code: 'unsupported_media_type', message: 'Unsupported charset' },
  'request.aborted': { status: 400, code: 'validation_error', message: 'Request body was not received completely' },
  'request.size.invalid': { status: 400, code: 'validation_error', message: 'Request body size does not match Content-Length' },
};

const INTERNAL: Problem = { status: 500, code: 'internal_error', message: 'An unexpected error occurred' };
const NOT_FOUND: Problem = { status: 404, code: 'not_found', message: 'Not Found' };

/** Codes whose message the specification calls a "detail text" (FastAPI's `detail`). */
const WITH_DETAIL = new Set(['not_found', 'unauthorized', 'forbidden']);

export function toProblem(err: unknown): Problem {
  if (err instanceof AppError) {
    const { fields, ...rest } = (err.details ?? {}) as { fields?: FieldProblem[] } & Record<string, unknown>;
    return {
      status: STATUS_OF[err.code],
      code: err.code,
      message: err.message,
      fields,
      details: Object.keys(rest).length > 0 ? rest : undefined,
      headers: err.code === 'unauthorized' ? { 'WWW-Authenticate': 'Bearer' } : undefined,
    };
  }
  if (err instanceof ValidatorError) return fromValidatorError(err);
  const parserType = (err as { type?: unknown } | null)?.type;
  if (typeof parserType === 'string' && parserType in BODY_PARSER_PROBLEMS) {
    return BODY_PARSER_PROBLEMS[parserType] as Problem;
  }
  return INTERNAL;
}

function fromValidatorError(err: ValidatorError): Problem {
  switch (err.status) {
    case 400:
      return {
        status: 400,
        code: 'validation_error',
        message: 'Request validation failed',
        fields: (err.errors ?? []).map(toFieldProblem),
        schemaViolation: true,
      };
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

type Surface = 'root' | 'api' | 'oauth';

function surfaceOf(req: Request): Surface {
  const path = req.path;
  if (path === '/token') return 'oauth';
  return path === '/api' || path.startsWith('/api/') ? 'api' : 'root';
}

function renderRoot(problem: Problem): { status: number; body: RootError } {
  const body: RootError = { error: problem.code, message: problem.message };
  if (WITH_DETAIL.has(problem.code)) body.detail = problem.message;
  if (problem.fields) body.details = { fields: problem.fields };
  else if (problem.details) body.details = problem.details;
  return { status: problem.schemaViolation ? 422 : problem.status, body };
}

function renderApi(problem: Problem, requestId: string): { status: number; body: ApiError } {
  const internal = problem.status >= 500;
  const code = (problem.code === 'state_conflict' ? 'conflict' : problem.code).toUpperCase() as ApiError['error']['code'];
  const error: ApiError['error'] = { code, message: internal ? 'Internal Server Error' : problem.message, requestId };
  if (problem.fields) error.details = problem.fields.map(({ field, message }) => ({ field, message }));
  else if (problem.details && !internal) error.details = problem.details;
  return { status: problem.status, body: { error } };
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    const surface = surfaceOf(req);
    if (surface === 'oauth' && (err instanceof OAuthError || (err instanceof ValidatorError && err.status === 400))) {
      const body: OAuthErrorBody =
        err instanceof OAuthError
          ? { error: err.code, error_description: err.description }
          : { error: 'invalid_request', error_description: 'grant_type, username and password are required, form-encoded' };
      res.status(400).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json(body);
      return;
    }
    const problem = toProblem(err);
    if (problem.status >= 500) logger.error({ reqId: req.id, err }, 'request failed');
    if (problem.headers) res.set(problem.headers);
    const { status, body } = surface === 'api' ? renderApi(problem, req.id) : renderRoot(problem);
    res.status(status).json(body);
  };
}
