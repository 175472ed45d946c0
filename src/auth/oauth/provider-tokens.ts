import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import * as client from 'openid-client';
import type { Store } from '../../data/store';
import type { ProviderTokenRecord, SealedTokens } from '../../domain/identities';
import { SignInError } from '../../errors';
import { describeFailure, type FailureDescription } from './failures';
import type { ProviderRegistry } from './providers';
import type { TokenCipher } from './token-cipher';

/** A stored token is refreshed once its expiry is this close (the specification's lead time). */
export const REFRESH_LEAD_MS = 5 * 60 * 1000;
/** How long a refresh may hold its lease before another caller may take over (a crashed instance). */
const LEASE_MS = 30_000;
const POLL_MS = 20;

export interface RefreshFailure extends FailureDescription {
  provider: string;
  userId: string;
}

export interface ProviderTokenVaultOptions {
  store: Store;
  providers: ProviderRegistry;
  cipher: TokenCipher;
  clock?: () => number;
  /** Told about every failed refresh (logs and metrics); the user's session here is untouched. */
  onRefreshFailure?: (failure: RefreshFailure) => void;
}

export interface ProviderTokenVault {
  /**
   * A valid access token of `userId` at `providerId`: the stored one while its expiry is more than
   * five minutes away, otherwise a refreshed one that replaces it. Concurrent callers, in this
   * process or in others sharing the database, cause exactly one refresh and all get its result.
   * Throws SignInError (`not_connected`, `no_refresh_token`, or the refresh failure's reason).
   */
  accessToken(userId: string, providerId: string): Promise<string>;
}

const contextOf = (userId: string, provider: string, field: 'access' | 'refresh') => `${userId}:${provider}:${field}`;

/** Seals a token endpoint response for storage, with `expires_at = now + expires_in`. */
export function sealTokens(
  cipher: TokenCipher,
  userId: string,
  provider: string,
  response: client.TokenEndpointResponse,
  now: number,
  previousRefreshToken: string | null = null,
): SealedTokens {
  return {
    access_token: cipher.seal(response.access_token, contextOf(userId, provider, 'access')),
    refresh_token: response.refresh_token ? cipher.seal(response.refresh_token, contextOf(userId, provider, 'refresh')) : previousRefreshToken,
    token_type: String(response.token_type).toLowerCase(),
    scope: typeof response.scope === 'string' ? response.scope : null,
    expires_at: typeof response.expires_in === 'number' ? new Date(now + response.expires_in * 1000).toISOString() : null,
  };
}

export function createProviderTokenVault(options: ProviderTokenVaultOptions): ProviderTokenVault {
  const { store, providers, cipher, clock = Date.now, onRefreshFailure } = options;
  const inFlight = new Map<string, Promise<string>>();

  const isFresh = (record: ProviderTokenRecord) =>
    record.expires_at === null || Date.parse(record.expires_at) - clock() > REFRESH_LEAD_MS;

  const refresh = async (record: ProviderTokenRecord, owner: string): Promise<string> => {
    const { user_id: userId, provider: providerId } = record;
    try {
      const provider = providers.find(providerId);
      if (!provider) throw new SignInError('not_connected', `Provider "${providerId}" is no longer configured`);
      const refreshToken = cipher.open(record.refresh_token ?? '', contextOf(userId, providerId, 'refresh'));
      const response = await client.refreshTokenGrant(await provider.client(), refreshToken);
      const sealed = sealTokens(cipher, userId, providerId, response, clock(), record.refresh_token);
      await store.providerTokens.completeRefresh(userId, providerId, owner, sealed, new Date(clock()).toISOString());
      return response.access_token;
    } catch (error) {
      const failure = describeFailure(error);
      await store.providerTokens.failRefresh(userId, providerId, owner, failure.message, new Date(clock()).toISOString());
      onRefreshFailure?.({ ...failure, provider: providerId, userId });
      throw new SignInError(failure.reason, `Refreshing the ${providerId} access token failed: ${failure.message}`);
    }
  };

  const obtain = async (userId: string, providerId: string): Promise<string> => {
    let firstSeen: number | undefined;
    for (let waited = 0; waited <= LEASE_MS; waited += POLL_MS) {
      const record = await store.providerTokens.find(userId, providerId);
      if (!record) throw new SignInError('not_connected', `No ${providerId} tokens are stored for this user`);
      const open = () => cipher.open(record.access_token, contextOf(userId, providerId, 'access'));
      firstSeen ??= record.version;
      if (isFresh(record)) return open();
      if (record.version !== firstSeen) {
        // Another caller refreshed meanwhile: take its result, or its failure (one attempt is enough).
        if (record.refresh_error === null) return open();
        throw new SignInError('token_error', `Refreshing the ${providerId} access token failed in another caller: ${record.refresh_error}`);
      }
      if (!record.refresh_token) throw new SignInError('no_refresh_token', `The ${providerId} access token expired and there is no refresh token`);
      const now = clock();
      const leaseLive = record.refresh_lease_owner !== null && Date.parse(record.refresh_lease_until ?? '') >= now;
      if (!leaseLive) {
        const owner = randomUUID();
        const claim = { version: record.version, owner, until: new Date(now + LEASE_MS).toISOString(), now: new Date(now).toISOString() };
        if (await store.providerTokens.claimRefresh(userId, providerId, claim)) return refresh(record, owner);
      }
      await sleep(POLL_MS);
    }
    throw new SignInError('refresh_in_progress', `Gave up waiting for another caller to refresh the ${providerId} access token`);
  };

  return {
    accessToken(userId, providerId) {
      const key = `${userId}\u0000${providerId}`;
      const running = inFlight.get(key);
      if (running) return running;
      const started = obtain(userId, providerId).finally(() => inFlight.delete(key));
      inFlight.set(key, started);
      return started;
    },
  };
}
