import type { components } from '../../generated/api.js';
import { AgentFleetError } from './errors.js';

export type TokenRequest = components['schemas']['TokenRequest'];
export type TokenResponse = components['schemas']['TokenResponse'];
export type OAuthError = components['schemas']['OAuthError'];

/** A token, or a function that returns a current one (`forceRefresh` after the service refused the last). */
export type TokenSource = string | ((context: { forceRefresh: boolean }) => string | Promise<string>);

/**
 * How the client authenticates: a bearer token (or a function that returns a fresh one), an API
 * key, a user's e-mail and password, which the client exchanges at `/token` (password grant) and
 * renews with the refresh token before it expires, or an agent key's id and secret, which it
 * exchanges at `/token` (client_credentials grant) again shortly before each token expires.
 */
export type Auth = { bearer: TokenSource } | { apiKey: string } | { username: string; password: string } | { clientId: string; clientSecret: string };

export type RequestToken = (
  body: TokenRequest,
) => Promise<{ data: TokenResponse; error?: never; response: Response } | { data?: never; error: OAuthError; response: Response }>;

/** Sets a request's credential header; `refused` is the credential the service just answered 401 to. */
export interface Credentials {
  readonly renewable: boolean;
  apply(headers: Headers, refused?: string): Promise<string>;
}

export function credentialsOf(auth: Auth | undefined, requestToken: RequestToken, now: () => number = Date.now): Credentials | undefined {
  if (auth === undefined) return undefined;
  if ('apiKey' in auth) return fixed('X-API-Key', auth.apiKey);
  if ('bearer' in auth) {
    const source = auth.bearer;
    if (typeof source === 'string') return fixed('Authorization', `Bearer ${source}`);
    return renewing(async (refused) => source({ forceRefresh: refused !== undefined }));
  }
  if ('clientId' in auth) return renewing(clientCredentialsSession(auth, requestToken, now));
  return renewing(passwordSession(auth, requestToken, now));
}

function fixed(name: string, value: string): Credentials {
  return {
    renewable: false,
    apply: async (headers) => {
      headers.set(name, value);
      return value;
    },
  };
}

function renewing(token: (refused: string | undefined) => Promise<string>): Credentials {
  return {
    renewable: true,
    apply: async (headers, refused) => {
      const value = `Bearer ${await token(refused?.replace(/^Bearer /, ''))}`;
      headers.set('Authorization', value);
      return value;
    },
  };
}

type Grant = (current: TokenResponse | undefined) => Promise<TokenResponse>;

/**
 * A token kept until a little before it expires (or until the service refuses it), then granted
 * again; concurrent callers share one grant in flight.
 */
function tokenSession(grant: Grant, now: () => number): (refused: string | undefined) => Promise<string> {
  let current: { token: TokenResponse; renewAt: number } | undefined;
  let pending: Promise<string> | undefined;

  const renew = async (): Promise<string> => {
    const token = await grant(current?.token);
    const lifetimeMs = token.expires_in * 1000;
    current = { token, renewAt: now() + lifetimeMs - Math.min(30_000, lifetimeMs / 2) };
    return token.access_token;
  };

  return (refused) => {
    if (current !== undefined && now() < current.renewAt && current.token.access_token !== refused) return Promise.resolve(current.token.access_token);
    pending ??= renew().finally(() => {
      pending = undefined;
    });
    return pending;
  };
}

async function granted(pending: ReturnType<RequestToken>): Promise<TokenResponse> {
  const answer = await pending;
  if (answer.data === undefined) throw new AgentFleetError(answer.response, answer.error);
  return answer.data;
}

/**
 * Tokens of one user's session: a password grant at first use, then refresh-token grants (each
 * answers a new refresh token) a little before each access token expires. A refused refresh (spent,
 * revoked, expired) falls back to the password.
 */
function passwordSession(
  user: { username: string; password: string },
  requestToken: RequestToken,
  now: () => number,
): (refused: string | undefined) => Promise<string> {
  return tokenSession(async (current) => {
    if (current?.refresh_token !== undefined) {
      const refreshed = await requestToken({ grant_type: 'refresh_token', refresh_token: current.refresh_token }).catch(() => undefined);
      if (refreshed?.data !== undefined) return refreshed.data;
    }
    return granted(requestToken({ grant_type: 'password', username: user.username, password: user.password }));
  }, now);
}

/**
 * Tokens of an agent key (RFC 6749 section 4.4): no refresh token, so each renewal is another
 * client_credentials grant. A refused key (revoked, expired, wrong secret) rejects the request
 * with an `AgentFleetError` carrying the 401 `invalid_client`.
 */
function clientCredentialsSession(
  key: { clientId: string; clientSecret: string },
  requestToken: RequestToken,
  now: () => number,
): (refused: string | undefined) => Promise<string> {
  return tokenSession(() => granted(requestToken({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret })), now);
}
