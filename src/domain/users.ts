import { checkPassword, hashPassword } from '../auth/passwords';
import { isUniqueViolation } from '../data/users-repository';
import type { Store } from '../data/store';
import { newId, now } from '../data/ids';
import { duplicate, invalidValue, wrongPassword } from '../errors';
import type { User, UserCreate, UserRole } from './model';

const MAX_NAME = 100;

export async function signUp(store: Store, input: UserCreate, role: UserRole = 'user'): Promise<User> {
  const name = input.name.trim();
  if (name.length === 0 || [...name].length > MAX_NAME) {
    throw invalidValue(`name must be 1 to ${MAX_NAME} characters once trimmed`, [
      { field: 'name', in: 'body', message: `must be 1 to ${MAX_NAME} characters once trimmed` },
    ]);
  }
  const email = input.email.trim().toLowerCase();
  if (await store.users.findByEmail(email)) throw duplicate('A user with this email already exists');
  const timestamp = now();
  try {
    return await store.users.insert({
      id: newId(),
      name,
      email,
      age: input.age ?? null,
      role,
      password_hash: await hashPassword(input.password),
      created_at: timestamp,
      updated_at: timestamp,
    });
  } catch (error) {
    // Two sign-ups with one e-mail at once: the unique index decides.
    if (isUniqueViolation(error)) throw duplicate('A user with this email already exists');
    throw error;
  }
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
