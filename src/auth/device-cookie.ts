import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { deriveKey } from './oauth/token-cipher';
import { normaliseAccount } from './sign-in-throttle';

/**
 * OWASP's device cookie ("Slow Down Online Guessing Attacks with Device Cookies"): after a
 * successful sign-in, the browser or client is given a signed token naming the account and a
 * nonce. Presented again with a password for that account, it marks the attempt as coming from a
 * device that has signed in before: the throttle counts it against that device alone.
 */
export interface DeviceCookies {
  /** A new device token for `account` (its normalised e-mail), with a new nonce. */
  issue(account: string): Promise<string>;
  /** The nonce of a token this service issued for `account` and that has not expired; undefined for anything else. */
  nonceOf(token: string | undefined, account: string): Promise<string | undefined>;
}

/** A JWS (HS256, with a key of its own derived from TOKEN_ENCRYPTION_KEY): the account, a nonce, an expiry. */
export function createDeviceCookies(masterKey: Buffer, lifetimeSeconds: number, clock: () => number = Date.now): DeviceCookies {
  const key = deriveKey(masterKey, 'device-cookie');
  return {
    async issue(account) {
      const issuedAt = Math.floor(clock() / 1000);
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'device+jwt' })
        .setSubject(normaliseAccount(account))
        .setJti(randomBytes(16).toString('base64url'))
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + lifetimeSeconds)
        .sign(key);
    },
    async nonceOf(token, account) {
      if (!token) return undefined;
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          typ: 'device+jwt',
          subject: normaliseAccount(account),
          requiredClaims: ['jti', 'exp'],
          currentDate: new Date(clock()),
        });
        return payload.jti;
      } catch {
        return undefined;
      }
    },
  };
}
