import type { Request, RequestHandler } from 'express';
import { parse as parseCookies } from 'cookie';
import type { TokenService } from '../auth/tokens';
import type { Store } from '../data/store';
import type { Principal } from '../domain/access';
import { findUser } from '../domain/users';
import { forbidden, invalidApiKey, invalidCredentials, notAuthenticated } from '../errors';

export const SESSION_COOKIE = 'agent_fleet_session';

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
  }
}

type SecurityRequirement = Record<string, string[]>;

export interface AuthenticateOptions {
  store: Store;
  tokens: TokenService;
  isApiKey: (presented: string) => boolean;
  trustedOrigins: readonly string[];
  /** api.yaml's root `security`, for operations that declare none of their own. */
  defaultSecurity: SecurityRequirement[];
}

const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Enforces what api.yaml declares for the matched operation: an operation with `security: []`
 * is open, every other one needs one of the schemes it lists. Runs after the validator has
 * matched the route and before it validates the request, so an anonymous caller learns nothing
 * from validation errors.
 */
export function authenticate(options: AuthenticateOptions): RequestHandler {
  const trusted = new Set(options.trustedOrigins);
  return async (req, _res, next) => {
    const operation = (req as Request & { openapi?: { schema?: { security?: SecurityRequirement[] } } }).openapi?.schema;
    const requirements = operation?.security ?? options.defaultSecurity;
    if (!operation || requirements.length === 0) return next();
    const schemes = new Set(requirements.flatMap((requirement) => Object.keys(requirement)));
    try {
      req.principal = await identify(req, schemes, options, trusted);
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** DESIGN section 3: Authorization alone decides when present; then X-API-Key; then the session cookie. */
async function identify(req: Request, schemes: Set<string>, options: AuthenticateOptions, trusted: Set<string>): Promise<Principal> {
  const authorization = req.get('authorization');
  if (authorization !== undefined) {
    const token = BEARER.exec(authorization.trim())?.[1];
    if (!token) throw invalidCredentials();
    return userFromToken(token, options);
  }
  const apiKey = req.get('x-api-key');
  if (apiKey !== undefined && schemes.has('ApiKeyAuth')) {
    if (!options.isApiKey(apiKey)) throw invalidApiKey();
    return { kind: 'service' };
  }
  const session = req.headers.cookie ? parseCookies(req.headers.cookie)[SESSION_COOKIE] : undefined;
  if (session !== undefined && schemes.has('SessionCookie')) {
    const principal = await userFromToken(session, options);
    // A cookie travels with cross-site requests: a change it authorises must come from a trusted page.
    if (!SAFE_METHODS.has(req.method) && !trusted.has(req.get('origin') ?? '')) {
      throw forbidden('Cross-site request refused: the Origin is not allowed to use the session cookie');
    }
    return principal;
  }
  throw notAuthenticated();
}

async function userFromToken(token: string, options: AuthenticateOptions): Promise<Principal> {
  const subject = await options.tokens.verify(token);
  const user = subject === undefined ? undefined : await findUser(options.store, subject);
  if (!user) throw invalidCredentials();
  return { kind: 'user', user };
}

/** The principal of an authenticated request (the route's security guarantees there is one). */
export function principalOf(req: { principal?: Principal }): Principal {
  if (!req.principal) throw notAuthenticated();
  return req.principal;
}
