import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** AES-256-GCM for values at rest; `context` (user, provider, field) is authenticated too, so a ciphertext moved to another row does not open. */
export interface TokenCipher {
  seal(plaintext: string, context: string): string;
  /** Throws when the value was not sealed with this key and context, or was changed. */
  open(sealed: string, context: string): string;
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** One key per purpose, all derived from TOKEN_ENCRYPTION_KEY. */
export function deriveKey(masterKey: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `agent-fleet/${purpose}`, 32));
}

/** `purpose` names what the cipher seals: each purpose has a key of its own. */
export function createTokenCipher(masterKey: Buffer, purpose = 'provider-tokens'): TokenCipher {
  const key = deriveKey(masterKey, purpose);
  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed, context) {
      const [version, payload] = sealed.split('.');
      if (version !== VERSION || !payload) throw new Error('not a sealed token of this service');
      const bytes = Buffer.from(payload, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES)).setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}
