import type { Knex } from 'knex';
import type { ListQuery, ListResult } from './list-query';
import type { Agent } from '../model';
import { compileIdPages, runListQuery, type ColumnAllowList, type IdPages } from './collection-query';
import { compileQuery, type CompiledQuery, type Executor } from './compiled-query';
import { isId } from './ids';
import type { RowMapper } from './row-mapper';

export interface AgentsRepository {
  insert(agent: Agent): Promise<Agent>;
  /** `ownerId` confines the look-up to one owner's agents (others read as missing). */
  find(id: string, options?: { lock?: boolean; ownerId?: string }): Promise<Agent | undefined>;
  list(query: ListQuery, ownerId?: string): Promise<ListResult<Agent>>;
  update(id: string, changes: Partial<Omit<Agent, 'id' | 'created_at' | 'owner_id'>>): Promise<Agent>;
  /** The bytes the deleted agent's tasks stored, or undefined when there was no such agent. */
  remove(id: string, ownerId?: string): Promise<number | undefined>;
  countOwnedBy(ownerId: string): Promise<number>;
  /** Moves the sum of the agent's tasks' stored bytes by `delta`. */
  addStoredBytes(id: string, delta: number): Promise<void>;
  /** Locks the agent, unless another transaction holds it (PostgreSQL: then undefined at once); SQLite's transactions already hold the database. */
  lockUnlessHeld(id: string): Promise<Agent | undefined>;
  /** Locks every agent of an owner (PostgreSQL; SQLite's transactions hold the database), in id order, and answers them. */
  lockOwnedBy(ownerId: string): Promise<Array<Pick<Agent, 'id' | 'status'>>>;
}

const LISTABLE: ColumnAllowList = { name: 'text', type: 'text', status: 'text', created_at: 'time', updated_at: 'time' };

/** The columns of an Agent, which it is inserted with and read from: the compiler checks the list against Agent. */
const COLUMNS = Object.keys({ id: true, owner_id: true, name: true, type: true, status: true, created_at: true, updated_at: true, max_concurrency: true } satisfies Record<keyof Agent, true>) as Array<keyof Agent>;

type Row = Record<string, unknown>;
type FindQuery = CompiledQuery<'id' | 'ownerId', Row | undefined>;

/** The queries of reading one agent, listing them and creating one, compiled once per store. */
export interface AgentsQueries {
  /** By owner scope, then by lock (the same query where the database cannot lock rows). */
  find: Record<'any' | 'owned', Record<'plain' | 'locked', FindQuery>>;
  pages: IdPages;
  insert: CompiledQuery<keyof Agent, unknown>;
}

export function compileAgentsQueries(db: Knex, canLock: boolean): AgentsQueries {
  const find = (owned: boolean, lock: boolean): FindQuery =>
    compileQuery(db, (parameters) => {
      const query = db('agents').select(COLUMNS);
      if (owned) query.where({ owner_id: parameters.value('ownerId') });
      query.where({ id: parameters.value('id') }).first();
      if (lock) query.forUpdate();
      return query;
    });
  const findBy = (owned: boolean) => {
    const plain = find(owned, false);
    return { plain, locked: canLock ? find(owned, true) : plain };
  };
  return {
    find: { any: findBy(false), owned: findBy(true) },
    pages: compileIdPages(db, 'agents', COLUMNS, 'owner_id'),
    insert: compileQuery(db, (parameters) => db('agents').insert(Object.fromEntries(COLUMNS.map((column) => [column, parameters.value(column)])))),
  };
}

export function createAgentsRepository(db: Executor, mapper: RowMapper, canLock: boolean, queries: AgentsQueries): AgentsRepository {
  const scoped = (ownerId?: string) => {
    const query = db('agents');
    if (ownerId !== undefined) query.where({ owner_id: ownerId });
    return query;
  };
  return {
    async insert(agent) {
      await queries.insert.run(db, agent);
      return agent;
    },
    async find(id, options = {}) {
      if (!isId(id)) return undefined;
      const query = queries.find[options.ownerId === undefined ? 'any' : 'owned'][options.lock ? 'locked' : 'plain'];
      const row = await query.run(db, { id, ownerId: options.ownerId });
      return row ? mapper.toAgent(row) : undefined;
    },
    async list(query, ownerId) {
      const result = (await queries.pages.run(db, query, ownerId)) ?? (await runListQuery(scoped(ownerId), query, LISTABLE));
      return { ...result, items: result.items.map(mapper.toAgent) };
    },
    async update(id, changes) {
      const [row] = await db('agents').where({ id }).update(changes).returning('*');
      if (!row) throw new Error(`agent ${id} vanished inside its transaction`);
      return mapper.toAgent(row);
    },
    async remove(id, ownerId) {
      if (!isId(id)) return undefined;
      // Read, then delete: knex's SQLite dialect has no DELETE ... RETURNING. The caller holds the row lock.
      const row = await scoped(ownerId).where({ id }).first('stored_bytes');
      if (!row || (await scoped(ownerId).where({ id }).delete()) === 0) return undefined;
      return Number(row.stored_bytes);
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
    async lockOwnedBy(ownerId) {
      if (!isId(ownerId)) return [];
      const query = db('agents').select('id', 'status').where({ owner_id: ownerId }).orderBy('id');
      const rows = (await (canLock ? query.forUpdate() : query)) as Array<{ id: unknown; status: unknown }>;
      return rows.map((row) => ({ id: String(row.id), status: row.status as Agent['status'] }));
    },
  };
}
