import { isDeepStrictEqual } from 'node:util';
import type { EventRecord, NewEvent } from '../data/records';
import type { Store } from '../data/store';
import { isId, now } from '../data/ids';
import { agentNotFound, eventsExpired } from '../errors';
import type { Agent, EventType, FleetEvent, Task } from '../model';
import { assertReaches, memberScope, type Principal } from './access';

type Fields = Record<string, unknown>;

/**
 * The fields that differ between two versions of a resource, with their new values, and
 * `previous_status` when the status changed: what an `*.updated` event (and its kin) carries.
 */
export function changesOf<T extends object>(before: T, after: T): Fields {
  const changes: Fields = {};
  for (const [field, value] of Object.entries(after)) {
    const old = (before as Fields)[field];
    if (value !== old && !isDeepStrictEqual(value, old)) changes[field] = value;
  }
  const previous = (before as Fields).status;
  if ('status' in changes) changes.previous_status = previous;
  return changes;
}

/** Whether a change touched more than its version stamp. */
const changesAnything = (changes: Fields): boolean => Object.keys(changes).some((field) => field !== 'updated_at');

/** What an event names of its agent: the agent, who created it, and its workspace, whose members may read the event. */
export type EventAgent = Pick<Agent, 'id' | 'owner_id' | 'workspace_id'>;

/** Records an event of the agent in the caller's transaction; its workspace now decides who may read it. */
export function recordAgentEvent(tx: Store, type: Extract<EventType, `agent.${string}`>, agent: EventAgent, data: Fields): void {
  tx.events.record({ type, occurred_at: now(), agent_id: agent.id, owner_id: agent.owner_id, workspace_id: agent.workspace_id, task_id: null, data });
}

/** Records an event of one of the agent's tasks in the caller's transaction; answers it. */
export function recordTaskEvent(tx: Store, type: Extract<EventType, `task.${string}`>, agent: EventAgent, taskId: string, data: Fields): NewEvent {
  const event: NewEvent = { type, occurred_at: now(), agent_id: agent.id, owner_id: agent.owner_id, workspace_id: agent.workspace_id, task_id: taskId, data };
  tx.events.record(event);
  return event;
}

/**
 * The task before and after the change a recorded event describes, kept beside the event in this
 * process's memory only (never written): what observers of committed events (the metrics) need
 * beyond the changed fields, such as when the task was created or its attempt started.
 */
const taskVersions = new WeakMap<NewEvent, { before: Task; after: Task }>();

/** The task's versions either side of `event`'s change, when recordTaskChange recorded it in this process. */
export function taskVersionsOf(event: NewEvent): { before: Task; after: Task } | undefined {
  return taskVersions.get(event);
}

/** `agent.updated` with what changed, unless nothing but its version stamp did. */
export function recordAgentChange(tx: Store, before: Agent, after: Agent): void {
  const changes = changesOf(before, after);
  if (changesAnything(changes)) recordAgentEvent(tx, 'agent.updated', after, changes);
}

/** The event of a task's change: its outcome when it reached one, else `fallback`; `context` says more than the fields (why a task was queued again). */
export function recordTaskChange(
  tx: Store,
  agent: EventAgent,
  before: Task,
  after: Task,
  fallback: Extract<EventType, `task.${string}`> = 'task.updated',
  context: Fields = {},
): void {
  const changes = changesOf(before, after);
  if (!changesAnything(changes)) return;
  const type = after.status === before.status ? fallback : (OUTCOME_EVENTS[after.status] ?? fallback);
  // The title, changed or not, names the task to whoever reads the event (a feed, a webhook's
  // receiver); `previous_title`, as `previous_status`, says that it changed.
  const named = { title: after.title, ...('title' in changes ? { previous_title: before.title } : {}) };
  taskVersions.set(recordTaskEvent(tx, type, agent, after.id, { ...changes, ...context, ...named }), { before, after });
}

const OUTCOME_EVENTS: Partial<Record<Task['status'], Extract<EventType, `task.${string}`>>> = {
  succeeded: 'task.succeeded',
  failed: 'task.failed',
  cancelled: 'task.cancelled',
};

/**
 * Whose events a reader sees: one agent's, the events of a member's workspaces (`memberId` for a
 * read of the log, `workspaceIds` as they were when the scope was made, for a live stream), or
 * (none of them) every agent's.
 */
export interface EventScope {
  agentId?: string;
  memberId?: string;
  workspaceIds?: ReadonlySet<string>;
  types?: readonly EventType[];
}

/**
 * The reader's scope: an agent key its agent's events; a user those of the workspaces they are a
 * member of (the workspace each event's agent was in when it happened); admins and service keys
 * every agent's. Naming an agent the reader cannot see is 404, as reading it would be; an agent
 * that is gone is still named by its events.
 */
export async function eventScopeOf(store: Store, principal: Principal, agentId: string | undefined, types: readonly EventType[] | undefined): Promise<EventScope> {
  if (principal.kind === 'agent') {
    assertReaches(principal, agentId ?? principal.agentId);
    return { agentId: principal.agentId, types };
  }
  const memberId = memberScope(principal);
  if (agentId !== undefined && !(await store.agents.reach(agentId, { memberId }))) {
    if (!isId(agentId) || (await store.events.list({ after: '0', agentId, memberId, limit: 1 })).length === 0) throw agentNotFound();
  }
  if (memberId === undefined) return { agentId, types };
  return { agentId, memberId, workspaceIds: new Set(await store.workspaces.idsOfMember(memberId)), types };
}

/** Whether the reader of `scope` sees the event (a stream filters live events with it). */
export function inScope(scope: EventScope, event: EventRecord): boolean {
  return (
    (scope.agentId === undefined || event.agent_id === scope.agentId) &&
    (scope.workspaceIds === undefined || (event.workspace_id !== null && scope.workspaceIds.has(event.workspace_id))) &&
    (scope.types === undefined || scope.types.includes(event.type))
  );
}

/** The event as readers get it: who owned its agent and its workspace stay in the database. */
export function presentEvent({ owner_id: _owner, workspace_id: _workspace, ...event }: EventRecord): FleetEvent {
  return event;
}

/** A page of the reader's events after `after` (from the oldest kept when absent), oldest first. */
export async function listEvents(store: Store, scope: EventScope, after: string | undefined, limit: number): Promise<{ items: FleetEvent[]; hasMore: boolean }> {
  const rows = await store.events.list({ ...scope, after: after ?? '0', limit: limit + 1 });
  await assertResumable(store, after);
  return { items: rows.slice(0, limit).map(presentEvent), hasMore: rows.length > limit };
}

/**
 * Refuses to resume after an id whose successors may have been pruned (410): the reader would
 * miss events without knowing. Checked after the read it guards, so a prune in between is seen.
 */
export async function assertResumable(store: Store, after: string | undefined): Promise<void> {
  if (after === undefined) return;
  const prunedThrough = await store.events.prunedThrough();
  if (BigInt(after) < BigInt(prunedThrough)) throw eventsExpired(after, prunedThrough);
}

/** The most events one statement prunes: writers and readers never wait long behind it. */
const PRUNE_BATCH = 1000;

/** Deletes the events older than the retention, a batch at a time; answers how many. */
export async function pruneEvents(store: Store, retentionHours: number, at: number = Date.now()): Promise<number> {
  const before = new Date(at - retentionHours * 3_600_000).toISOString();
  let pruned = 0;
  for (;;) {
    const batch = await store.events.pruneBatch(before, PRUNE_BATCH);
    pruned += batch;
    if (batch < PRUNE_BATCH) return pruned;
  }
}
