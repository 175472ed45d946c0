import type { Knex } from 'knex';
import type { Agent, AgentStatus, Page } from '../domain/model';
import { isId } from './ids';
import type { RowMapper } from './row-mapper';

export interface AgentsRepository {
  insert(agent: Agent): Promise<Agent>;
  /** `ownerId` confines the look-up to one owner's agents (others read as missing). */
  find(id: string, options?: { lock?: boolean; ownerId?: string }): Promise<Agent | undefined>;
  list(query: Page & { status?: AgentStatus; ownerId?: string }): Promise<Agent[]>;
  update(id: string, changes: Partial<Omit<Agent, 'id' | 'created_at' | 'owner_id'>>): Promise<Agent>;
  remove(id: string, ownerId?: string): Promise<boolean>;
}

export function createAgentsRepository(db: Knex | Knex.Transaction, mapper: RowMapper, canLock: boolean): AgentsRepository {
  return {
    async insert(agent) {
      await db('agents').insert(agent);
      return agent;
    },
    async find(id, options = {}) {
      if (!isId(id)) return undefined;
      const query = db('agents').where({ id }).first();
      if (options.ownerId !== undefined) query.where({ owner_id: options.ownerId });
      if (options.lock && canLock) query.forUpdate();
      const row = await query;
      return row ? mapper.toAgent(row) : undefined;
    },
    async list({ skip, limit, status, ownerId }) {
      const query = db('agents').orderBy('id', 'asc').offset(skip).limit(limit);
      if (status) query.where({ status });
      if (ownerId !== undefined) query.where({ owner_id: ownerId });
      return (await query).map(mapper.toAgent);
    },
    async update(id, changes) {
      const [row] = await db('agents').where({ id }).update(changes).returning('*');
      if (!row) throw new Error(`agent ${id} vanished inside its transaction`);
      return mapper.toAgent(row);
    },
    async remove(id, ownerId) {
      if (!isId(id)) return false;
      const query = db('agents').where({ id });
      if (ownerId !== undefined) query.where({ owner_id: ownerId });
      return (await query.delete()) > 0;
    },
  };
}
