import type { Store } from '../data/store';
import { newId, now } from '../data/ids';
import { agentNotFound } from '../errors';
import { ownerOf, ownerScope, type Principal } from './access';
import { resolveOperatorStatus } from './agent-status';
import type { Agent, AgentCreate, AgentStatus, AgentUpdate, Page } from './model';

export function listAgents(store: Store, principal: Principal, query: Page & { status?: AgentStatus }): Promise<Agent[]> {
  return store.agents.list({ ...query, ownerId: ownerScope(principal) });
}

export function createAgent(store: Store, principal: Principal, input: AgentCreate): Promise<Agent> {
  const timestamp = now();
  return store.agents.insert({
    id: newId(),
    owner_id: ownerOf(principal),
    name: input.name,
    type: input.type,
    status: 'idle',
    created_at: timestamp,
    updated_at: timestamp,
  });
}

/** Another user's agent reads as missing (404), never as forbidden: its existence is not disclosed. */
export async function getAgent(store: Store, principal: Principal, id: string): Promise<Agent> {
  return (await store.agents.find(id, { ownerId: ownerScope(principal) })) ?? Promise.reject(agentNotFound());
}

/** PUT replaces what a client owns (`name`, `type`); the status belongs to the state machine. */
export function replaceAgent(store: Store, principal: Principal, id: string, input: AgentCreate): Promise<Agent> {
  return updateAgent(store, principal, id, { name: input.name, type: input.type });
}

export function updateAgent(store: Store, principal: Principal, id: string, changes: AgentUpdate): Promise<Agent> {
  return store.transaction(async (tx) => {
    const agent = await tx.agents.find(id, { lock: true, ownerId: ownerScope(principal) });
    if (!agent) throw agentNotFound();
    const update: Partial<Agent> = { updated_at: now() };
    if (changes.name !== undefined) update.name = changes.name;
    if (changes.type !== undefined) update.type = changes.type;
    if (changes.status !== undefined) {
      const running = changes.status === 'idle' ? await tx.tasks.countRunning(id) : 0;
      update.status = resolveOperatorStatus(agent.status, changes.status, running);
    }
    return tx.agents.update(id, update);
  });
}

export async function deleteAgent(store: Store, principal: Principal, id: string): Promise<void> {
  // Tasks go with it: the foreign key cascades.
  if (!(await store.agents.remove(id, ownerScope(principal)))) throw agentNotFound();
}
