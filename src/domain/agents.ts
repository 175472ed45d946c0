import type { Store } from '../data/store';
import { newId, nextTimestamp, now } from '../data/ids';
import { isForeignKeyViolation } from '../data/database-errors';
import { agentNotFound, invalidCredentials } from '../errors';
import { actorOf, assertNotAgentKey, assertReaches, assertRole, memberScope, ownerOf, type Principal } from './access';
import { resolveOperatorStatus } from './agent-status';
import type { ListQuery, ListResult } from './collection';
import type { Agent, AgentCreate, AgentUpdate, TaskCounts, TaskSummary } from '../model';
import { recordAgentChange, recordAgentEvent } from './events';
import { assertPrecondition, type Precondition } from './precondition';
import { assertAgentQuota, releaseStoredBytes, type Quotas } from './quotas';
import { TASK_STATUSES } from './task-status';
import { reachWorkspace, workspaceOfCreate } from './workspaces';

/** How many of an agent's newest tasks `include=tasks` embeds (as summaries, without payloads). */
export const EMBEDDED_TASKS = 10;

/** The agents of every workspace the principal is a member of (all of them for admins and service keys), or of one. */
export async function listAgents(store: Store, principal: Principal, query: ListQuery, workspaceId?: string): Promise<ListResult<Agent>> {
  assertNotAgentKey(principal);
  if (workspaceId !== undefined) {
    await reachWorkspace(store, principal, workspaceId);
    return store.agents.list(query, { workspaceId });
  }
  const memberId = memberScope(principal);
  return store.agents.list(query, memberId === undefined ? {} : { memberId });
}

/**
 * Agents created with an API key have no owner and count against no user's quota. The agent goes
 * to `workspaceId` (where the caller needs the operation's role), else to the caller's personal
 * workspace (a service key's: `service`). The insert and its `agent.created` event are one
 * transaction; with a quota, the owner's row is locked first.
 */
export async function createAgent(store: Store, principal: Principal, input: AgentCreate, quotas: Quotas, workspaceId?: string): Promise<Agent> {
  assertNotAgentKey(principal);
  const owner = ownerOf(principal);
  try {
    return await store.transaction(async (tx) => {
      const workspace = await workspaceOfCreate(tx, principal, workspaceId);
      if (owner !== null) await assertAgentQuota(tx, owner, quotas, invalidCredentials);
      const timestamp = now();
      const agent = await tx.agents.insert({
        id: newId(),
        owner_id: owner,
        workspace_id: workspace,
        name: input.name,
        type: input.type,
        status: 'idle',
        created_at: timestamp,
        updated_at: timestamp,
        max_concurrency: input.max_concurrency ?? null,
      });
      recordAgentEvent(tx, actorOf(principal), 'agent.created', agent, { ...agent });
      return agent;
    });
  } catch (error) {
    // The caller's account was deleted while this request ran: its credential no longer names anyone.
    if (isForeignKeyViolation(error)) throw invalidCredentials();
    throw error;
  }
}

/**
 * The agent when the principal reaches it, locked until the transaction ends with `lock`. An agent
 * of a workspace the caller is not a member of reads as missing (404), never as forbidden: its
 * existence is not disclosed; a member below the operation's role is refused (403).
 */
export async function reachAgent(store: Store, principal: Principal, id: string, options: { lock?: boolean } = {}): Promise<Agent> {
  assertReaches(principal, id);
  const reached = await store.agents.reach(id, { lock: options.lock, memberId: memberScope(principal) });
  if (!reached) throw agentNotFound();
  assertRole(principal, reached.role);
  return reached.item;
}

export function getAgent(store: Store, principal: Principal, id: string): Promise<Agent> {
  return reachAgent(store, principal, id);
}

/** Each agent's newest tasks as summaries, for `include=tasks`. */
export function embedTasks(store: Store, agents: Agent[]): Promise<Map<string, TaskSummary[]>> {
  return store.tasks.summariesOf(agents.map((agent) => agent.id), EMBEDDED_TASKS);
}

/** How many tasks each agent has in each status, for `include=task_counts`: every status named, 0 included. */
export async function countTasks(store: Store, agents: Agent[]): Promise<Map<string, TaskCounts>> {
  const counted = await store.tasks.countByStatus(agents.map((agent) => agent.id));
  return new Map(
    agents.map((agent) => {
      const byStatus = counted.get(agent.id) ?? {};
      return [agent.id, Object.fromEntries(TASK_STATUSES.map((status) => [status, byStatus[status] ?? 0])) as TaskCounts];
    }),
  );
}

/** PUT replaces what a client owns (`name`, `type`, `max_concurrency`); the status belongs to the state machine. */
export function replaceAgent(store: Store, principal: Principal, id: string, input: AgentCreate, precondition?: Precondition<Agent>): Promise<Agent> {
  return updateAgent(store, principal, id, { name: input.name, type: input.type, max_concurrency: input.max_concurrency ?? null }, precondition);
}

export async function updateAgent(store: Store, principal: Principal, id: string, changes: AgentUpdate, precondition?: Precondition<Agent>): Promise<Agent> {
  assertNotAgentKey(principal);
  return store.transaction(async (tx) => {
    const agent = await reachAgent(tx, principal, id, { lock: true });
    assertPrecondition(precondition, agent);
    const update: Partial<Agent> = { updated_at: nextTimestamp(agent.updated_at) };
    if (changes.name !== undefined) update.name = changes.name;
    if (changes.type !== undefined) update.type = changes.type;
    if (changes.max_concurrency !== undefined) update.max_concurrency = changes.max_concurrency;
    if (changes.status !== undefined) {
      const running = changes.status === 'idle' ? await tx.tasks.countRunning(id) : 0;
      update.status = resolveOperatorStatus(agent.status, changes.status, running);
    }
    const updated = await tx.agents.update(id, update);
    recordAgentChange(tx, actorOf(principal), agent, updated);
    return updated;
  });
}

export async function deleteAgent(store: Store, principal: Principal, id: string, precondition?: Precondition<Agent>): Promise<void> {
  assertNotAgentKey(principal);
  return store.transaction(async (tx) => {
    const agent = await reachAgent(tx, principal, id, { lock: true });
    assertPrecondition(precondition, agent);
    // Tasks go with it (the foreign key cascades); the agent row carries the sum of their bytes.
    await releaseStoredBytes(tx, agent.owner_id, (await tx.agents.remove(id)) ?? 0);
    recordAgentEvent(tx, actorOf(principal), 'agent.deleted', agent, { id: agent.id, status: agent.status });
  });
}
