import type { components } from '../generated/api';

/**
 * The application's single error vocabulary. Domain and data code throw these; the HTTP error
 * handler alone decides how each one is written on the wire (root surface or /api envelope).
 */
export type ErrorCode =
  | 'validation_error'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'state_conflict'
  | 'method_not_allowed'
  | 'precondition_failed'
  | 'quota_exceeded'
  | 'lease_lost'
  | 'events_expired'
  | 'unsupported_media_type'
  | 'rate_limit_exceeded'
  | 'idempotency_key_in_use'
  | 'idempotency_key_reused';

/** One offending field or parameter, as api.yaml's FieldError describes it. */
export type FieldProblem = components['schemas']['FieldError'];

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    /** The request breaks api.yaml's schema (root surface: 422) rather than a rule of the service (400). */
    readonly schemaViolation = false,
    /** Response headers that belong to this failure (`Retry-After`). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const agentNotFound = () => new AppError('not_found', 'Agent not found');
export const taskNotFound = () => new AppError('not_found', 'Task not found');
export const userNotFound = () => new AppError('not_found', 'User not found');
export const leaseNotFound = () => new AppError('not_found', 'Lease not found');
export const connectionNotFound = () => new AppError('not_found', 'No connection to this provider');
export const agentKeyNotFound = () => new AppError('not_found', 'Agent key not found');
export const webhookNotFound = () => new AppError('not_found', 'Webhook not found');
export const webhookDeliveryNotFound = () => new AppError('not_found', 'Webhook delivery not found');
export const scheduleNotFound = () => new AppError('not_found', 'Schedule not found');
export const workspaceNotFound = () => new AppError('not_found', 'Workspace not found');
export const memberNotFound = () => new AppError('not_found', 'Member not found');
export const invitationNotFound = () => new AppError('not_found', 'Invitation not found');

export const stateConflict = (message: string, details?: Record<string, unknown>) =>
  new AppError('state_conflict', message, details);

export const duplicate = (message: string) => new AppError('conflict', message);

/** What ended a lease, as `LEASE_LOST` names it: its status once it is no longer `active`. */
export type LeaseEnd = 'expired' | 'cancelled' | 'completed' | 'released' | 'timed_out';

const LEASE_LOST_MESSAGES: Record<LeaseEnd, string> = {
  expired: 'The lease expired: its task is no longer held by this worker',
  cancelled: 'The task was cancelled: stop working on it',
  completed: 'The lease already ended with its outcome',
  released: 'The lease was released: its task was queued again',
  timed_out: 'The task passed its deadline and failed: stop working on it',
};

/** A worker acts on a lease that is no longer `active` (409 `LEASE_LOST`); nothing was written. */
export const leaseLost = (reason: LeaseEnd) => new AppError('lease_lost', LEASE_LOST_MESSAGES[reason], { reason, lease_status: reason });

/** A reader resumes after an event id whose successors were pruned (410 `EVENTS_EXPIRED`): it would miss some. */
export const eventsExpired = (after: string, prunedThrough: string) =>
  new AppError('events_expired', `Events after ${after} are no longer kept; read again from the oldest kept`, { after, pruned_through: prunedThrough });
/** The first request with this Idempotency-Key is still running: nothing was done, the client asks again later. */
export const idempotencyKeyInUse = (retryAfterSeconds: number) =>
  new AppError('idempotency_key_in_use', `The first request with this Idempotency-Key is still running: send it again in ${retryAfterSeconds} s for its answer`, undefined, false, {
    'Retry-After': String(retryAfterSeconds),
  });

/** The Idempotency-Key was sent before with another method, path or body: nothing was done. */
export const idempotencyKeyReused = (message = 'This Idempotency-Key was sent before with another method, path or body: use a new key for this request') =>
  new AppError('idempotency_key_reused', message);

/** A value the schema allows but the rules do not (raised by domain code: 400). */
export const invalidValue = (message: string, fields: FieldProblem[]) =>
  new AppError('validation_error', message, { fields });

/** The request breaks api.yaml itself: the same answer the validator gives (root 422, /api 400). */
export const schemaViolation = (message: string, fields: FieldProblem[]) =>
  new AppError('validation_error', message, { fields }, true);

/** A path api.yaml does not declare. */
export const routeNotFound = () => new AppError('not_found', 'Not Found');

/** A method api.yaml does not declare for the path; `allow` lists the ones it does. */
export const methodNotAllowed = (method: string, template: string, allow: string) =>
  new AppError('method_not_allowed', `${method.slice(0, 20)} is not allowed on ${template}`, { allow });

/** A cursor that no page of this collection handed out. */
export const invalidCursor = () =>
  invalidValue('cursor is not valid for this collection: use meta.nextCursor of the previous page', [
    { field: 'cursor', in: 'query', message: 'not a cursor of this collection' },
  ]);

/** The per-user or per-agent limits of the configuration (QUOTA_*). */
export type QuotaName = 'agents_per_user' | 'tasks_per_agent' | 'stored_bytes_per_user';

/** A write that would take its owner beyond a quota: `usage` is what is used now, before the write. */
export const quotaExceeded = (quota: QuotaName, message: string, usage: { limit: number; usage: number; requested?: number }) =>
  new AppError('quota_exceeded', message, { quota, ...usage });

export const preconditionFailed = () =>
  new AppError('precondition_failed', 'The resource has changed since the If-Match version: read it again and retry');

export const rateLimited = (retryAfterSeconds: number, what = 'Too many requests') =>
  new AppError('rate_limit_exceeded', `${what}: retry in ${retryAfterSeconds} s`, undefined, false, { 'Retry-After': String(retryAfterSeconds) });

/** A password check refused before it ran (NIST SP 800-63B section 5.2.2): the client or the account failed too often. */
export const tooManySignIns = (retryAfterSeconds: number) => rateLimited(retryAfterSeconds, 'Too many failed sign-ins');

/** Changing the password or e-mail needs proof beyond a token (a stolen one must not become a takeover). */
export const currentPasswordRequired = () =>
  invalidValue('current_password is required to change the password or the e-mail', [
    { field: 'current_password', in: 'body', message: 'required to change the password or the e-mail' },
  ]);
export const currentPasswordWrong = () => forbidden('current_password is not the password of the signed-in user');
export const recentSignInRequired = (withinMinutes: number) =>
  forbidden(`This account has no password: sign in with its provider again, then change the e-mail within ${withinMinutes} minutes`);

export const notAuthenticated = () => new AppError('unauthorized', 'Not authenticated');
/** Why a presented access token was refused, as RFC 6750's `error_description` says it (the body keeps the specification's detail text). */
export type TokenRefusal = 'invalid' | 'expired' | 'malformed';
const TOKEN_REFUSALS: Record<TokenRefusal, string> = {
  invalid: 'The access token is not valid: unknown, revoked, or its session has ended',
  expired: 'The access token expired: get a new one',
  malformed: 'The Authorization header does not hold a bearer token',
};
/** A credential that was presented and refused: 401 with RFC 6750's `error="invalid_token"`, which a client can tell from a missing one. */
export const invalidCredentials = (refusal: TokenRefusal = 'invalid') =>
  new AppError('unauthorized', 'Could not validate credentials', undefined, false, {
    'WWW-Authenticate': `Bearer error="invalid_token", error_description="${TOKEN_REFUSALS[refusal]}"`,
  });
export const wrongPassword = () => new AppError('unauthorized', 'Invalid email or password');
export const invalidApiKey = () => new AppError('forbidden', 'Invalid API key');
export const forbidden = (message: string) => new AppError('forbidden', message);
/** What an API key gets where only a user makes sense (its profile, its connections, user management). */
export const notAUser = () => forbidden('An API key is a service principal, not a user');
/** What an agent key (or a token of one) gets outside the operations api.yaml opens to it (`x-agent-key-scope`). */
export const notForAgentKeys = () => forbidden('An agent key acts as its agent only: this operation is not open to it');
/** A member whose role in the workspace is below the least role the operation names (`x-workspace-role`). */
export const roleTooLow = (needs: string, has: string) => forbidden(`This needs the ${needs} role in the workspace; yours is ${has}`);
/** An operation open to agent keys, called with a key that lacks the scope it needs. */
export const missingScope = (scope: string) => forbidden(`This agent key lacks the scope ${scope}`);
/** Unlinking would leave the account with no way to sign in (no password, no other provider). */
export const lastSignInMethod = () =>
  new AppError('conflict', 'This provider is your only way to sign in: link another provider first');

/** RFC 6749 section 5.2 errors of the token endpoint. */
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type';

export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

/** RFC 6749 section 5.2 `invalid_client` (401): one answer for an unknown, revoked or expired key and a wrong secret. */
export const invalidClient = () => new OAuthError('invalid_client', 'Invalid client credentials: unknown, revoked or expired agent key, or a wrong secret');

/**
 * Why a third-party sign-in (or a provider token refresh) failed. Never rendered as a body: the
 * callback turns it into a redirect to the login page, and it labels logs and metrics.
 */
export type SignInFailureReason =
  | 'access_denied'
  | 'provider_error'
  | 'invalid_state'
  | 'invalid_return_to'
  | 'invalid_grant'
  | 'invalid_client'
  | 'token_error'
  | 'invalid_id_token'
  | 'invalid_response'
  | 'provider_unreachable'
  | 'missing_email'
  | 'email_not_verified'
  | 'invalid_claims'
  | 'account_exists'
  | 'account_conflict'
  | 'already_linked'
  | 'link_session_mismatch'
  | 'not_connected'
  | 'no_refresh_token'
  | 'refresh_in_progress'
  | 'internal_error';

export class SignInError extends Error {
  constructor(
    readonly reason: SignInFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'SignInError';
  }
}
