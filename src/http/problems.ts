import type { ErrorCode, FieldProblem, OAuthErrorCode } from '../errors';
import type { components } from '../../generated/api';
import type { Surface } from '../contract/route-table';

type RootError = components['schemas']['Error'];
type ApiError = components['schemas']['ApiError'];
type OAuthErrorBody = components['schemas']['OAuthError'];
type ApiLeaseLostBody = components['schemas']['ApiLeaseLostError'];
/** Codes of their own (an error object with a `const` code), as `LEASE_LOST` is: every operation's error answers are not widened by them. */
type ApiOwnCodeBody =
  | ApiLeaseLostBody
  | components['schemas']['ApiEventsExpiredError']
  | components['schemas']['ApiIdempotencyKeyInUseError']
  | components['schemas']['ApiIdempotencyKeyReusedError'];

/**
 * api.yaml's error vocabulary (`Error.error`); the /api envelope writes each in upper case,
 * `state_conflict` as `CONFLICT`. `lease_lost` is the leases' own (`ApiLeaseLostError`, /api only),
 * `events_expired` the event log's (`ApiEventsExpiredError`, /api only).
 */
export type ProblemCode = RootError['error'] | 'lease_lost' | 'events_expired';
type ApiCode = ApiError['error']['code'] | ApiOwnCodeBody['error']['code'];
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

/**
 * The most field problems an answer lists: a body of 120,000 bad items must not come back as
 * megabytes of complaints. The answer says how many more there were.
 */
export const MAX_LISTED_FIELDS = 20;

/** The fields an answer lists, how many it leaves out, and the message that says so. */
function listed(problem: Problem): { fields: FieldProblem[]; omitted: number; message: string } | undefined {
  if (!problem.fields) return undefined;
  const omitted = Math.max(0, problem.fields.length - MAX_LISTED_FIELDS);
  if (omitted === 0) return { fields: problem.fields, omitted, message: problem.message };
  return {
    fields: problem.fields.slice(0, MAX_LISTED_FIELDS),
    omitted,
    message: `${problem.message}: ${problem.fields.length} problems, the first ${MAX_LISTED_FIELDS} listed`,
  };
}

/** Codes whose message the specification calls a "detail text" (FastAPI's `detail`). */
const WITH_DETAIL = new Set(['not_found', 'unauthorized', 'forbidden']);

export function renderProblem(problem: Problem, surface: Surface, requestId: string): { status: number; body: RootError | ApiError | ApiOwnCodeBody | OAuthErrorBody } {
  if (surface === 'api') return renderApi(problem, requestId);
  if (surface === 'oauth') return renderOAuth(problem);
  return renderRoot(problem);
}

function renderRoot(problem: Problem): { status: number; body: RootError } {
  const internal = problem.status >= 500 && problem.status !== 503;
  // No root operation loses a lease or reads events; were one to, each would read as the nearest root error.
  const fields = listed(problem);
  const message = fields?.message ?? problem.message;
  const body: RootError = { error: problem.code === 'lease_lost' ? 'state_conflict' : problem.code === 'events_expired' ? 'not_found' : problem.code, message: internal ? 'An unexpected error occurred' : message };
  if (WITH_DETAIL.has(problem.code)) body.detail = message;
  if (fields) body.details = fields.omitted > 0 ? { fields: fields.fields, omitted: fields.omitted } : { fields: fields.fields };
  else if (problem.details && !internal) body.details = problem.details;
  return { status: problem.schemaViolation ? 422 : problem.status, body };
}

/** An error's code as the /api surface writes it. */
export const apiCodeOf = (code: ErrorCode | ProblemCode): ApiError['error']['code'] => (code === 'state_conflict' ? 'conflict' : code).toUpperCase() as ApiError['error']['code'];

function renderApi(problem: Problem, requestId: string): { status: number; body: ApiError | ApiOwnCodeBody } {
  const internal = problem.status >= 500 && problem.status !== 503;
  const code = apiCodeOf(problem.code);
  const fields = listed(problem);
  const error: ApiError['error'] = { code, message: internal ? 'Internal Server Error' : (fields?.message ?? problem.message), requestId };
  if (fields) {
    error.details = fields.fields.map(({ field, message }) => ({ field, message }));
    if (fields.omitted > 0) error.detailsOmitted = fields.omitted;
  } else if (problem.details && !internal) error.details = problem.details;
  return { status: problem.status, body: { error } };
}

/** RFC 6749 section 5.2 for protocol errors; the registered codes of section 4.1.2.1 for the rest. */
function renderOAuth(problem: Problem): { status: number; body: OAuthErrorBody } {
  const error: OAuthErrorBody['error'] =
    problem.oauthError ??
    (problem.status === 429 || problem.status === 503 ? 'temporarily_unavailable' : problem.status >= 500 ? 'server_error' : 'invalid_request');
  const internal = problem.status >= 500 && problem.status !== 503;
  // The token endpoint's body has no room for a list: the fields are said in its description.
  const fields = listed(problem);
  const description = fields ? `${fields.message} (${fields.fields.map(({ field, message }) => `${field}: ${message}`).join('; ')})` : problem.message;
  return { status: problem.status, body: { error, error_description: internal ? 'An unexpected error occurred' : description } };
}
