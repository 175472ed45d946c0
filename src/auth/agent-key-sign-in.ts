import type { Store } from '../data/store';
import type { Principal } from '../domain/access';
import { isUsable, keyOfSecret, keyOfToken } from '../domain/agent-keys';
import type { AgentKey } from '../model';
import { invalidClient } from '../errors';
import type { SignInThrottle } from './sign-in-throttle';
import type { IssuedToken, TokenService } from './tokens';

export type AgentPrincipal = Extract<Principal, { kind: 'agent' }>;

/** Agent keys as credentials: a secret sent as `X-API-Key`, a bearer token of one, and the client_credentials grant. */
export interface AgentKeySignIn {
  /** The agent a presented secret acts as, or undefined when the key is unknown, revoked or expired. */
  fromSecret(secret: string): Promise<AgentPrincipal | undefined>;
  /** The agent an agent token acts as, or undefined when the token fails any check or its key no longer works. */
  fromToken(token: string): Promise<AgentPrincipal | undefined>;
  /**
   * RFC 6749 section 4.4: a token for the key `clientId` when `clientSecret` is its secret; else
   * `invalid_client`. Every attempt passes through the sign-in throttle, counted against the key id
   * (with `client`, clientKeyOf, as a known client of it), never against the address.
   */
  grant(clientId: string, clientSecret: string, client: string): Promise<IssuedToken>;
}

export interface AgentTokenLifetime {
  /** The longest an agent token lives (seconds): 15 minutes, never beyond ACCESS_TOKEN_TTL. */
  maxSeconds: number;
}

/** Agent tokens live 15 minutes at most (and no longer than user tokens do). */
export const AGENT_TOKEN_MAX_SECONDS = 900;

const principalOf = (key: AgentKey): AgentPrincipal => ({ kind: 'agent', agentId: key.agent_id, keyId: key.id, scopes: key.scopes });

export function createAgentKeySignIn(store: Store, tokens: TokenService, throttle: SignInThrottle, lifetime: AgentTokenLifetime, clock: () => number = Date.now): AgentKeySignIn {
  return {
    async fromSecret(secret) {
      const key = await keyOfSecret(store, secret, clock);
      return key && principalOf(key);
    },

    async fromToken(token) {
      const claims = await tokens.verifyAgent(token);
      if (!claims) return undefined;
      const key = await keyOfToken(store, claims.keyId, clock);
      // The key's scopes and agent now, not as they were when the token was issued.
      return key && key.agent_id === claims.agentId ? principalOf(key) : undefined;
    },

    async grant(clientId, clientSecret, client) {
      // The key id stands where a password grant's e-mail does: its failures back off as an account's,
      // and never spend the client address's budget (a dead worker must not lock out its neighbours).
      const attempt = await throttle.reserveCredential(client, `agent-key:${clientId}`);
      let key: AgentKey | undefined;
      try {
        key = await keyOfSecret(store, clientSecret, clock);
      } catch (error) {
        await attempt.settle('abandoned');
        throw error;
      }
      const now = clock();
      if (!key || key.id !== clientId) {
        await attempt.settle('failed');
        throw invalidClient();
      }
      await attempt.settle('succeeded');
      const untilExpiry = key.expires_at === null ? Infinity : Math.floor((Date.parse(key.expires_at) - now) / 1000);
      const seconds = Math.min(lifetime.maxSeconds, untilExpiry);
      // A key that expires within the second has nothing left to give.
      if (seconds < 1 || !isUsable(key, now)) throw invalidClient();
      return tokens.issueAgent({ keyId: key.id, agentId: key.agent_id, scopes: key.scopes }, seconds);
    },
  };
}
