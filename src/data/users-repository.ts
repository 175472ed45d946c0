import type { Knex } from 'knex';
import type { ListQuery, ListResult } from './list-query';
import type { User, UserRecord } from '../model';
import { runListQuery, type ColumnAllowList } from './collection-query';
import { isId } from './ids';
import type { RowMapper } from './row-mapper';

export type UserChanges = Partial<Pick<UserRecord, 'name' | 'email' | 'age' | 'password_hash' | 'updated_at'>>;

export interface UsersRepository {
  insert(user: UserRecord): Promise<User>;
  find(id: string, options?: { lock?: boolean }): Promise<User | undefined>;
  /** The one read that includes the password hash: for sign-in only. */
  findWithHashByEmail(email: string): Promise<UserRecord | undefined>;
  findByEmail(email: string): Promise<User | undefined>;
  list(query: ListQuery): Promise<ListResult<User>>;
  update(id: string, changes: UserChanges): Promise<User>;
  remove(id: string): Promise<boolean>;
  /**
   * Moves the user's stored bytes by `delta`, unless that would take them above `limit` (0: no
   * limit); one conditional UPDATE, so concurrent writes are checked one after the other. When
   * refused, `usage` is what the user stores now (undefined: no such user).
   */
  addStoredBytes(id: string, delta: number, limit: number): Promise<{ applied: boolean; usage?: number }>;
}

const LISTABLE: ColumnAllowList = {
  name: 'text',
  email: 'text',
  age: 'integer',
  role: 'text',
  created_at: 'time',
  updated_at: 'time',
};

export function createUsersRepository(db: Knex | Knex.Transaction, mapper: RowMapper, canLock: boolean): UsersRepository {
  return {
    /** With the user's personal workspace (its id is the user's), of which they are the owner. */
    async insert(user) {
      const write = async (trx: Knex | Knex.Transaction) => {
        await trx('users').insert(user);
        await trx('workspaces').insert({ id: user.id, name: user.name, kind: 'personal', personal_of: user.id, created_at: user.created_at, updated_at: user.created_at });
        await trx('workspace_members').insert({ workspace_id: user.id, user_id: user.id, role: 'owner', created_at: user.created_at, updated_at: user.created_at });
      };
      await ('isTransaction' in db && db.isTransaction ? write(db) : (db as Knex).transaction(write));
      return mapper.toUser(user as unknown as Record<string, unknown>);
    },
    async find(id, options = {}) {
      if (!isId(id)) return undefined;
      const query = db('users').where({ id }).first();
      if (options.lock && canLock) query.forUpdate();
      const row = await query;
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
    async list(query) {
      const result = await runListQuery(db('users'), query, LISTABLE);
      return { ...result, items: result.items.map(mapper.toUser) };
    },
    async update(id, changes) {
      const [row] = await db('users').where({ id }).update(changes).returning('*');
      if (!row) throw new Error(`user ${id} vanished inside its transaction`);
      return mapper.toUser(row);
    },
    async remove(id) {
      if (!isId(id)) return false;
      return (await db('users').where({ id }).delete()) > 0;
    },
    async addStoredBytes(id, delta, limit) {
      const query = db('users').where({ id });
      if (limit > 0) query.andWhere('stored_bytes', '<=', limit - delta);
      if ((await query.increment('stored_bytes', delta)) > 0) return { applied: true };
      const row = await db('users').where({ id }).first('stored_bytes');
      return { applied: false, usage: row ? Number(row.stored_bytes) : undefined };
    },
  };
}
