import type { Request, RequestHandler } from 'express';
import { parse as parseCookies } from 'cookie';
import type { AgentKeySignIn } from '../auth/agent-key-sign-in';
import type { SessionService } from '../auth/sessions';
import { WORKSPACE_ROLES, type Principal } from '../domain/access';
import { AGENT_KEY_SCOPES, isAgentKeySecret } from '../domain/agent-keys';
import { AppError, agentNotFound, forbidden, invalidApiKey, invalidCredentials, missingScope, notAuthenticated, notAUser, notForAgentKeys } from '../errors';
import type { AgentKeyScope, WorkspaceRole } from '../model';

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
  }
}

export type SecurityRequirement = Record<string, string[]>;

export interface AuthenticateOptions {
  sessions: SessionService;
  /** The session cookie's name (config.auth.sessionCookieName). */
  cookieName: string;
  /** Which configured service key was presented (its position), if any. */
  findApiKey: (presented: string) => number | undefined;
  /** Agent keys (`X-API-Key: afk_...`) and their bearer tokens. */
  agentKeys: Pick<AgentKeySignIn, 'fromSecret' | 'fromToken'>;
  /** Whether a bearer token is an agent's (its verification is then the agent keys'). */
  isAgentToken: (token: string) => boolean;
  /** Whether a refused token is one of ours that has only expired (asked only once it was refused). */
  isExpired: (token: string) => Promise<boolean>;
  trustedOrigins: readonly string[];
}

const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Schemes a handler checks itself (the metrics token is not a user's credential). */
const CHECKED_BY_HANDLER = new Set(['MetricsToken']);

/** What api.yaml says of one operation beside its `security`. */
export interface OperationAccess {
  /** `x-agent-key-scope`: the scope an agent key needs; none: agent keys are refused. */
  agentKeyScope?: AgentKeyScope;
  /** Where the agent an agent key must be is named: the path's `agent_id`, or (the event log) the query's. */
  agentIdIn?: 'path' | 'query';
  /** `x-workspace-role`: the least role a member needs in the workspace of the data the operation touches. */
  workspaceRole?: WorkspaceRole;
}

/**
 * The credential check of one operation, from what api.yaml declares for it (its own `security`,
 * else the document's): none when it is open or only its handler can check its scheme; otherwise
 * one of the schemes it lists is required. It runs before the request is validated, so an
 * anonymous caller learns nothing from validation errors. A user's principal carries the
 * operation's least workspace role, which the domain's access checks hold the member's role
 * against as they read the workspace's data (a member below it: 403).
 */
export function authenticateFor(requirements: readonly SecurityRequirement[], options: AuthenticateOptions, access: OperationAccess = {}): RequestHandler | undefined {
  const schemes = schemesOf(requirements);
  if (requirements.length === 0 || requirements.some((requirement) => Object.keys(requirement).length === 0)) return undefined;
  if ([...schemes].every((scheme) => CHECKED_BY_HANDLER.has(scheme))) return undefined;
  const trusted = new Set(options.trustedOrigins);
  const admitAgent = agentGate(access.agentKeyScope);
  const needs = access.workspaceRole;
  // A role no member can hold would lock every member out: api.yaml is wrong, and the start fails.
  if (needs !== undefined && !WORKSPACE_ROLES.includes(needs)) throw new Error(`x-workspace-role names an unknown role: ${String(needs)}`);
  const agentIdIn = access.agentIdIn ?? 'path';
  return async (req, _res, next) => {
    try {
      const identified = await identify(req, schemes, options, trusted);
      const principal = needs !== undefined && identified.kind === 'user' ? { ...identified, needs } : identified;
      // Set before the gate: a valid key refused here (a scope it lacks) is counted against itself.
      req.principal = principal;
      if (principal.kind === 'agent') admitAgent(principal, agentIdIn === 'path' ? (req.params as Record<string, string | undefined>).agent_id : queryAgentOf(req, principal.agentId));
      next();
    } catch (error) {
      next(error);
    }
  };
}

/**
 * What an agent key may do on one operation, from its `x-agent-key-scope` (api.yaml's
 * x-http-rules): with that scope, on its own agent's paths only; nothing where none is declared.
 */
function agentGate(scope: AgentKeyScope | undefined): (principal: Extract<Principal, { kind: 'agent' }>, agentId: string | undefined) => void {
  if (scope === undefined) {
    return () => {
      throw notForAgentKeys();
    };
  }
  // A scope no key can hold would shut agent keys out for good: api.yaml is wrong, and the start fails.
  if (!AGENT_KEY_SCOPES.includes(scope)) throw new Error(`x-agent-key-scope names an unknown scope: ${String(scope)}`);
  return (principal, agentId) => {
    if (!principal.scopes.includes(scope)) throw missingScope(scope);
    if (agentId !== principal.agentId) throw agentNotFound();
  };
}

/**
 * The agent an operation that takes `agent_id` in its query acts on: the one it names, or, when it
 * names none, the key's own (the operation then reads that agent's only). A repeated or bracketed
 * parameter names no agent the key is: 404 before the validator would say 400, as for a path.
 */
function queryAgentOf(req: Request, ownAgentId: string): string | undefined {
  const named: unknown = (req.query as Record<string, unknown>).agent_id;
  if (named === undefined) return ownAgentId;
  return typeof named === 'string' ? named : undefined;
}

/** Authorization alone decides when present; then X-API-Key; then the session cookie. */
async function identify(req: Pick<Request, 'get' | 'headers' | 'method'>, schemes: Set<string>, options: AuthenticateOptions, trusted: Set<string>): Promise<Principal> {
  const credential = credentialOf(req, options.cookieName);
  if (credential?.kind === 'bearer') return options.isAgentToken(credential.token) ? agentFromToken(credential.token, options) : userFromToken(credential.token, options);
  if (credential?.kind === 'malformed') throw invalidCredentials('malformed');
  const apiKey = req.get('x-api-key');
  if (apiKey !== undefined && schemes.has('ApiKeyAuth')) {
    if (isAgentKeySecret(apiKey)) return (await options.agentKeys.fromSecret(apiKey)) ?? Promise.reject(invalidApiKey());
    const keyNumber = options.findApiKey(apiKey);
    if (keyNumber === undefined) throw invalidApiKey();
    return { kind: 'service', keyNumber };
  }
  if (credential?.kind === 'cookie' && schemes.has('SessionCookie')) {
    const principal = await userFromToken(credential.token, options);
    assertTrustedOrigin(req, trusted);
    return principal;
  }
  throw notAuthenticated();
}

export type Credential = { kind: 'bearer' | 'cookie'; token: string } | { kind: 'malformed' };

/** The access token a request carries: its Authorization header when present, else its session cookie. */
export function credentialOf(req: Pick<Request, 'get' | 'headers'>, cookieName: string): Credential | undefined {
  const authorization = req.get('authorization');
  if (authorization !== undefined) {
    const token = BEARER.exec(authorization.trim())?.[1];
    return token ? { kind: 'bearer', token } : { kind: 'malformed' };
  }
  const cookie = req.headers.cookie ? parseCookies(req.headers.cookie)[cookieName] : undefined;
  return cookie === undefined ? undefined : { kind: 'cookie', token: cookie };
}

/** A cookie travels with cross-site requests: a change it authorises must come from a trusted page. */
export function assertTrustedOrigin(req: Pick<Request, 'get' | 'method'>, trusted: ReadonlySet<string>): void {
  if (!SAFE_METHODS.has(req.method) && !trusted.has(req.get('origin') ?? '')) {
    throw forbidden('Cross-site request refused: the Origin is not allowed to use the session cookie');
  }
}

/** An agent's token works while its key does: revoked or expired, it is refused as any bad token is. */
async function agentFromToken(token: string, options: AuthenticateOptions): Promise<Principal> {
  return (await options.agentKeys.fromToken(token)) ?? refuseToken(token, options);
}

async function userFromToken(token: string, options: AuthenticateOptions): Promise<Principal> {
  const signedIn = await options.sessions.resolve(token);
  if (!signedIn) return refuseToken(token, options);
  return { kind: 'user', user: signedIn.user, session: signedIn.session };
}

/** A refused token's 401 says whether it merely expired: a client then gets a new one instead of giving up. */
async function refuseToken(token: string, options: AuthenticateOptions): Promise<never> {
  throw invalidCredentials((await options.isExpired(token)) ? 'expired' : 'invalid');
}

const NO_ORIGIN_CHECK = new Set<string>();

/**
 * Whether the credential a long-lived answer (an event stream) was opened with still works now,
 * checked as `requirements` (its operation's security) checked it then: false once the session has
 * ended, the token has expired or the key is revoked. A failure to find out (the database is away)
 * is not an answer, and rejects. Only for safe requests, whose Origin was never checked.
 */
export function credentialCheckFor(requirements: readonly SecurityRequirement[], options: AuthenticateOptions): (req: Pick<Request, 'get' | 'headers' | 'method'>) => Promise<boolean> {
  const schemes = schemesOf(requirements);
  return async (req) => {
    try {
      await identify(req, schemes, options, NO_ORIGIN_CHECK);
      return true;
    } catch (error) {
      if (error instanceof AppError) return false;
      throw error;
    }
  };
}

function schemesOf(requirements: readonly SecurityRequirement[]): Set<string> {
  return new Set(requirements.flatMap((requirement) => Object.keys(requirement)));
}

/** The principal of an authenticated request (the route's security guarantees there is one). */
export function principalOf(req: { principal?: Principal }): Principal {
  if (!req.principal) throw notAuthenticated();
  return req.principal;
}

/** The signed-in user behind a request, with their session: an API key is a service principal, not a user (403). */
export function userOf(req: { principal?: Principal }): Extract<Principal, { kind: 'user' }> {
  const principal = principalOf(req);
  if (principal.kind !== 'user') throw notAUser();
  return principal;
}
