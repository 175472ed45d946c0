import { isUniqueViolation } from '../data/database-errors';
import type { Store } from '../data/store';
import { newId, now } from '../data/ids';
import { connectionNotFound, lastSignInMethod, SignInError, userNotFound } from '../errors';
import type { components } from '../../generated/api';
import type { User } from '../model';
import { MAX_NAME_LENGTH } from './users';

import type { Identity, ProviderTokenRecord } from '../data/records';

export type { Identity, ProviderTokenRecord, SealedTokens } from '../data/records';

/** What a verified ID token says about the person signing in, held to the contract's rules (checkProviderClaims). */
export interface VerifiedIdentity {
  provider: string;
  subject: string;
  /** Trimmed, lower-case, and an address api.yaml's Email accepts. */
  email?: string;
  emailVerified: boolean;
  /** 1 to 100 characters, no control characters. */
  name?: string;
}

export type SignInOutcome = 'returning' | 'linked' | 'created';

type SaveTokens = (store: Store, userId: string) => Promise<void>;

/**
 * Finds the user of a provider identity by (provider, subject), or creates a user from an e-mail
 * the provider says is verified. A provider identity is never linked into an existing account by
 * its e-mail: this service verifies no address itself, so the local account may have been signed
 * up by someone else with the victim's address (account pre-hijacking). That sign-in is refused
 * (`account_exists`): the owner signs in with their password and links the provider
 * (linkIdentity). The user, the identity and the tokens (`saveTokens`) are written in one
 * transaction: a failure leaves nothing half-created.
 */
export function signInWithIdentity(store: Store, identity: VerifiedIdentity, saveTokens: SaveTokens): Promise<{ user: User; outcome: SignInOutcome }> {
  return withOneRetry(() =>
    store.transaction(async (trx) => {
      const result = await resolveUser(trx, identity);
      await saveTokens(trx, result.user.id);
      return result;
    }),
  );
}

/**
 * Links a provider identity to the signed-in user `userId`: refused when the identity already
 * belongs to another user (`account_conflict`) or the user already has another account at this
 * provider (`already_linked`). Linking the identity the user already has just stores the new tokens.
 */
export function linkIdentity(store: Store, userId: string, identity: VerifiedIdentity, saveTokens: SaveTokens): Promise<{ user: User; outcome: SignInOutcome }> {
  return withOneRetry(() =>
    store.transaction(async (trx) => {
      const user = await trx.users.find(userId);
      if (!user) throw new SignInError('link_session_mismatch', 'The account the link was started for no longer exists');
      const known = await trx.identities.findBySubject(identity.provider, identity.subject);
      if (known && known.user_id !== userId) {
        throw new SignInError('account_conflict', 'This provider account is already linked to another user');
      }
      if (known) {
        await refreshIdentityEmail(trx, known, identity);
        await saveTokens(trx, userId);
        return { user, outcome: 'returning' as const };
      }
      if ((await trx.identities.listByUser(userId)).some((linked) => linked.provider === identity.provider)) {
        throw new SignInError('already_linked', 'The user is already linked to another account at this provider: unlink it first');
      }
      await insertIdentity(trx, user.id, identity);
      await saveTokens(trx, userId);
      return { user, outcome: 'linked' as const };
    }),
  );
}

/**
 * Removes the user's link to `provider` and its stored tokens. Refused (409) when it is the user's
 * only way to sign in: no password and no other provider. The user's row is locked first, so two
 * unlinks at once cannot both pass that check.
 */
export async function unlinkIdentity(store: Store, userId: string, provider: string): Promise<void> {
  await store.transaction(async (trx) => {
    const user = await trx.users.find(userId, { lock: true });
    if (!user) throw userNotFound();
    const methods = await listSignInMethods(trx, user);
    if (!methods.identities.some((identity) => identity.provider === provider)) throw connectionNotFound();
    if (!methods.canUnlink) throw lastSignInMethod();
    await trx.identities.remove(userId, provider);
    await trx.providerTokens.remove(userId, provider);
  });
}

export interface SignInMethods {
  hasPassword: boolean;
  identities: Identity[];
  /** Whether any one link can go and still leave a way to sign in. */
  canUnlink: boolean;
}

/** How `user` can sign in: a password, and the linked provider accounts. */
export async function listSignInMethods(store: Store, user: User): Promise<SignInMethods> {
  const hasPassword = Boolean((await store.users.findWithHashByEmail(user.email))?.password_hash);
  const identities = await store.identities.listByUser(user.id);
  return { hasPassword, identities, canUnlink: hasPassword || identities.length > 1 };
}

async function withOneRetry<T>(attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    // Two first sign-ins (or links) at once: the loser finds what the winner wrote, and decides again.
    if (isUniqueViolation(error)) return attempt();
    throw error;
  }
}

async function resolveUser(store: Store, identity: VerifiedIdentity): Promise<{ user: User; outcome: SignInOutcome }> {
  const known = await store.identities.findBySubject(identity.provider, identity.subject);
  if (known) {
    const user = await store.users.find(known.user_id);
    if (!user) throw new Error(`identity ${known.id} names a missing user`);
    await refreshIdentityEmail(store, known, identity);
    return { user, outcome: 'returning' };
  }
  const { email } = identity;
  if (!email) {
    throw new SignInError('missing_email', 'The provider gave no e-mail address (is the "email" scope granted?)');
  }
  // An address the provider does not vouch for is not even looked up: it may be someone else's.
  if (!identity.emailVerified) {
    throw new SignInError('email_not_verified', 'The provider does not say the e-mail address is verified: no account is created from it');
  }
  if (await store.users.findByEmail(email)) {
    throw new SignInError('account_exists', 'A local account has this e-mail: its owner must sign in with the password and link the provider (never linked by e-mail)');
  }
  const timestamp = now();
  const user = await store.users.insert({
    id: newId(),
    name: identity.name ?? displayNameOf(email),
    email,
    age: null,
    role: 'user',
    password_hash: null,
    created_at: timestamp,
    updated_at: timestamp,
  });
  await insertIdentity(store, user.id, identity);
  return { user, outcome: 'created' };
}

async function insertIdentity(store: Store, userId: string, identity: VerifiedIdentity): Promise<void> {
  const timestamp = now();
  await store.identities.insert({
    id: newId(),
    user_id: userId,
    provider: identity.provider,
    subject: identity.subject,
    email: identity.email ?? null,
    created_at: timestamp,
    updated_at: timestamp,
  });
}

/** The identity's e-mail is the address the provider last gave (shown in the connections list, never used to find anyone). */
async function refreshIdentityEmail(store: Store, known: Identity, identity: VerifiedIdentity): Promise<void> {
  if (identity.email !== undefined && identity.email !== known.email) await store.identities.updateEmail(known.id, identity.email, now());
}

/** The e-mail's local part (ASCII, by the e-mail rule), cut to the name's 100 characters. */
function displayNameOf(email: string): string {
  return (email.split('@')[0] || email).slice(0, MAX_NAME_LENGTH);
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
