import type { Store } from '../data/store';
import { now } from '../data/ids';
import type { Agent, EventType, Task } from '../model';

type Fields = Record<string, unknown>;

/**
 * The fields that differ between two versions of a resource, with their new values, and
 * `previous_status` when the status changed: what an `*.updated` event (and its kin) carries.
 */
export function changesOf<T extends object>(before: T, after: T): Fields {
  const changes: Fields = {};
  for (const [field, value] of Object.entries(after)) {
    if (JSON.stringify(value) !== JSON.stringify((before as Fields)[field])) changes[field] = value;
  }
  const previous = (before as Fields).status;
  if ('status' in changes) changes.previous_status = previous;
  return changes;
}

/** Whether a change touched more than its version stamp. */
const changesAnything = (changes: Fields): boolean => Object.keys(changes).some((field) => field !== 'updated_at');

/** Records an event of the agent in the caller's transaction; its owner now decides who may read it. */
export function recordAgentEvent(tx: Store, type: Extract<EventType, `agent.${string}`>, agent: Pick<Agent, 'id' | 'owner_id'>, data: Fields): void {
  tx.events.record({ type, occurred_at: now(), agent_id: agent.id, owner_id: agent.owner_id, task_id: null, data });
}

/** Records an event of one of the agent's tasks in the caller's transaction. */
export function recordTaskEvent(tx: Store, type: Extract<EventType, `task.${string}`>, agent: Pick<Agent, 'id' | 'owner_id'>, taskId: string, data: Fields): void {
  tx.events.record({ type, occurred_at: now(), agent_id: agent.id, owner_id: agent.owner_id, task_id: taskId, data });
}

/** `agent.updated` with what changed, unless nothing but its version stamp did. */
export function recordAgentChange(tx: Store, before: Agent, after: Agent): void {
  const changes = changesOf(before, after);
  if (changesAnything(changes)) recordAgentEvent(tx, 'agent.updated', after, changes);
}

/** The event of a task's change: its outcome when it reached one, else `fallback`. */
export function recordTaskChange(tx: Store, agent: Pick<Agent, 'id' | 'owner_id'>, before: Task, after: Task, fallback: Extract<EventType, `task.${string}`> = 'task.updated'): void {
  const changes = changesOf(before, after);
  if (!changesAnything(changes)) return;
  const type = after.status === before.status ? fallback : (OUTCOME_EVENTS[after.status] ?? fallback);
  recordTaskEvent(tx, type, agent, after.id, changes);
}

const OUTCOME_EVENTS: Partial<Record<Task['status'], Extract<EventType, `task.${string}`>>> = {
  succeeded: 'task.succeeded',
  failed: 'task.failed',
  cancelled: 'task.cancelled',
};
