import type { Executor } from './compiled-query';
import { isId } from './ids';
import type { LeaseRecord } from './records';
import type { RowMapper } from './row-mapper';

export type LeaseChanges = Partial<Pick<LeaseRecord, 'status' | 'ttl_seconds' | 'expires_at' | 'ended_at'>>;

export interface LeasesRepository {
  insert(lease: LeaseRecord): Promise<LeaseRecord>;
  find(agentId: string, id: string, options?: { lock?: boolean }): Promise<LeaseRecord | undefined>;
  /**
   * Compare-and-swap: applies only while the lease is still `active` and, with `unexpiredAt`, has
   * not expired by then. Undefined when it no longer is (another worker, the sweep or an owner
   * changed it first).
   */
  updateActive(id: string, changes: LeaseChanges, unexpiredAt?: string): Promise<LeaseRecord | undefined>;
  /** Active leases past their time, the longest expired first (the sweep). */
  listExpired(at: string, limit: number): Promise<Array<Pick<LeaseRecord, 'id' | 'agent_id'>>>;
  /** One agent's active leases past their time (a claim expires them first). Not locked: the caller locks each one's task, then swaps its status. */
  expiredOf(agentId: string, at: string): Promise<LeaseRecord[]>;
}

const COLUMNS = Object.keys({
  id: true,
  agent_id: true,
  task_id: true,
  status: true,
  ttl_seconds: true,
  expires_at: true,
  created_at: true,
  ended_at: true,
} satisfies Record<keyof LeaseRecord, true>);

export function createLeasesRepository(db: Executor, mapper: RowMapper, postgres: boolean): LeasesRepository {
  return {
    async insert(lease) {
      await db('leases').insert(lease);
      return lease;
    },
    async find(agentId, id, options = {}) {
      if (!isId(id) || !isId(agentId)) return undefined;
      const query = db('leases').select(COLUMNS).where({ id, agent_id: agentId }).first();
      if (options.lock && postgres) query.forUpdate();
      const row = await query;
      return row ? mapper.toLease(row) : undefined;
    },
    async updateActive(id, changes, unexpiredAt) {
      const query = db('leases').where({ id, status: 'active' });
      if (unexpiredAt !== undefined) query.andWhere('expires_at', '>', unexpiredAt);
      const [row] = await query.update(changes).returning(COLUMNS);
      return row ? mapper.toLease(row) : undefined;
    },
    async listExpired(at, limit) {
      const rows = await db('leases').select('id', 'agent_id').where({ status: 'active' }).andWhere('expires_at', '<=', at).orderBy('expires_at').limit(limit);
      return rows.map((row: Record<string, unknown>) => ({ id: String(row.id), agent_id: String(row.agent_id) }));
    },
    async expiredOf(agentId, at) {
      const rows = await db('leases').select(COLUMNS).where({ agent_id: agentId, status: 'active' }).andWhere('expires_at', '<=', at).orderBy('expires_at');
      return rows.map(mapper.toLease);
    },
  };
}
