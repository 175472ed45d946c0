import type { FieldProblem, OAuthErrorCode } from '../errors';
import type { components } from '../../generated/api';
import type { Surface } from '../contract/route-table';

type RootError = components['schemas']['Error'];
type ApiError = components['schemas']['ApiError'];
type OAuthErrorBody = components['schemas']['OAuthError'];
type ApiLeaseLostBody = components['schemas']['ApiLeaseLostError'];
type ApiEventsExpiredBody = components['schemas']['ApiEventsExpiredError'];

/**
 * api.yaml's error vocabulary (`Error.error`); the /api envelope writes each in upper case,
 * `state_conflict` as `CONFLICT`. `lease_lost` is the leases' own (`ApiLeaseLostError`, /api only),
 * `events_expired` the event log's (`ApiEventsExpiredError`, /api only).
 */
export type ProblemCode = RootError['error'] | 'lease_lost' | 'events_expired';
type ApiCode = ApiError['error']['code'] | ApiLeaseLostBody['error']['code'] | ApiEventsExpiredBody['error']['code'];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Fails to compile when api.yaml's two code enums stop naming the same errors. */
const codesAgree: Same<Uppercase<Exclude<ProblemCode, 'state_conflict'>>, ApiCode> = true;
void codesAgree;

/** What went wrong, before it is written in the shape of the surface that was called. */
export interface Problem {
  status: number;
  /** snake_case; the /api envelope writes it in upper case. */
  code: ProblemCode;
  message: string;
  fields?: FieldProblem[];
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** The root surface answers schema violations with 422, /api and /token with 400. */
  schemaViolation?: boolean;
  /** RFC 6749 section 5.2 code, when the token endpoint has a more precise one than its status says. */
  oauthError?: OAuthErrorCode;
}

/** Codes whose message the specification calls a "detail text" (FastAPI's `detail`). */
const WITH_DETAIL = new Set(['not_found', 'unauthorized', 'forbidden']);

export function renderProblem(problem: Problem, surface: Surface, requestId: string): { status: number; body: RootError | ApiError | ApiLeaseLostBody | OAuthErrorBody } {
  if (surface === 'api') return renderApi(problem, requestId);
  if (surface === 'oauth') return renderOAuth(problem);
  return renderRoot(problem);
}

function renderRoot(problem: Problem): { status: number; body: RootError } {
  const internal = problem.status >= 500 && problem.status !== 503;
  // No root operation loses a lease or reads events; were one to, each would read as the nearest root error.
  const body: RootError = { error: problem.code === 'lease_lost' ? 'state_conflict' : problem.code === 'events_expired' ? 'not_found' : problem.code, message: internal ? 'An unexpected error occurred' : problem.message };
  if (WITH_DETAIL.has(problem.code)) body.detail = problem.message;
  if (problem.fields) body.details = { fields: problem.fields };
  else if (problem.details && !internal) body.details = problem.details;
  return { status: problem.schemaViolation ? 422 : problem.status, body };
}

function renderApi(problem: Problem, requestId: string): { status: number; body: ApiError | ApiLeaseLostBody } {
  const internal = problem.status >= 500 && problem.status !== 503;
  const code = (problem.code === 'state_conflict' ? 'conflict' : problem.code).toUpperCase() as ApiError['error']['code'];
  const error: ApiError['error'] = { code, message: internal ? 'Internal Server Error' : problem.message, requestId };
  if (problem.fields) error.details = problem.fields.map(({ field, message }) => ({ field, message }));
  else if (problem.details && !internal) error.details = problem.details;
  return { status: problem.status, body: { error } };
}

/** RFC 6749 section 5.2 for protocol errors; the registered codes of section 4.1.2.1 for the rest. */
function renderOAuth(problem: Problem): { status: number; body: OAuthErrorBody } {
  const error: OAuthErrorBody['error'] =
    problem.oauthError ??
    (problem.status === 429 || problem.status === 503 ? 'temporarily_unavailable' : problem.status >= 500 ? 'server_error' : 'invalid_request');
  const internal = problem.status >= 500 && problem.status !== 503;
  return { status: problem.status, body: { error, error_description: internal ? 'An unexpected error occurred' : problem.message } };
}
