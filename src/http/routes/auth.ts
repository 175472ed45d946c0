import { type CookieOptions, type Request } from 'express';
import type { PasswordChecks } from '../../auth/password-sign-in';
import type { SessionService } from '../../auth/sessions';
import { AppError, OAuthError } from '../../errors';
import { assertTrustedOrigin, credentialOf, principalOf, userOf } from '../authenticate';
import { envelope } from '../envelope';
import type { OperationHandlers } from '../operations';
import type { Handler } from '../typed-handler';

export const SESSION_COOKIE_OPTIONS: CookieOptions = { httpOnly: true, secure: true, sameSite: 'lax', path: '/' };
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export interface AuthRouteDependencies {
  sessions: SessionService;
  passwords: PasswordChecks;
  cookieName: string;
  trustedOrigins: readonly string[];
}

/** The client's address as the throttle keys it (Express applies TRUST_PROXY). */
export const clientOf = (req: Pick<Request, 'ip' | 'socket'>): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';

export function authHandlers({ sessions, passwords, cookieName, trustedOrigins }: AuthRouteDependencies): Pick<OperationHandlers, 'issueToken' | 'getProtected' | 'logIn' | 'logOut' | 'logOutEverywhere'> {
  const trusted = new Set(trustedOrigins);

  /** RFC 6749 sections 4.3 and 6, first-party only (see api.yaml). */
  const issueToken: Handler<'issueToken'> = async (req, res) => {
    const { grant_type: grantType, username, password, refresh_token: refreshToken } = req.body;
    res.set(NO_STORE);
    if (grantType === 'refresh_token') {
      if (!refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required');
      res.json(await sessions.refresh(refreshToken));
      return;
    }
    if (grantType !== 'password') throw new OAuthError('unsupported_grant_type', 'Only grant_type=password and grant_type=refresh_token are supported');
    if (!username || !password) throw new OAuthError('invalid_request', 'username and password are required');
    const user = await passwords.signIn(username, password, clientOf(req)).catch((error: unknown) => {
      throw error instanceof AppError && error.code === 'unauthorized' ? new OAuthError('invalid_grant', 'Invalid username or password') : error;
    });
    const { session: _session, ...tokens } = await sessions.begin(user, 'password', { refreshable: true });
    res.json(tokens);
  };

  const protectedResource: Handler<'getProtected'> = (req, res) => {
    const principal = principalOf(req);
    if (principal.kind !== 'user') throw new AppError('unauthorized', 'Could not validate credentials');
    res.json({ user: principal.user.email });
  };

  const logIn: Handler<'logIn'> = async (req, res) => {
    const user = await passwords.signIn(req.body.email, req.body.password, clientOf(req));
    const { session: _session, ...token } = await sessions.begin(user, 'password');
    res
      .set(NO_STORE)
      .cookie(cookieName, token.access_token, { ...SESSION_COOKIE_OPTIONS, maxAge: token.expires_in * 1000 })
      .json(envelope(token));
  };

  /** Idempotent: a missing or dead credential still clears the cookie. */
  const logOut: Handler<'logOut'> = async (req, res) => {
    const credential = credentialOf(req, cookieName);
    if (credential?.kind === 'cookie') assertTrustedOrigin(req, trusted);
    if (credential !== undefined && credential.kind !== 'malformed') {
      const signedIn = await sessions.resolve(credential.token);
      if (signedIn) await sessions.end(signedIn.session.id, 'logout');
    }
    res.clearCookie(cookieName, SESSION_COOKIE_OPTIONS).status(204).end();
  };

  const logOutEverywhere: Handler<'logOutEverywhere'> = async (req, res) => {
    await sessions.endAll(userOf(req).user.id, 'logout_all');
    res.clearCookie(cookieName, SESSION_COOKIE_OPTIONS).status(204).end();
  };

  return { issueToken, getProtected: protectedResource, logIn, logOut, logOutEverywhere };
}
