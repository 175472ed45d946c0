import { fullFormats } from 'ajv-formats/dist/formats';

const EMAIL = fullFormats.email as RegExp;

/**
 * The one e-mail rule: exactly what api.yaml's `format: email` means to the request validator and
 * to any client that validates with ajv-formats (its "full" mode). An address the service accepts
 * from elsewhere (configuration, an identity provider) is never one that it would then answer in
 * breach of its own contract.
 */
export function isEmail(text: string): boolean {
  return text.length <= 320 && EMAIL.test(text);
}
