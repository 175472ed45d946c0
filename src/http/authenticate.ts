import type { Request, RequestHandler } from 'express';
import { parse as parseCookies } from 'cookie';
import type { SessionService } from '../auth/sessions';
import type { Principal } from '../domain/access';
import { forbidden, invalidApiKey, invalidCredentials, notAuthenticated, notAUser } from '../errors';

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
  isApiKey: (presented: string) => boolean;
  trustedOrigins: readonly string[];
}

const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Schemes a handler checks itself (the metrics token is not a user's credential). */
const CHECKED_BY_HANDLER = new Set(['MetricsToken']);

/**
 * The credential check of one operation, from what api.yaml declares for it (its own `security`,
 * else the document's): none when it is open or only its handler can check its scheme; otherwise
 * one of the schemes it lists is required. It runs before the request is validated, so an
 * anonymous caller learns nothing from validation errors.
 */
export function authenticateFor(requirements: readonly SecurityRequirement[], options: AuthenticateOptions): RequestHandler | undefined {
  const schemes = new Set(requirements.flatMap((requirement) => Object.keys(requirement)));
  if (requirements.length === 0 || requirements.some((requirement) => Object.keys(requirement).length === 0)) return undefined;
  if ([...schemes].every((scheme) => CHECKED_BY_HANDLER.has(scheme))) return undefined;
  const trusted = new Set(options.trustedOrigins);
  return async (req, _res, next) => {
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
  const credential = credentialOf(req, options.cookieName);
  if (credential?.kind === 'bearer') return userFromToken(credential.token, options);
  if (credential?.kind === 'malformed') throw invalidCredentials();
  const apiKey = req.get('x-api-key');
  if (apiKey !== undefined && schemes.has('ApiKeyAuth')) {
    if (!options.isApiKey(apiKey)) throw invalidApiKey();
    return { kind: 'service' };
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

async function userFromToken(token: string, options: AuthenticateOptions): Promise<Principal> {
  const signedIn = await options.sessions.resolve(token);
  if (!signedIn) throw invalidCredentials();
  return { kind: 'user', user: signedIn.user, session: signedIn.session };
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
