import type { Knex } from 'knex';
import type { User, UserRecord } from '../domain/model';
import { isId } from './ids';
import type { RowMapper } from './row-mapper';

export interface UsersRepository {
  insert(user: UserRecord): Promise<User>;
  find(id: string): Promise<User | undefined>;
  /** The one read that includes the password hash: for sign-in only. */
  findWithHashByEmail(email: string): Promise<UserRecord | undefined>;
  findByEmail(email: string): Promise<User | undefined>;
}

export function createUsersRepository(db: Knex | Knex.Transaction, mapper: RowMapper): UsersRepository {
  return {
    async insert(user) {
      await db('users').insert(user);
      return mapper.toUser(user as unknown as Record<string, unknown>);
    },
    async find(id) {
      if (!isId(id)) return undefined;
      const row = await db('users').where({ id }).first();
      return row ? mapper.toUser(row) : undefined;
    },
    async findWithHashByEmail(email) {
      const row = await db('users').where({ email: email.toLowerCase() }).first();
      return row ? { ...mapper.toUser(row), password_hash: row.password_hash ?? null } : undefined;
    },
    async findByEmail(email) {
      const row = await db('users').where({ email: email.toLowerCase() }).first();
      return row ? mapper.toUser(row) : undefined;
    },
  };
}

/** Unique-constraint violations, as each driver reports them. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
