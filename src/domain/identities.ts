import { isUniqueViolation } from '../data/database-errors';
import type { Store } from '../data/store';
import { newId, now } from '../data/ids';
import { SignInError } from '../errors';
import { isEmail } from './email';
import type { components } from '../../generated/api';
import type { User } from './model';

/** A user's account at a third-party provider (stored; never a response body). */
export interface Identity {
  id: string;
  user_id: string;
  provider: string;
  subject: string;
  email: string | null;
  created_at: string;
  updated_at: string;
}

/** A provider's tokens as stored: the token values are AES-256-GCM ciphertexts. */
export interface SealedTokens {
  access_token: string;
  refresh_token: string | null;
  token_type: string;
  scope: string | null;
  expires_at: string | null;
}

export interface ProviderTokenRecord extends SealedTokens {
  user_id: string;
  provider: string;
  version: number;
  refresh_lease_owner: string | null;
  refresh_lease_until: string | null;
  refreshed_at: string | null;
  refresh_failed_at: string | null;
  refresh_error: string | null;
  created_at: string;
  updated_at: string;
}

/** What a verified ID token says about the person signing in. */
export interface VerifiedIdentity {
  provider: string;
  subject: string;
  email?: string;
  emailVerified: boolean;
  name?: string;
}

export type SignInOutcome = 'returning' | 'linked' | 'created';

const MAX_NAME = 100;

/**
 * Finds the user of a provider identity, links it to the local account with the same e-mail when
 * the provider vouches for that address, or creates a user. The user, the identity and the tokens
 * (`saveTokens`) are written in one transaction: a failure leaves nothing half-created.
 */
export async function signInWithIdentity(
  store: Store,
  identity: VerifiedIdentity,
  saveTokens: (store: Store, userId: string) => Promise<void>,
): Promise<{ user: User; outcome: SignInOutcome }> {
  const attempt = () =>
    store.transaction(async (trx) => {
      const result = await resolveUser(trx, identity);
      await saveTokens(trx, result.user.id);
      return result;
    });
  try {
    return await attempt();
  } catch (error) {
    // Two first sign-ins of one person at once: the loser finds the identity the winner created.
    if (isUniqueViolation(error)) return attempt();
    throw error;
  }
}

async function resolveUser(store: Store, identity: VerifiedIdentity): Promise<{ user: User; outcome: SignInOutcome }> {
  const timestamp = now();
  // Only an address the contract's own e-mail rule accepts is ever stored or shown.
  const offered = identity.email?.trim().toLowerCase();
  const email = offered !== undefined && isEmail(offered) ? offered : undefined;
  const known = await store.identities.findBySubject(identity.provider, identity.subject);
  if (known) {
    const user = await store.users.find(known.user_id);
    if (!user) throw new Error(`identity ${known.id} names a missing user`);
    if (email !== undefined && email !== known.email) await store.identities.updateEmail(known.id, email, timestamp);
    return { user, outcome: 'returning' };
  }
  if (!email) {
    throw new SignInError('missing_email', 'The provider gave no usable e-mail address (is the "email" scope granted?)');
  }
  const existing = await store.users.findByEmail(email);
  if (existing && !identity.emailVerified) {
    throw new SignInError('account_conflict', 'A local account has this e-mail, and the provider does not say the address is verified: not linked');
  }
  if (existing && (await store.identities.listByUser(existing.id)).some((linked) => linked.provider === identity.provider)) {
    throw new SignInError('account_conflict', 'The local account with this e-mail is already linked to another account at this provider');
  }
  const user = existing ?? (await store.users.insert({
    id: newId(),
    name: displayName(identity, email),
    email,
    age: null,
    role: 'user',
    password_hash: null,
    created_at: timestamp,
    updated_at: timestamp,
  }));
  await store.identities.insert({
    id: newId(),
    user_id: user.id,
    provider: identity.provider,
    subject: identity.subject,
    email,
    created_at: timestamp,
    updated_at: timestamp,
  });
  return { user, outcome: existing ? 'linked' : 'created' };
}

function displayName(identity: VerifiedIdentity, email: string): string {
  // A provider's name is stored as text: no NUL, no lone surrogate (see refuseUnstorableText).
  const name = identity.name?.replaceAll('\u0000', '').toWellFormed().trim() || email.split('@')[0] || email;
  return [...name].slice(0, MAX_NAME).join('');
}

export type Connection = components['schemas']['OAuthConnection'];

/** The caller's linked providers with the state of their stored tokens, never a token value. */
export async function listConnections(
  store: Store,
  userId: string,
  providers: ReadonlyArray<{ id: string; name: string }>,
  now: number,
  refreshLeadMs: number,
): Promise<Connection[]> {
  const [identities, tokens] = await Promise.all([store.identities.listByUser(userId), store.providerTokens.listByUser(userId)]);
  return identities.map((identity) => {
    const token = tokens.find((candidate) => candidate.provider === identity.provider);
    return {
      provider: identity.provider,
      name: providers.find((provider) => provider.id === identity.provider)?.name ?? identity.provider,
      email: identity.email,
      linked_at: identity.created_at,
      token_status: tokenStatus(token, now, refreshLeadMs),
      expires_at: token?.expires_at ?? null,
      has_refresh_token: token?.refresh_token !== null && token?.refresh_token !== undefined,
      refreshed_at: token?.refreshed_at ?? null,
      refresh_failed_at: token?.refresh_failed_at ?? null,
    };
  });
}

function tokenStatus(token: ProviderTokenRecord | undefined, now: number, refreshLeadMs: number): Connection['token_status'] {
  if (!token) return 'none';
  if (token.expires_at === null) return 'valid';
  const remaining = Date.parse(token.expires_at) - now;
  return remaining <= 0 ? 'expired' : remaining <= refreshLeadMs ? 'expiring' : 'valid';
}
