import { checkPassword, hashPassword } from './passwords';
import type { UserChanges } from '../data/users-repository';
import { isUniqueViolation } from '../data/database-errors';
import type { Store } from '../data/store';
import { newId, nextTimestamp, now } from '../data/ids';
import { duplicate, forbidden, invalidValue, notAUser, preconditionFailed, userNotFound, wrongPassword } from '../errors';
import { actorOf, type Principal } from './access';
import type { ListQuery, ListResult } from './collection';
import type { PostSummary, User, UserCreate, UserReplace, UserRole, UserUpdate } from '../model';
import { assertAcceptablePassword } from './password-policy';
import { assertPrecondition, type Precondition } from './precondition';
import { recordAgentEvent } from './events';

/** api.yaml's UserName: 1 to 100 characters once trimmed. */
export const MAX_NAME_LENGTH = 100;
/** How many of a user's newest posts `include=posts` embeds (as summaries, without bodies). */
export const EMBEDDED_POSTS = 10;

export async function signUp(store: Store, input: UserCreate, role: UserRole = 'user'): Promise<User> {
  assertAcceptablePassword(input.password, { email: input.email, name: input.name });
  const timestamp = now();
  return withUniqueEmail(async () =>
    store.users.insert({
      id: newId(),
      name: normaliseName(input.name),
      email: normaliseEmail(input.email),
      age: input.age ?? null,
      role,
      password_hash: await hashPassword(input.password),
      created_at: timestamp,
      updated_at: timestamp,
    }),
  );
}

export function findUser(store: Store, id: string): Promise<User | undefined> {
  return store.users.find(id);
}

/** The user with these credentials; one error for every failure so nothing tells which part was wrong. */
export async function authenticateUser(store: Store, email: string, password: string): Promise<User> {
  const record = await store.users.findWithHashByEmail(email.trim());
  const valid = await checkPassword(record?.password_hash, password);
  if (!record || !valid) throw wrongPassword();
  const { password_hash: _hash, ...user } = record;
  return user;
}

/** Listing users is for admins only. */
export function listUsers(store: Store, principal: Principal, query: ListQuery): Promise<ListResult<User>> {
  if (principal.kind !== 'user' || principal.user.role !== 'admin') throw forbidden('Only admins list users');
  return store.users.list(query);
}

/** A user reaches only themself (anyone else reads as missing); admins reach everyone. */
export async function getUser(store: Store, principal: Principal, id: string): Promise<User> {
  assertUserPrincipal(principal);
  if (!mayManage(principal, id)) throw userNotFound();
  return (await store.users.find(id)) ?? Promise.reject(userNotFound());
}

export function embedPosts(store: Store, users: User[]): Promise<Map<string, PostSummary[]>> {
  return store.posts.summariesOf(users.map((user) => user.id), EMBEDDED_POSTS);
}

/**
 * Proof beyond the request's credential that the person is the account's owner (their current
 * password, or a recent provider sign-in); throws when it is missing or wrong.
 */
export type Reauthenticate = (principal: Principal, currentPassword: string | undefined) => Promise<void>;

/** PUT: `name`, `email` and `age` replaced (absent age: null); the password only when given. */
export function replaceUser(
  store: Store,
  principal: Principal,
  id: string,
  input: UserReplace,
  reauthenticate: Reauthenticate,
  precondition?: Precondition<User>,
): Promise<User> {
  return updateUser(store, principal, id, { age: null, ...input }, reauthenticate, precondition);
}

/**
 * A change of the password or the e-mail needs `reauthenticate` to pass, and ends every other
 * session of the user (all of them when an admin changes someone else's).
 */
export async function updateUser(
  store: Store,
  principal: Principal,
  id: string,
  patch: UserUpdate,
  reauthenticate: Reauthenticate,
  precondition?: Precondition<User>,
): Promise<User> {
  assertUserPrincipal(principal);
  if (!mayManage(principal, id)) throw userNotFound();
  const { current_password: currentPassword, ...input } = patch;
  const changesCredentials = (user: User) => input.password !== undefined || (input.email !== undefined && normaliseEmail(input.email) !== user.email);
  const before = await store.users.find(id);
  if (!before) throw userNotFound();
  // A refused new password must not cost the person one of their sign-in attempts.
  if (input.password !== undefined) assertAcceptablePassword(input.password, { email: input.email ?? before.email, name: input.name ?? before.name });
  const confirmed = changesCredentials(before);
  if (confirmed) await reauthenticate(principal, currentPassword);
  return withUniqueEmail(() =>
    store.transaction(async (tx) => {
      const user = await tx.users.find(id, { lock: true });
      if (!user) throw userNotFound();
      assertPrecondition(precondition, user);
      // The e-mail changed between the check above and this lock: the proof was for another change.
      if (!confirmed && changesCredentials(user)) throw preconditionFailed();
      const changes: UserChanges = { updated_at: nextTimestamp(user.updated_at) };
      if (input.name !== undefined) changes.name = normaliseName(input.name);
      if (input.email !== undefined) changes.email = normaliseEmail(input.email);
      if (input.age !== undefined) changes.age = input.age;
      if (input.password !== undefined) changes.password_hash = await hashPassword(input.password);
      if (changes.email !== undefined && changes.email !== user.email && (await tx.users.findByEmail(changes.email))) {
        throw duplicate('A user with this email already exists');
      }
      const updated = await tx.users.update(id, changes);
      if (confirmed) await tx.sessions.endAllOf(id, now(), 'credentials_changed', principal.user.id === id ? principal.session?.id : undefined);
      return updated;
    }),
  );
}

/**
 * Deletes the user with their posts, their personal workspace, the agents they created or that
 * it held and the agents' tasks (foreign keys and a trigger cascade); each agent's end is an
 * `agent.deleted` event.
 */
export function deleteUser(store: Store, principal: Principal, id: string, precondition?: Precondition<User>): Promise<void> {
  assertUserPrincipal(principal);
  if (!mayManage(principal, id)) throw userNotFound();
  return store.transaction(async (tx) => {
    // Task writes lock an agent, then its owner: locking in that order here too avoids a deadlock.
    const agents = await tx.agents.lockOfUser(id);
    const user = await tx.users.find(id, { lock: true });
    if (!user) throw userNotFound();
    assertPrecondition(precondition, user);
    await tx.users.remove(id);
    for (const agent of agents) recordAgentEvent(tx, actorOf(principal), 'agent.deleted', { id: agent.id, owner_id: id, workspace_id: agent.workspace_id }, { id: agent.id, status: agent.status });
  });
}

/**
 * Creates the configured first admin when no user has that e-mail. An existing user is left
 * exactly as it is: configuration never changes an account silently.
 */
export async function ensureAdmin(store: Store, admin: { email: string; password: string }): Promise<'created' | 'exists'> {
  if (await store.users.findByEmail(admin.email)) return 'exists';
  try {
    await signUp(store, { name: 'Administrator', email: admin.email, password: admin.password }, 'admin');
    return 'created';
  } catch (error) {
    if ((error as { code?: string }).code === 'conflict') return 'exists';
    throw error;
  }
}

export function mayManage(principal: Principal, userId: string): boolean {
  return principal.kind === 'user' && (principal.user.role === 'admin' || principal.user.id === userId);
}

function assertUserPrincipal(principal: Principal): asserts principal is Extract<Principal, { kind: 'user' }> {
  if (principal.kind !== 'user') throw notAUser();
}

/** A name (a user's, a workspace's) as stored: trimmed, 1 to 100 characters (400 otherwise). */
export function normaliseName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0 || [...name].length > MAX_NAME_LENGTH) {
    throw invalidValue(`name must be 1 to ${MAX_NAME_LENGTH} characters once trimmed`, [
      { field: 'name', in: 'body', message: `must be 1 to ${MAX_NAME_LENGTH} characters once trimmed` },
    ]);
  }
  return name;
}

export const normaliseEmail = (raw: string): string => raw.trim().toLowerCase();

/** Two writes with one e-mail at once: the unique index decides, and the loser gets 409. */
async function withUniqueEmail<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate('A user with this email already exists');
    throw error;
  }
}
