import { parse as parseCookies } from 'cookie';
import { type CookieOptions, type Request, type Response } from 'express';
import type { AgentKeySignIn } from '../../auth/agent-key-sign-in';
import type { DeviceCookies } from '../../auth/device-cookie';
import type { PasswordChecks } from '../../auth/password-sign-in';
import type { SessionService } from '../../auth/sessions';
import { AppError, invalidClient, OAuthError } from '../../errors';
import { assertTrustedOrigin, credentialOf, principalOf, userOf } from '../authenticate';
import { envelope } from '../envelope';
import type { OperationHandlers } from '../operations';
import { clientKeyOf } from '../rate-limit';
import type { Handler } from '../typed-handler';

export const SESSION_COOKIE_OPTIONS: CookieOptions = { httpOnly: true, secure: true, sameSite: 'lax', path: '/' };
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export interface AuthRouteDependencies {
  sessions: SessionService;
  passwords: PasswordChecks;
  /** The client_credentials grant of agent keys. */
  agentKeys: Pick<AgentKeySignIn, 'grant'>;
  cookieName: string;
  trustedOrigins: readonly string[];
  /** The device cookie of each password sign-in (src/auth/device-cookie.ts). */
  devices: { cookies: DeviceCookies; cookieName: string; lifetimeSeconds: number };
}

export function authHandlers({ sessions, passwords, agentKeys, cookieName, trustedOrigins, devices }: AuthRouteDependencies): Pick<OperationHandlers, 'issueToken' | 'getProtected' | 'logIn' | 'logOut' | 'logOutEverywhere'> {
  const trusted = new Set(trustedOrigins);

  /** A password sign-in, counted as the device's when the request brings a valid device cookie for the account. */
  const signInWithPassword = async (req: Pick<Request, 'headers' | 'ip' | 'socket'>, email: string, password: string) => {
    const presented = req.headers.cookie ? parseCookies(req.headers.cookie)[devices.cookieName] : undefined;
    return passwords.signIn(email, password, clientKeyOf(req), await devices.cookies.nonceOf(presented, email));
  };
  /**
   * A new device cookie after each password sign-in: out of reach of scripts, sent back only to
   * the operation that set it, only same-site, and over HTTPS only when it came that way.
   */
  const giveDeviceCookie = async (req: Pick<Request, 'secure' | 'path'>, res: Pick<Response, 'cookie'>, email: string) => {
    res.cookie(devices.cookieName, await devices.cookies.issue(email), {
      httpOnly: true,
      secure: req.secure,
      sameSite: 'strict',
      path: req.path,
      maxAge: devices.lifetimeSeconds * 1000,
    });
  };

  /** RFC 6749 sections 4.3, 4.4 and 6, first-party only (see api.yaml). */
  const issueToken: Handler<'issueToken'> = async (req, res) => {
    const { grant_type: grantType, username, password, refresh_token: refreshToken } = req.body;
    res.set(NO_STORE);
    if (grantType === 'refresh_token') {
      if (!refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required');
      res.json(await sessions.refresh(refreshToken));
      return;
    }
    if (grantType === 'client_credentials') {
      const { id, secret } = clientCredentialsOf(req.get('authorization'), req.body);
      res.json(await agentKeys.grant(id, secret, clientKeyOf(req)));
      return;
    }
    // api.yaml's enum leaves only the password grant (any other grant type is 400 unsupported_grant_type before this).
    if (!username || !password) throw new OAuthError('invalid_request', 'username and password are required');
    const user = await signInWithPassword(req, username, password).catch((error: unknown) => {
      throw error instanceof AppError && error.code === 'unauthorized' ? new OAuthError('invalid_grant', 'Invalid username or password') : error;
    });
    const { session: _session, ...tokens } = await sessions.begin(user, 'password', { refreshable: true });
    await giveDeviceCookie(req, res, user.email);
    res.json(tokens);
  };

  const protectedResource: Handler<'getProtected'> = (req, res) => {
    const principal = principalOf(req);
    if (principal.kind !== 'user') throw new AppError('unauthorized', 'Could not validate credentials');
    res.json({ user: principal.user.email });
  };

  const logIn: Handler<'logIn'> = async (req, res) => {
    const user = await signInWithPassword(req, req.body.email, req.body.password);
    const { session: _session, ...token } = await sessions.begin(user, 'password');
    await giveDeviceCookie(req, res, user.email);
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

/**
 * The client's credentials (RFC 6749 section 2.3.1): HTTP Basic, whose id and secret are each
 * form-urlencoded, or `client_id` and `client_secret` in the body; never both at once.
 */
export function clientCredentialsOf(authorization: string | undefined, body: { client_id?: string; client_secret?: string }): { id: string; secret: string } {
  const inBody = body.client_id !== undefined || body.client_secret !== undefined;
  if (authorization !== undefined) {
    if (inBody) throw new OAuthError('invalid_request', 'Send the client credentials once: HTTP Basic or client_id and client_secret, not both');
    const encoded = /^Basic ([A-Za-z0-9+/]+=*)$/i.exec(authorization.trim())?.[1];
    const decoded = encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded?.indexOf(':') ?? -1;
    if (decoded === undefined || colon < 0) throw invalidClient();
    try {
      return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
    } catch {
      throw invalidClient();
    }
  }
  if (!body.client_id || !body.client_secret) throw invalidClient();
  return { id: body.client_id, secret: body.client_secret };
}

const formDecode = (value: string): string => decodeURIComponent(value.replace(/\+/g, ' '));
