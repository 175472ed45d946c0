import type { components } from '../../generated/api.js';
import { AgentFleetError } from './errors.js';

export type TokenRequest = components['schemas']['TokenRequest'];
export type TokenResponse = components['schemas']['TokenResponse'];
export type OAuthError = components['schemas']['OAuthError'];

/** A token, or a function that returns a current one (`forceRefresh` after the service refused the last). */
export type TokenSource = string | ((context: { forceRefresh: boolean }) => string | Promise<string>);

/**
 * How the client authenticates: a bearer token (or a function that returns a fresh one), an API
 * key, or a user's e-mail and password, which the client exchanges at `/token` (password grant)
 * and renews with the refresh token before it expires.
 */
export type Auth = { bearer: TokenSource } | { apiKey: string } | { username: string; password: string };

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

/**
 * Tokens of one user's session: a password grant at first use, then refresh-token grants (each
 * answers a new refresh token) a little before each access token expires. A refused refresh (spent,
 * revoked, expired) falls back to the password. Concurrent callers share one grant in flight.
 */
function passwordSession(
  user: { username: string; password: string },
  requestToken: RequestToken,
  now: () => number,
): (refused: string | undefined) => Promise<string> {
  let current: { accessToken: string; refreshToken: string | undefined; renewAt: number } | undefined;
  let pending: Promise<string> | undefined;

  const keep = (token: TokenResponse): string => {
    const lifetimeMs = token.expires_in * 1000;
    current = { accessToken: token.access_token, refreshToken: token.refresh_token, renewAt: now() + lifetimeMs - Math.min(30_000, lifetimeMs / 2) };
    return token.access_token;
  };
  const renew = async (): Promise<string> => {
    if (current?.refreshToken !== undefined) {
      const refreshed = await requestToken({ grant_type: 'refresh_token', refresh_token: current.refreshToken }).catch(() => undefined);
      if (refreshed?.data !== undefined) return keep(refreshed.data);
    }
    const granted = await requestToken({ grant_type: 'password', username: user.username, password: user.password });
    if (granted.data === undefined) throw new AgentFleetError(granted.response, granted.error);
    return keep(granted.data);
  };

  return (refused) => {
    const stillGood = current !== undefined && now() < current.renewAt && current.accessToken !== refused;
    if (current !== undefined && stillGood) return Promise.resolve(current.accessToken);
    pending ??= renew().finally(() => {
      pending = undefined;
    });
    return pending;
  };
}
