import { createHash, randomBytes } from 'node:crypto';
import { isForeignKeyViolation } from '../data/database-errors';
import { newId } from '../data/ids';
import type { Store } from '../data/store';
import { agentKeyNotFound, agentNotFound } from '../errors';
import type { Agent, AgentKey, AgentKeyCreate, AgentKeyCreated, AgentKeyScope } from '../model';
import { actorOf, assertNotAgentKey, type Principal } from './access';
import { recordAuditEvent } from './events';
import { reachAgent } from './agents';
import type { ListQuery, ListResult } from './collection';

/**
 * Every scope, in api.yaml's order: what a key gets when it names none, and the order keys list
 * theirs in. The compiler checks the list against AgentKeyScope: a scope api.yaml adds or drops
 * fails the build here.
 */
export const AGENT_KEY_SCOPES = Object.keys({ 'tasks:read': true, 'tasks:write': true, 'tasks:work': true } satisfies Record<AgentKeyScope, true>) as readonly AgentKeyScope[];

/** What starts every agent key's secret: it tells an agent key from a configured service key. */
export const AGENT_KEY_MARK = 'afk_';

/** `last_used_at` is written at most this often per key, whatever the request rate. */
export const LAST_USED_RESOLUTION_MS = 60_000;

const DAY_MS = 86_400_000;

export const isAgentKeySecret = (presented: string): boolean => presented.startsWith(AGENT_KEY_MARK);

/** Secrets hold 256 random bits: a plain SHA-256 digest is all the storage they need, and the index finds it. */
export function secretDigest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Whether the key still works at `at` (ms): neither revoked nor expired. */
export function isUsable(key: Pick<AgentKey, 'revoked_at' | 'expires_at'>, at: number): boolean {
  return key.revoked_at === null && (key.expires_at === null || Date.parse(key.expires_at) > at);
}

/** The agent's owner, an admin or a service key manage its keys; an agent key does not (403); another user's agent reads as missing. */
async function assertManages(store: Store, principal: Principal, agentId: string, options: { lock?: boolean } = {}): Promise<Agent> {
  assertNotAgentKey(principal);
  return reachAgent(store, principal, agentId, options);
}

export async function listAgentKeys(store: Store, principal: Principal, agentId: string, query: ListQuery): Promise<ListResult<AgentKey>> {
  await assertManages(store, principal, agentId);
  return store.agentKeys.list(agentId, query);
}

/**
 * A new key and its secret: `afk_` and 8 random characters (the `prefix` every read shows), then
 * 32 random bytes in base64url. The secret is in this answer only: the store keeps its digest.
 */
export async function createAgentKey(store: Store, principal: Principal, agentId: string, input: AgentKeyCreate, clock: () => number = Date.now): Promise<AgentKeyCreated> {
  const prefix = `${AGENT_KEY_MARK}${randomBytes(6).toString('base64url')}`;
  const secret = `${prefix}${randomBytes(32).toString('base64url')}`;
  const createdAt = clock();
  const requested = new Set(input.scopes ?? AGENT_KEY_SCOPES);
  const key: AgentKey = {
    id: newId(),
    agent_id: agentId,
    name: input.name,
    prefix,
    scopes: AGENT_KEY_SCOPES.filter((scope) => requested.has(scope)),
    created_at: new Date(createdAt).toISOString(),
    expires_at: input.expires_in_days === undefined ? null : new Date(createdAt + input.expires_in_days * DAY_MS).toISOString(),
    last_used_at: null,
    revoked_at: null,
  };
  try {
    await store.transaction(async (tx) => {
      const agent = await assertManages(tx, principal, agentId, { lock: true });
      await tx.agentKeys.insert(key, secretDigest(secret));
      const { id, name, scopes, expires_at: expiresAt } = key;
      recordAuditEvent(tx, actorOf(principal), 'agent_key.created', agent.workspace_id, { id, name, prefix, scopes, expires_at: expiresAt }, agentId);
    });
  } catch (error) {
    // The agent was deleted after the look-up above.
    if (isForeignKeyViolation(error)) throw agentNotFound();
    throw error;
  }
  return { ...key, secret };
}

export async function getAgentKey(store: Store, principal: Principal, agentId: string, keyId: string): Promise<AgentKey> {
  await assertManages(store, principal, agentId);
  return (await store.agentKeys.find(agentId, keyId)) ?? Promise.reject(agentKeyNotFound());
}

/** Idempotent: a revoked key stays revoked as of its first revocation. */
export async function revokeAgentKey(store: Store, principal: Principal, agentId: string, keyId: string, clock: () => number = Date.now): Promise<void> {
  await store.transaction(async (tx) => {
    const agent = await assertManages(tx, principal, agentId, { lock: true });
    const key = await tx.agentKeys.find(agentId, keyId);
    if (!key) throw agentKeyNotFound();
    if (await tx.agentKeys.revoke(agentId, keyId, new Date(clock()).toISOString())) {
      recordAuditEvent(tx, actorOf(principal), 'agent_key.revoked', agent.workspace_id, { id: key.id, name: key.name, prefix: key.prefix }, agentId);
    }
  });
}

/**
 * The usable key a presented secret belongs to (undefined: unknown, revoked or expired). Read from
 * the database on every call, so that a revocation holds on every instance from its commit on.
 */
export async function keyOfSecret(store: Store, secret: string, clock: () => number = Date.now): Promise<AgentKey | undefined> {
  return usedNow(store, await store.agentKeys.findByDigest(secretDigest(secret)), clock());
}

/** The usable key a token names, read afresh (a token dies with its key). */
export async function keyOfToken(store: Store, keyId: string, clock: () => number = Date.now): Promise<AgentKey | undefined> {
  return usedNow(store, await store.agentKeys.findById(keyId), clock());
}

/** A usable key, its `last_used_at` brought up to date when it is a minute old or more (one conditional write, not one per request). */
async function usedNow(store: Store, key: AgentKey | undefined, at: number): Promise<AgentKey | undefined> {
  if (!key || !isUsable(key, at)) return undefined;
  const staleBefore = at - LAST_USED_RESOLUTION_MS;
  if (key.last_used_at === null || Date.parse(key.last_used_at) < staleBefore) {
    await store.agentKeys.touch(key.id, new Date(at).toISOString(), new Date(staleBefore).toISOString());
  }
  return key;
}
