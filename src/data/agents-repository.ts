import type { Knex } from 'knex';
import type { ListQuery, ListResult } from './list-query';
import type { Agent, WorkspaceRole } from '../model';
import { runListQuery, type ColumnAllowList } from './collection-query';
import { compileQuery, type CompiledQuery, type Executor } from './compiled-query';
import { isId } from './ids';
import type { RowMapper } from './row-mapper';
import { compileWorkspacePages, confineTo, withMemberRole, type Reached, type WorkspaceReach, type WorkspacePages } from './workspace-scope';

export interface AgentsRepository {
  insert(agent: Agent): Promise<Agent>;
  find(id: string, options?: { lock?: boolean }): Promise<Agent | undefined>;
  /**
   * The agent with the member's role in its workspace; with `memberId`, an agent outside the
   * member's workspaces reads as missing. The lock (`lock`) is the agent's row only.
   */
  reach(id: string, options: { lock?: boolean; memberId?: string }): Promise<Reached<Agent> | undefined>;
  list(query: ListQuery, reach: WorkspaceReach): Promise<ListResult<Agent>>;
  update(id: string, changes: Partial<Omit<Agent, 'id' | 'created_at' | 'owner_id'>>): Promise<Agent>;
  /** The bytes the deleted agent's tasks stored, or undefined when there was no such agent. */
  remove(id: string): Promise<number | undefined>;
  /** Whether a workspace holds any agent. */
  anyInWorkspace(workspaceId: string): Promise<boolean>;
  countOwnedBy(ownerId: string): Promise<number>;
  /** Moves the sum of the agent's tasks' stored bytes by `delta`. */
  addStoredBytes(id: string, delta: number): Promise<void>;
  /** Locks the agent, unless another transaction holds it (PostgreSQL: then undefined at once); SQLite's transactions already hold the database. */
  lockUnlessHeld(id: string): Promise<Agent | undefined>;
  /**
   * Locks every agent that goes with a user (PostgreSQL; SQLite's transactions hold the database):
   * those they created and those of their personal workspace, in id order, and answers them.
   */
  lockOfUser(userId: string): Promise<Array<Pick<Agent, 'id' | 'status' | 'workspace_id'>>>;
}

const LISTABLE: ColumnAllowList = { name: 'text', type: 'text', status: 'text', created_at: 'time', updated_at: 'time' };

/** The columns of an Agent, which it is inserted with and read from: the compiler checks the list against Agent. */
const COLUMNS = Object.keys({
  id: true,
  owner_id: true,
  workspace_id: true,
  name: true,
  type: true,
  status: true,
  created_at: true,
  updated_at: true,
  max_concurrency: true,
} satisfies Record<keyof Agent, true>) as Array<keyof Agent>;

type Row = Record<string, unknown>;
type FindQuery = CompiledQuery<'id' | 'memberId', Row | undefined>;

/** The queries of reading one agent, listing them and creating one, compiled once per store. */
export interface AgentsQueries {
  /** By reach (every agent, or a member's with their role), then by lock (the same query where the database cannot lock rows). */
  find: Record<'any' | 'member', Record<'plain' | 'locked', FindQuery>>;
  pages: WorkspacePages;
  insert: CompiledQuery<keyof Agent, unknown>;
}

export function compileAgentsQueries(db: Knex, canLock: boolean): AgentsQueries {
  const find = (member: boolean, lock: boolean): FindQuery =>
    compileQuery(db, (parameters) => {
      const query = db('agents').select(COLUMNS.map((column) => `agents.${column}`));
      // The member's role rides along with the agent: one read decides 404, 403 or go.
      if (member) withMemberRole(query, 'agents.workspace_id', parameters.value('memberId'));
      query.where('agents.id', parameters.value('id')).first();
      if (lock) query.forUpdate('agents');
      return query;
    });
  const findBy = (member: boolean) => {
    const plain = find(member, false);
    return { plain, locked: canLock ? find(member, true) : plain };
  };
  return {
    find: { any: findBy(false), member: findBy(true) },
    pages: compileWorkspacePages(db, 'agents', COLUMNS),
    insert: compileQuery(db, (parameters) => db('agents').insert(Object.fromEntries(COLUMNS.map((column) => [column, parameters.value(column)])))),
  };
}

export function createAgentsRepository(db: Executor, mapper: RowMapper, canLock: boolean, queries: AgentsQueries): AgentsRepository {
  return {
    async insert(agent) {
      await queries.insert.run(db, agent);
      return agent;
    },
    async find(id, options = {}) {
      if (!isId(id)) return undefined;
      const row = await queries.find.any[options.lock ? 'locked' : 'plain'].run(db, { id, memberId: undefined });
      return row ? mapper.toAgent(row) : undefined;
    },
    async reach(id, options) {
      if (!isId(id)) return undefined;
      const member = options.memberId !== undefined;
      const row = await queries.find[member ? 'member' : 'any'][options.lock ? 'locked' : 'plain'].run(db, { id, memberId: options.memberId });
      return row ? { item: mapper.toAgent(row), role: member ? (row.member_role as WorkspaceRole) : null } : undefined;
    },
    async list(query, reach) {
      const result = (await queries.pages.run(db, query, reach)) ?? (await runListQuery(confineTo(db('agents'), db, reach), query, LISTABLE));
      return { ...result, items: result.items.map(mapper.toAgent) };
    },
    async update(id, changes) {
      const [row] = await db('agents').where({ id }).update(changes).returning('*');
      if (!row) throw new Error(`agent ${id} vanished inside its transaction`);
      return mapper.toAgent(row);
    },
    async remove(id) {
      if (!isId(id)) return undefined;
      // Read, then delete: knex's SQLite dialect has no DELETE ... RETURNING. The caller holds the row lock.
      const row = await db('agents').where({ id }).first('stored_bytes');
      if (!row || (await db('agents').where({ id }).delete()) === 0) return undefined;
      return Number(row.stored_bytes);
    },
    async anyInWorkspace(workspaceId) {
      return (await db('agents').select('id').where({ workspace_id: workspaceId }).first()) !== undefined;
    },
    async countOwnedBy(ownerId) {
      const row = await db('agents').where({ owner_id: ownerId }).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },
    async addStoredBytes(id, delta) {
      if (delta !== 0) await db('agents').where({ id }).increment('stored_bytes', delta);
    },
    async lockUnlessHeld(id) {
      if (!isId(id)) return undefined;
      const query = db('agents').select(COLUMNS).where({ id }).first();
      if (canLock) query.forUpdate().skipLocked();
      const row = await query;
      return row ? mapper.toAgent(row) : undefined;
    },
    async lockOfUser(userId) {
      if (!isId(userId)) return [];
      // A personal workspace's id is its user's.
      const query = db('agents').select('id', 'status', 'workspace_id').where({ owner_id: userId }).orWhere({ workspace_id: userId }).orderBy('id');
      const rows = (await (canLock ? query.forUpdate() : query)) as Array<{ id: unknown; status: unknown; workspace_id: unknown }>;
      return rows.map((row) => ({ id: String(row.id), status: row.status as Agent['status'], workspace_id: String(row.workspace_id) }));
    },
  };
}
