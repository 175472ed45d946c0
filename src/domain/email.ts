import { fullFormats } from 'ajv-formats/dist/formats';

const EMAIL = fullFormats.email as RegExp;
/** api.yaml's `Email.maxLength` (RFC 5321's path limit, rounded up as is customary). */
export const MAX_EMAIL_LENGTH = 320;

/**
 * The one e-mail rule: exactly what api.yaml's `format: email` and `maxLength` mean to the request
 * validator and to any client that validates with ajv-formats (its "full" mode). An address the
 * service accepts from elsewhere (configuration, an identity provider) is never one that it would
 * then answer in breach of its own contract.
 */
export function isEmail(text: string): boolean {
  // Length first: the pattern is only ever run on a bounded input, whatever a provider sends.
  if (typeof text !== 'string' || text.length > MAX_EMAIL_LENGTH) return false;
  return EMAIL.test(text);
}
