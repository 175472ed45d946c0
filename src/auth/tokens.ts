import { createSecretKey, type KeyObject } from 'node:crypto';
import { decodeProtectedHeader, errors as joseErrors, importPKCS8, importSPKI, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { AuthConfig } from '../config/config';
import { AGENT_KEY_SCOPES } from '../domain/agent-keys';
import type { AgentKeyScope } from '../model';

export interface IssuedToken {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
}

/** What a valid access token names: its user and the session it belongs to. */
export interface TokenClaims {
  userId: string;
  sessionId: string;
}

/** What an agent's token (client_credentials grant) names: the key it was issued for, its agent and the key's scopes. */
export interface AgentTokenClaims {
  keyId: string;
  agentId: string;
  scopes: AgentKeyScope[];
}

/** The JOSE `typ` of agent tokens (RFC 9068's access token type): user tokens are `JWT`, and neither verifies as the other. */
const AGENT_TOKEN_TYPE = 'at+jwt';
const SCOPES: ReadonlySet<string> = new Set(AGENT_KEY_SCOPES);

export interface TokenService {
  issue(claims: TokenClaims): Promise<IssuedToken>;
  /** The token's claims, or undefined for any token that fails any check (an agent's token among them). */
  verify(token: string): Promise<TokenClaims | undefined>;
  /** An agent's token for `lifetimeSeconds` (the caller bounds it by the key's expiry). */
  issueAgent(claims: AgentTokenClaims, lifetimeSeconds: number): Promise<IssuedToken>;
  /** The agent token's claims, or undefined for any token that fails any check (a user's token among them). */
  verifyAgent(token: string): Promise<AgentTokenClaims | undefined>;
  /** Whether the token says it is an agent's (unverified: it only picks which verification applies). */
  isAgentToken(token: string): boolean;
  /** Whether the token was issued here (signature, algorithm, issuer, audience) and has only expired. */
  isExpired(token: string): Promise<boolean>;
  /** Loads the keys now, so that bad key material stops the start, not the first request. */
  ready(): Promise<void>;
}

interface Keys {
  sign: KeyObject | CryptoKey;
  verify: KeyObject | CryptoKey;
}

export function createTokenService(config: AuthConfig['jwt'], clock: () => number = Date.now): TokenService {
  let keys: Promise<Keys> | undefined;
  const loadKeys = (): Promise<Keys> => {
    keys ??= (async () => {
      if (config.algorithm === 'HS256') {
        const secret = createSecretKey(Buffer.from(config.secret, 'utf8'));
        return { sign: secret, verify: secret };
      }
      return {
        sign: await importPKCS8(config.privateKey, config.algorithm),
        verify: await importSPKI(config.publicKey, config.algorithm),
      };
    })();
    return keys;
  };

  return {
    async issue({ userId, sessionId }) {
      const { sign } = await loadKeys();
      const issuedAt = Math.floor(clock() / 1000);
      const token = await new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: config.algorithm, typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(config.issuer)
        .setAudience(config.audience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + config.ttlSeconds)
        .sign(sign);
      return { access_token: token, token_type: 'bearer', expires_in: config.ttlSeconds };
    },
    async verify(token) {
      const verified = await check(token, ['sub', 'sid', 'exp', 'iat']);
      if ('refused' in verified || verified.type === AGENT_TOKEN_TYPE || 'agent_id' in verified.payload) return undefined;
      const { sub, sid } = verified.payload;
      return typeof sub === 'string' && sub !== '' && typeof sid === 'string' && sid !== '' ? { userId: sub, sessionId: sid } : undefined;
    },
    async issueAgent({ keyId, agentId, scopes }, lifetimeSeconds) {
      const { sign } = await loadKeys();
      const issuedAt = Math.floor(clock() / 1000);
      // RFC 9068's claims for a client's own token: `sub` and `client_id` are the key, `scope` its scopes.
      const token = await new SignJWT({ client_id: keyId, agent_id: agentId, scope: scopes.join(' ') })
        .setProtectedHeader({ alg: config.algorithm, typ: AGENT_TOKEN_TYPE })
        .setSubject(keyId)
        .setIssuer(config.issuer)
        .setAudience(config.audience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + lifetimeSeconds)
        .sign(sign);
      return { access_token: token, token_type: 'bearer', expires_in: lifetimeSeconds };
    },
    async verifyAgent(token) {
      const verified = await check(token, ['sub', 'client_id', 'agent_id', 'scope', 'exp', 'iat'], AGENT_TOKEN_TYPE);
      if ('refused' in verified || 'sid' in verified.payload) return undefined;
      const { sub, client_id: clientId, agent_id: agentId, scope } = verified.payload;
      if (typeof sub !== 'string' || sub === '' || clientId !== sub || typeof agentId !== 'string' || agentId === '' || typeof scope !== 'string') return undefined;
      const scopes = scope.split(' ').filter(Boolean);
      if (scopes.length === 0 || !scopes.every((name) => SCOPES.has(name))) return undefined;
      return { keyId: sub, agentId, scopes: scopes as AgentKeyScope[] };
    },
    async isExpired(token) {
      const checked = await check(token, []);
      return 'refused' in checked && checked.refused === 'expired';
    },
    isAgentToken(token) {
      try {
        return decodeProtectedHeader(token).typ === AGENT_TOKEN_TYPE;
      } catch {
        return false;
      }
    },
    async ready() {
      await loadKeys();
    },
  };

  /**
   * The token's payload and `typ` when its signature, algorithm, issuer, audience, times and
   * `requiredClaims` all hold (and its `typ` is `type`, when given); else why not, `expired` when
   * only its time has passed (jose checks the signature before the times).
   */
  async function check(token: string, requiredClaims: string[], type?: string): Promise<{ payload: JWTPayload; type: string | undefined } | { refused: 'expired' | 'invalid' }> {
    const { verify } = await loadKeys();
    try {
      const { payload, protectedHeader } = await jwtVerify(token, verify, {
        // An allow-list of exactly one: `none` and algorithm confusion are refused here.
        algorithms: [config.algorithm],
        issuer: config.issuer,
        audience: config.audience,
        requiredClaims,
        currentDate: new Date(clock()),
        ...(type === undefined ? {} : { typ: type }),
      });
      return { payload, type: protectedHeader.typ };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) return { refused: 'expired' };
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return { refused: 'invalid' };
      throw error;
    }
  }
}
