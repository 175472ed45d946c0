import { SignInError } from '../errors';
import { isEmail, MAX_EMAIL_LENGTH } from './email';
import type { VerifiedIdentity } from './identities';
import { MAX_NAME_LENGTH } from './users';

/** The `user_identities.subject` column; OpenID Connect caps `sub` at 255 ASCII characters too. */
export const MAX_SUBJECT_LENGTH = 255;
// C0 and C1 control characters and DEL.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]+/g;

/** The claims of a verified ID token, as openid-client hands them over (values not yet trusted). */
export interface ProviderClaims {
  sub: unknown;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
}

/**
 * The claims the service stores, held to the rules its own contract applies (OWASP API10: the
 * signature says who sent them, not that they are sane). Every length is checked before anything
 * else looks at a value. A subject or e-mail that breaks a rule refuses the sign-in
 * (`invalid_claims`): an identifier is never silently dropped or altered. A display name is the
 * provider's label, not an identifier: it is cut to 100 characters, control characters become
 * spaces, and an empty one is left out (the e-mail's local part stands in).
 */
export function checkProviderClaims(provider: string, claims: ProviderClaims): VerifiedIdentity {
  const identity: VerifiedIdentity = {
    provider,
    subject: checkSubject(claims.sub),
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
  };
  const email = checkEmail(claims.email);
  if (email !== undefined) identity.email = email;
  const name = cleanName(claims.name);
  if (name !== undefined) identity.name = name;
  return identity;
}

function checkSubject(sub: unknown): string {
  if (typeof sub !== 'string' || sub.length === 0 || sub.length > MAX_SUBJECT_LENGTH) {
    throw refused(`the subject must be 1 to ${MAX_SUBJECT_LENGTH} characters`);
  }
  if (CONTROL.test(sub) || !sub.isWellFormed()) throw refused('the subject holds control characters or is not Unicode text');
  return sub;
}

function checkEmail(email: unknown): string | undefined {
  if (email === undefined || email === null) return undefined;
  if (typeof email !== 'string') throw refused('the email claim is not a string');
  if (email.length > MAX_EMAIL_LENGTH) throw refused(`the email claim is longer than ${MAX_EMAIL_LENGTH} characters (${email.length})`);
  const address = email.trim().toLowerCase();
  if (!isEmail(address)) throw refused('the email claim is not an address the API accepts (api.yaml Email)');
  return address;
}

function cleanName(name: unknown): string | undefined {
  if (name === undefined || name === null) return undefined;
  if (typeof name !== 'string') throw refused('the name claim is not a string');
  // Bounded before any other work: a 60 KB name costs no more than a short one.
  const head = name.slice(0, MAX_NAME_LENGTH * 4);
  const text = head.toWellFormed().replace(CONTROLS, ' ').trim();
  const cut = [...text].slice(0, MAX_NAME_LENGTH).join('').trim();
  return cut === '' ? undefined : cut;
}

// The message names the rule, never the value (it may be huge, or someone else's address).
const refused = (rule: string) => new SignInError('invalid_claims', `The provider's ID token breaks a claim rule: ${rule}`);
