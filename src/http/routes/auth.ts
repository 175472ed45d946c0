import { Router, type CookieOptions } from 'express';
import type { TokenService } from '../../auth/tokens';
import type { Store } from '../../data/store';
import { authenticateUser } from '../../domain/users';
import { AppError, OAuthError } from '../../errors';
import { principalOf, SESSION_COOKIE } from '../authenticate';
import { envelope } from '../envelope';
import type { Handler } from '../typed-handler';

export const SESSION_COOKIE_OPTIONS: CookieOptions = { httpOnly: true, secure: true, sameSite: 'lax', path: '/' };
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export function authRoutes(store: Store, tokens: TokenService): Router {
  /** RFC 6749 section 4.3, first-party only (see api.yaml). */
  const issueToken: Handler<'issueToken'> = async (req, res) => {
    const { grant_type: grantType, username, password } = req.body;
    if (grantType !== 'password') throw new OAuthError('unsupported_grant_type', 'Only grant_type=password is supported');
    if (!username || !password) throw new OAuthError('invalid_request', 'username and password are required');
    const user = await authenticateUser(store, username, password).catch((error: unknown) => {
      throw error instanceof AppError && error.code === 'unauthorized'
        ? new OAuthError('invalid_grant', 'Invalid username or password')
        : error;
    });
    res.set(NO_STORE).json(await tokens.issue(user.id));
  };

  const protectedResource: Handler<'getProtected'> = (req, res) => {
    const principal = principalOf(req);
    if (principal.kind !== 'user') throw new AppError('unauthorized', 'Could not validate credentials');
    res.json({ user: principal.user.email });
  };

  const logIn: Handler<'logIn'> = async (req, res) => {
    const user = await authenticateUser(store, req.body.email, req.body.password);
    const token = await tokens.issue(user.id);
    res
      .set(NO_STORE)
      .cookie(SESSION_COOKIE, token.access_token, { ...SESSION_COOKIE_OPTIONS, maxAge: token.expires_in * 1000 })
      .json(envelope(token));
  };

  const logOut: Handler<'logOut'> = (_req, res) => {
    res.clearCookie(SESSION_COOKIE, SESSION_COOKIE_OPTIONS).status(204).end();
  };

  return Router()
    .post('/token', issueToken)
    .get('/protected', protectedResource)
    .post('/api/auth/login', logIn)
    .post('/api/auth/logout', logOut);
}
