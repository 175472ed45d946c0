import { createSecretKey, type KeyObject } from 'node:crypto';
import { errors as joseErrors, importPKCS8, importSPKI, jwtVerify, SignJWT } from 'jose';
import type { AuthConfig } from '../config/config';

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

export interface TokenService {
  issue(claims: TokenClaims): Promise<IssuedToken>;
  /** The token's claims, or undefined for any token that fails any check. */
  verify(token: string): Promise<TokenClaims | undefined>;
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
      const { verify } = await loadKeys();
      try {
        const { payload } = await jwtVerify(token, verify, {
          // An allow-list of exactly one: `none` and algorithm confusion are refused here.
          algorithms: [config.algorithm],
          issuer: config.issuer,
          audience: config.audience,
          requiredClaims: ['sub', 'sid', 'exp', 'iat'],
          currentDate: new Date(clock()),
        });
        const { sub, sid } = payload;
        return typeof sub === 'string' && sub !== '' && typeof sid === 'string' && sid !== '' ? { userId: sub, sessionId: sid } : undefined;
      } catch (error) {
        if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return undefined;
        throw error;
      }
    },
    async ready() {
      await loadKeys();
    },
  };
}
