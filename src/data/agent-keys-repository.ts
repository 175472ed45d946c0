import type { Knex } from 'knex';
import type { ListQuery, ListResult } from './list-query';
import type { AgentKey } from '../model';
import { compileIdPages, scopedBy, runListQuery, type IdPages } from './collection-query';
import { compileQuery, type CompiledQuery, type Executor } from './compiled-query';
import { isId } from './ids';
import type { RowMapper } from './row-mapper';

export interface AgentKeysRepository {
  /** Stores the key with the SHA-256 digest (hex) of its secret; the secret itself is never stored. */
  insert(key: AgentKey, secretDigest: string): Promise<AgentKey>;
  /** One key of one agent (another agent's key reads as missing). */
  find(agentId: string, keyId: string): Promise<AgentKey | undefined>;
  /** The key a token names, by its id alone. */
  findById(keyId: string): Promise<AgentKey | undefined>;
  /** The key whose secret has this digest: the look-up of every request that presents a secret. */
  findByDigest(secretDigest: string): Promise<AgentKey | undefined>;
  list(agentId: string, query: ListQuery): Promise<ListResult<AgentKey>>;
  /** Sets `revoked_at` unless it is set already (the first revocation's time stays). */
  /** Revokes a key not yet revoked: false when it was (or there is none). */
  revoke(agentId: string, keyId: string, at: string): Promise<boolean>;
  /** Writes `last_used_at = at` only where it is null or before `staleBefore`: of instances racing, one writes. */
  touch(keyId: string, at: string, staleBefore: string): Promise<void>;
}

/** The columns of an AgentKey, which it is read from: the compiler checks the list against AgentKey (never the digest). */
const COLUMNS = Object.keys({
  id: true,
  agent_id: true,
  name: true,
  prefix: true,
  scopes: true,
  created_at: true,
  expires_at: true,
  last_used_at: true,
  revoked_at: true,
} satisfies Record<keyof Omit<AgentKey, 'secret'>, true>);

type Row = Record<string, unknown>;

/** The look-ups of every request that brings an agent key or a token of one, compiled once per store. */
export interface AgentKeysQueries {
  findById: CompiledQuery<'id', Row | undefined>;
  findByDigest: CompiledQuery<'digest', Row | undefined>;
  pages: IdPages;
}

export function compileAgentKeysQueries(db: Knex): AgentKeysQueries {
  return {
    findById: compileQuery(db, (parameters) => db('agent_keys').select(COLUMNS).where({ id: parameters.value('id') }).first()),
    findByDigest: compileQuery(db, (parameters) => db('agent_keys').select(COLUMNS).where({ secret_digest: parameters.value('digest') }).first()),
    pages: compileIdPages(db, 'agent_keys', COLUMNS, scopedBy('agent_id')),
  };
}

export function createAgentKeysRepository(db: Executor, mapper: RowMapper, queries: AgentKeysQueries): AgentKeysRepository {
  return {
    async insert(key, secretDigest) {
      await db('agent_keys').insert({ ...key, scopes: key.scopes.join(' '), secret_digest: secretDigest });
      return key;
    },
    async find(agentId, keyId) {
      if (!isId(agentId) || !isId(keyId)) return undefined;
      const row = await db('agent_keys').select(COLUMNS).where({ id: keyId, agent_id: agentId }).first();
      return row ? mapper.toAgentKey(row) : undefined;
    },
    async findById(keyId) {
      if (!isId(keyId)) return undefined;
      const row = await queries.findById.run(db, { id: keyId });
      return row ? mapper.toAgentKey(row) : undefined;
    },
    async findByDigest(secretDigest) {
      const row = await queries.findByDigest.run(db, { digest: secretDigest });
      return row ? mapper.toAgentKey(row) : undefined;
    },
    async list(agentId, query) {
      const result =
        (await queries.pages.run(db, query, agentId)) ?? (await runListQuery(db('agent_keys').select(COLUMNS).where({ agent_id: agentId }), query, { created_at: 'time' }));
      return { ...result, items: result.items.map(mapper.toAgentKey) };
    },
    async revoke(agentId, keyId, at) {
      if (!isId(agentId) || !isId(keyId)) return false;
      return (await db('agent_keys').where({ id: keyId, agent_id: agentId }).whereNull('revoked_at').update({ revoked_at: at })) > 0;
    },
    async touch(keyId, at, staleBefore) {
      await db('agent_keys')
        .where({ id: keyId })
        .andWhere((stale) => stale.whereNull('last_used_at').orWhere('last_used_at', '<', staleBefore))
        .update({ last_used_at: at });
    },
  };
}
