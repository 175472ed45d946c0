import { EncryptJWT, jwtDecrypt } from 'jose';
import { deriveKey } from './token-cipher';

/** What the callback must know about the authorization request it answers; never readable by the page. */
export interface PendingSignIn {
  provider: string;
  state: string;
  codeVerifier: string;
  nonce: string;
  returnTo: string;
  /** Set when a signed-in user started the flow to link this provider (never by the sign-in start). */
  linkUserId?: string;
}

export interface FlowCookieSealer {
  seal(pending: PendingSignIn): Promise<string>;
  /** Undefined for anything that is not an unexpired cookie sealed by this service. */
  open(value: string): Promise<PendingSignIn | undefined>;
}

export const FLOW_LIFETIME_SECONDS = 600;

/** An encrypted JWT (JWE, dir + A256GCM) with its own expiry: the check values travel with the browser, sealed. */
export function createFlowCookieSealer(masterKey: Buffer, clock: () => number = Date.now): FlowCookieSealer {
  const key = deriveKey(masterKey, 'oauth-flow-cookie');
  return {
    async seal(pending) {
      const issuedAt = Math.floor(clock() / 1000);
      return new EncryptJWT({ ...pending })
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + FLOW_LIFETIME_SECONDS)
        .encrypt(key);
    },
    async open(value) {
      try {
        const { payload } = await jwtDecrypt(value, key, {
          keyManagementAlgorithms: ['dir'],
          contentEncryptionAlgorithms: ['A256GCM'],
          currentDate: new Date(clock()),
        });
        const { provider, state, codeVerifier, nonce, returnTo, linkUserId } = payload;
        const fields = [provider, state, codeVerifier, nonce, returnTo];
        if (!fields.every((field) => typeof field === 'string')) return undefined;
        const pending = { provider, state, codeVerifier, nonce, returnTo } as PendingSignIn;
        if (linkUserId === undefined) return pending;
        return typeof linkUserId === 'string' ? { ...pending, linkUserId } : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
