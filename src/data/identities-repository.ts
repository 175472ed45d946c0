import type { Knex } from 'knex';
import type { RowMapper } from './row-mapper';
import type { Identity } from './records';

export interface IdentitiesRepository {
  insert(identity: Identity): Promise<Identity>;
  findBySubject(provider: string, subject: string): Promise<Identity | undefined>;
  listByUser(userId: string): Promise<Identity[]>;
  updateEmail(id: string, email: string | null, updatedAt: string): Promise<void>;
  remove(userId: string, provider: string): Promise<boolean>;
}

export function createIdentitiesRepository(db: Knex | Knex.Transaction, mapper: RowMapper): IdentitiesRepository {
  return {
    async insert(identity) {
      await db('user_identities').insert(identity);
      return identity;
    },
    async findBySubject(provider, subject) {
      const row = await db('user_identities').where({ provider, subject }).first();
      return row ? mapper.toIdentity(row) : undefined;
    },
    async listByUser(userId) {
      return (await db('user_identities').where({ user_id: userId }).orderBy('created_at', 'asc')).map(mapper.toIdentity);
    },
    async updateEmail(id, email, updatedAt) {
      await db('user_identities').where({ id }).update({ email, updated_at: updatedAt });
    },
    async remove(userId, provider) {
      return (await db('user_identities').where({ user_id: userId, provider }).delete()) > 0;
    },
  };
}
