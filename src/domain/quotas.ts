import type { Store } from '../data/store';
import { quotaExceeded, type AppError } from '../errors';
import type { Post, Task } from '../model';

/** Limits per user and per agent (config QUOTA_*); 0 means no limit. */
export interface Quotas {
  agentsPerUser: number;
  tasksPerAgent: number;
  storedBytesPerUser: number;
  /** The schedules an agent may hold: 1,000 (SCHEDULES_PER_AGENT) when absent; not configurable, a test lowers it. */
  schedulesPerAgent?: number;
}

/** A value's size as JSON, as it is stored and sent; nothing (null) costs nothing. */
export function jsonBytes(value: unknown): number {
  return value === null || value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/** What a task stores that can be large: its texts and JSON, each measured as JSON. */
export function taskBytes(task: Pick<Task, 'title' | 'description' | 'input' | 'result' | 'error' | 'last_error'>): number {
  return jsonBytes(task.title) + jsonBytes(task.description) + jsonBytes(task.input) + jsonBytes(task.result) + jsonBytes(task.error) + jsonBytes(task.last_error);
}

export function postBytes(post: Pick<Post, 'title' | 'body'>): number {
  return jsonBytes(post.title) + jsonBytes(post.body);
}


/**
 * Refuses an agent beyond its owner's quota. The owner's row stays locked until the transaction
 * ends, so two creations at once are counted one after the other.
 */
export async function assertAgentQuota(tx: Store, ownerId: string, quotas: Quotas, ownerMissing: () => AppError): Promise<void> {
  const limit = quotas.agentsPerUser;
  if (limit === 0) return;
  if (!(await tx.users.find(ownerId, { lock: true }))) throw ownerMissing();
  const usage = await tx.agents.countOwnedBy(ownerId);
  if (usage >= limit) throw quotaExceeded('agents_per_user', `Quota exceeded: a user owns at most ${limit} agents`, { limit, usage });
}

/** Refuses a task beyond its agent's quota; the caller holds the agent's row lock. */
export async function assertTaskQuota(tx: Store, agentId: string, quotas: Quotas): Promise<void> {
  const limit = quotas.tasksPerAgent;
  if (limit === 0) return;
  const usage = await tx.tasks.countOf(agentId);
  if (usage >= limit) throw quotaExceeded('tasks_per_agent', `Quota exceeded: an agent holds at most ${limit} tasks`, { limit, usage });
}

/**
 * Adds `delta` bytes to what the owner stores, in the caller's transaction; an increase that would
 * go beyond the quota is refused (and the transaction with it). The check and the addition are one
 * conditional UPDATE, so concurrent writes cannot both slip under the limit. Agents without an
 * owner (created with an API key) count against no user.
 */
export async function chargeStoredBytes(tx: Store, ownerId: string | null, delta: number, quotas: Quotas, ownerMissing: () => AppError): Promise<void> {
  if (ownerId === null || delta === 0) return;
  const limit = delta > 0 ? quotas.storedBytesPerUser : 0;
  const { applied, usage } = await tx.users.addStoredBytes(ownerId, delta, limit);
  if (applied) return;
  if (usage === undefined) throw ownerMissing();
  throw quotaExceeded(
    'stored_bytes_per_user',
    `Quota exceeded: the owner stores ${usage} of ${limit} bytes and this write needs ${delta} more`,
    { limit, usage, requested: delta },
  );
}

/** Records what the service itself writes (a lease's expiry error); never refused. */
export async function recordStoredBytes(tx: Store, ownerId: string | null, delta: number): Promise<void> {
  if (ownerId !== null && delta !== 0) await tx.users.addStoredBytes(ownerId, delta, 0);
}

/** Gives back what deleted items stored; never refused. */
export async function releaseStoredBytes(tx: Store, ownerId: string | null, bytes: number): Promise<void> {
  if (ownerId !== null && bytes !== 0) await tx.users.addStoredBytes(ownerId, -bytes, 0);
}
