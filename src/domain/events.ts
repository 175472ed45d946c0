import { isDeepStrictEqual } from 'node:util';
import type { EventRecord, NewEvent } from '../data/records';
import type { Store } from '../data/store';
import { isId, now } from '../data/ids';
import { agentNotFound, eventsExpired, workspaceNotFound } from '../errors';
import type { Agent, EventActor, EventType, FleetEvent, Task, WorkspaceRole } from '../model';
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

/** Who made a change: null when the service made it itself (a lease that expired, a schedule that fired). */
export type Actor = EventActor | null;

/** Records an event of the agent in the caller's transaction; its workspace now decides who may read it. */
export function recordAgentEvent(tx: Store, actor: Actor, type: Extract<EventType, `agent.${string}`>, agent: EventAgent, data: Fields): void {
  tx.events.record({ type, occurred_at: now(), agent_id: agent.id, owner_id: agent.owner_id, workspace_id: agent.workspace_id, actor, task_id: null, data });
}

/** Records an event of one of the agent's tasks in the caller's transaction; answers it. */
export function recordTaskEvent(tx: Store, actor: Actor, type: Extract<EventType, `task.${string}`>, agent: EventAgent, taskId: string, data: Fields): NewEvent {
  const event: NewEvent = { type, occurred_at: now(), agent_id: agent.id, owner_id: agent.owner_id, workspace_id: agent.workspace_id, actor, task_id: taskId, data };
  tx.events.record(event);
  return event;
}

/** The audit trail's kinds of event: a workspace's own changes, and its agents' keys. */
export type AuditEventType = Exclude<EventType, `agent.${string}` | `task.${string}`>;

/**
 * Records a change of the workspace itself (its name, members, invitations, webhooks) or of an
 * agent's keys (`agentId`) in the caller's transaction. `data` names no secret, token or digest.
 */
export function recordAuditEvent(tx: Store, actor: Actor, type: AuditEventType, workspaceId: string, data: Fields, agentId: string | null = null): void {
  tx.events.record({ type, occurred_at: now(), agent_id: agentId, owner_id: null, workspace_id: workspaceId, actor, task_id: null, data });
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
export function recordAgentChange(tx: Store, actor: Actor, before: Agent, after: Agent): void {
  const changes = changesOf(before, after);
  if (changesAnything(changes)) recordAgentEvent(tx, actor, 'agent.updated', after, changes);
}

/** The event of a task's change: its outcome when it reached one, else `fallback`; `context` says more than the fields (why a task was queued again). */
export function recordTaskChange(
  tx: Store,
  actor: Actor,
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
  taskVersions.set(recordTaskEvent(tx, actor, type, agent, after.id, { ...changes, ...context, ...named }), { before, after });
}

const OUTCOME_EVENTS: Partial<Record<Task['status'], Extract<EventType, `task.${string}`>>> = {
  succeeded: 'task.succeeded',
  failed: 'task.failed',
  cancelled: 'task.cancelled',
};

/** Agent and task events: what every member reads, and all an agent key reads. The rest is a workspace's audit trail. */
export const isFleetEvent = (type: string): boolean => type.startsWith('agent.') || type.startsWith('task.');

/** The audit trail is read by a workspace's admins and owners; its agent and task events by every member. */
const READS_AUDIT: ReadonlySet<WorkspaceRole> = new Set(['admin', 'owner']);

/**
 * Whose events a reader sees: one agent's (`agentId`), those of some workspaces (`workspaces`:
 * every event of `all`, the agent and task events of `fleet`), agent and task events only
 * (`fleetOnly`), of some types. Nothing confines a platform admin's or a service key's reading.
 * `memberships` is what a user's scope was made from: a stream compares it at each keep-alive.
 */
export interface EventScope {
  agentId?: string;
  workspaces?: { all: readonly string[]; fleet: readonly string[] };
  fleetOnly?: boolean;
  types?: readonly EventType[];
  memberships?: { userId: string; signature: string };
}

/** The memberships a scope is made from, as one comparable text. */
const signatureOf = (memberships: ReadonlyArray<{ workspace_id: string; role: WorkspaceRole }>): string =>
  memberships
    .map((membership) => `${membership.workspace_id}:${membership.role}`)
    .sort()
    .join(' ');

/**
 * The reader's scope: an agent key its agent's agent and task events; a user the events of the
 * workspaces they are a member of (the workspace each event's agent was in when it happened), all
 * of them where they are an admin or an owner, the agent and task events elsewhere; admins and
 * service keys every event. `workspaceId` narrows it to one workspace (404 for a non-member).
 * Naming an agent the reader cannot see is 404, as reading it would be; an agent that is gone is
 * still named by its events.
 */
export async function eventScopeOf(
  store: Store,
  principal: Principal,
  query: { agentId?: string; workspaceId?: string; types?: readonly EventType[] },
): Promise<EventScope> {
  const { agentId, workspaceId, types } = query;
  if (principal.kind === 'agent') {
    assertReaches(principal, agentId ?? principal.agentId);
    // An agent key's agent is in one workspace: naming another reads nothing of it.
    if (workspaceId !== undefined) throw workspaceNotFound();
    return { agentId: principal.agentId, fleetOnly: true, types };
  }
  const memberId = memberScope(principal);
  let scope: EventScope = { agentId, types };
  if (memberId !== undefined) {
    const memberships = await store.workspaces.membershipsOf(memberId);
    const reached = workspaceId === undefined ? memberships : memberships.filter((membership) => membership.workspace_id === workspaceId);
    if (workspaceId !== undefined && reached.length === 0) throw workspaceNotFound();
    scope = {
      ...scope,
      workspaces: {
        all: reached.filter((membership) => READS_AUDIT.has(membership.role)).map((membership) => membership.workspace_id),
        fleet: reached.filter((membership) => !READS_AUDIT.has(membership.role)).map((membership) => membership.workspace_id),
      },
      memberships: { userId: memberId, signature: signatureOf(memberships) },
    };
  } else if (workspaceId !== undefined) {
    if (!(await store.workspaces.find(workspaceId, { confined: false }))) throw workspaceNotFound();
    scope = { ...scope, workspaces: { all: [workspaceId], fleet: [] } };
  }
  if (agentId !== undefined && !(await store.agents.reach(agentId, { memberId }))) {
    if (!isId(agentId) || (await store.events.list({ ...scope, after: '0', limit: 1 })).length === 0) throw agentNotFound();
  }
  return scope;
}

/** Whether a user's memberships are still those their scope was made from (a stream ends when they are not). */
export async function scopeStillHolds(store: Store, scope: EventScope): Promise<boolean> {
  if (scope.memberships === undefined) return true;
  return signatureOf(await store.workspaces.membershipsOf(scope.memberships.userId)) === scope.memberships.signature;
}

/** Whether the reader of `scope` sees the event (a stream filters live events with it). */
export function inScope(scope: EventScope, event: EventRecord): boolean {
  if (scope.agentId !== undefined && event.agent_id !== scope.agentId) return false;
  if (scope.types !== undefined && !scope.types.includes(event.type)) return false;
  if (scope.fleetOnly && !isFleetEvent(event.type)) return false;
  const { workspaces } = scope;
  return workspaces === undefined || workspaces.all.includes(event.workspace_id) || (isFleetEvent(event.type) && workspaces.fleet.includes(event.workspace_id));
}

/** The event as readers get it: who owned its agent stays in the database. */
export function presentEvent({ owner_id: _owner, ...event }: EventRecord): FleetEvent {
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
