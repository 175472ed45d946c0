// The event feed's data, apart from how it is shown: which events the page holds, where its
// history has not been read, and how each event reads in one line.
//
// The API lists events oldest first only (no "newest first"), and the rate limit allows 100
// requests per 15 minutes. So the feed reads at most HISTORY_PAGES pages from the oldest event
// kept; when more remain, it says so with a gap that the person may ask to read, rather than
// reading a week of events unasked. Live events come from the page's one stream.
import { AgentFleetError, unwrap, type FleetEvent, type FleetEventType } from '@agent-fleet/client';
import { api } from '../../api';

/** The most events the page holds: beyond them the oldest are dropped. */
export const MAX_EVENTS = 500;
/** The page size the API allows at most. */
const PAGE_SIZE = 100;
/** Pages read at once: on open and for each gap a person asks to read. */
export const HISTORY_PAGES = 3;
export const HISTORY_BATCH = PAGE_SIZE * HISTORY_PAGES;

export interface Feed {
  /** Newest first, each id once, at most MAX_EVENTS. */
  events: FleetEvent[];
  /** Ids after which events exist that were not read: each gap sits just above its event. */
  gaps: string[];
  /** Whether older events were dropped to keep MAX_EVENTS. */
  trimmed: boolean;
}

export const EMPTY_FEED: Feed = { events: [], gaps: [], trimmed: false };

/** Every event type, each with its family: a Record, so that the compiler says when api.yaml adds one. */
const FAMILY_OF: Record<FleetEventType, 'agent' | 'task' | 'workspace'> = {
  'agent.created': 'agent',
  'agent.updated': 'agent',
  'agent.deleted': 'agent',
  'task.created': 'task',
  'task.updated': 'task',
  'task.leased': 'task',
  'task.progress': 'task',
  'task.succeeded': 'task',
  'task.failed': 'task',
  'task.cancelled': 'task',
  'task.requeued': 'task',
  'task.deleted': 'task',
  'workspace.updated': 'workspace',
  'member.added': 'workspace',
  'member.role_changed': 'workspace',
  'member.removed': 'workspace',
  'invitation.created': 'workspace',
  'invitation.accepted': 'workspace',
  'invitation.revoked': 'workspace',
  'agent_key.created': 'workspace',
  'agent_key.revoked': 'workspace',
  'webhook.created': 'workspace',
  'webhook.updated': 'workspace',
  'webhook.deleted': 'workspace',
};
export const EVENT_TYPES = Object.keys(FAMILY_OF) as FleetEventType[];
const OUTCOMES: readonly string[] = ['task.succeeded', 'task.failed', 'task.cancelled'];

export const familyOf = (type: string): string => FAMILY_OF[type as FleetEventType] ?? 'other';

/** Ids are decimal digits without leading zeros: longer is larger, then by text. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** The feed with `incoming` added (each id once), newest first, cut to MAX_EVENTS. */
export function mergeEvents(feed: Feed, incoming: readonly FleetEvent[]): Feed {
  if (incoming.length === 0) return feed;
  const byId = new Map(feed.events.map((event) => [event.id, event]));
  const before = byId.size;
  for (const event of incoming) byId.set(event.id, event);
  if (byId.size === before && incoming.every((event) => feed.events.includes(event))) return feed;
  const sorted = [...byId.values()].sort((a, b) => compareIds(b.id, a.id));
  const events = sorted.slice(0, MAX_EVENTS);
  const kept = new Set(events.map((event) => event.id));
  return { events, gaps: feed.gaps.filter((gap) => kept.has(gap)), trimmed: feed.trimmed || sorted.length > MAX_EVENTS };
}

/** The feed after reading history: the events, and a gap where reading stopped with more to come. */
export function withHistory(feed: Feed, read: HistoryRead): Feed {
  const merged = mergeEvents(feed, read.events);
  if (read.more === undefined || !merged.events.some((event) => event.id === read.more)) return merged;
  return { ...merged, gaps: [...new Set([...merged.gaps, read.more])] };
}

export interface HistoryRead {
  events: FleetEvent[];
  /** The last id read when more events follow it. */
  more: string | undefined;
}

/** Up to HISTORY_PAGES pages of events after `after` (from the oldest kept when absent), oldest first. */
export async function readHistory(after: string | undefined): Promise<HistoryRead> {
  const events: FleetEvent[] = [];
  let cursor = after;
  for (let page = 0; page < HISTORY_PAGES; page += 1) {
    const body = await unwrap(api.GET('/api/v1/events', { params: { query: cursor === undefined ? { limit: PAGE_SIZE } : { limit: PAGE_SIZE, after: cursor } } }));
    // The page's JSON: a string would be the stream's form, which this request does not ask for.
    if (typeof body === 'string') throw new Error('The events arrived in a form the console cannot read.');
    events.push(...body.data);
    const next = body.meta.nextCursor;
    if (next === null || !body.meta.hasMore) return { events, more: undefined };
    cursor = next;
  }
  return { events, more: cursor };
}

/** Reads after `after`; when the service no longer keeps what follows it (410), from the oldest kept instead. */
export async function readHistoryAfter(after: string | undefined): Promise<{ read: HistoryRead; restarted: boolean }> {
  try {
    return { read: await readHistory(after), restarted: false };
  } catch (failure) {
    if (after === undefined || !(failure instanceof AgentFleetError) || failure.status !== 410) throw failure;
    return { read: await readHistory(undefined), restarted: true };
  }
}

/** What the type filter offers: everything, a family, the outcomes, or one type. */
export type TypeFilter = 'all' | 'family:agent' | 'family:task' | 'family:workspace' | 'outcomes' | FleetEventType;

export function matchesType(event: FleetEvent, filter: TypeFilter): boolean {
  if (filter === 'all') return true;
  if (filter === 'family:agent' || filter === 'family:task' || filter === 'family:workspace') return familyOf(event.type) === filter.slice('family:'.length);
  if (filter === 'outcomes') return OUTCOMES.includes(event.type);
  return event.type === filter;
}

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const textOf = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value) ?? String(value));

function resultText(result: unknown): string {
  if (Array.isArray(result)) return `${result.length} ${result.length === 1 ? 'item' : 'items'}`;
  if (typeof result === 'object' && result !== null) {
    const keys = Object.keys(result);
    if (keys.length === 0) return 'empty';
    return keys.length > 5 ? `${keys.slice(0, 5).join(', ')} and ${keys.length - 5} more` : keys.join(', ');
  }
  return shorten(textOf(result), 60);
}

/** Fields a summary tells in its own words, that follow from the status (times, the lease), or that name the task. */
const TOLD = new Set(['status', 'previous_status', 'result', 'error', 'progress', 'attempts', 'name', 'title', 'previous_title', 'updated_at', 'started_at', 'finished_at', 'lease_id']);

/** A workspace's own change in one line: who joined or left, which key or webhook came or went. */
function auditSummaryOf(event: FleetEvent): string | undefined {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const text = (field: string) => textOf(data[field] ?? '?');
  // The name the event recorded, unless the person is the one reading (or the event names none).
  const person = () => {
    const userId = String(data['user_id'] ?? '');
    return userId !== myId && typeof data['name'] === 'string' ? data['name'] : personName(userId);
  };
  switch (event.type) {
    case 'workspace.updated':
      return `renamed “${text('previous_name')}” → “${text('name')}”`;
    case 'member.added':
      return `${person()} joined as ${text('role')}`;
    case 'member.role_changed':
      return `${person()}: ${text('previous_role')} → ${text('role')}`;
    case 'member.removed':
      return data['left'] === true ? `${person()} left` : `${person()} removed (was ${text('role')})`;
    case 'invitation.created':
      return `${text('email')} invited as ${text('role')}`;
    case 'invitation.accepted':
      return `${text('email')} accepted the invitation (${text('role')})`;
    case 'invitation.revoked':
      return `the invitation of ${text('email')} revoked`;
    case 'agent_key.created':
      return `key “${text('name')}” (${text('prefix')}…) created`;
    case 'agent_key.revoked':
      return `key “${text('name')}” (${text('prefix')}…) revoked`;
    case 'webhook.created':
      return shorten(`webhook ${text('url')} created`, 200);
    case 'webhook.deleted':
      return shorten(`webhook ${text('url')} deleted`, 200);
    case 'webhook.updated':
      return `webhook changed: ${Object.keys(data).filter((field) => field !== 'id' && field !== 'updated_at').join(', ') || 'nothing'}`;
    default:
      return undefined;
  }
}

/** The event in one line: what became of the task or agent, or of the workspace. */
export function summaryOf(event: FleetEvent): string {
  const audit = auditSummaryOf(event);
  if (audit !== undefined) return audit;
  const data = (event.data ?? {}) as Record<string, unknown>;
  switch (event.type) {
    case 'task.created':
      return shorten(`“${textOf(data['title'] ?? 'untitled')}” created${typeof data['status'] === 'string' ? `, ${data['status']}` : ''}`, 200);
    case 'agent.created':
      return shorten(`“${textOf(data['name'] ?? 'unnamed')}” created${typeof data['type'] === 'string' ? ` (${data['type']})` : ''}`, 200);
    case 'task.deleted':
    case 'agent.deleted':
      return typeof data['status'] === 'string' ? `deleted (was ${data['status']})` : 'deleted';
  }
  const parts: string[] = [];
  if (typeof data['previous_status'] === 'string' && typeof data['status'] === 'string') parts.push(`${data['previous_status']} → ${data['status']}`);
  else if (typeof data['status'] === 'string') parts.push(`now ${data['status']}`);
  if (typeof data['name'] === 'string') parts.push(`name “${data['name']}”`);
  if (typeof data['previous_title'] === 'string') parts.push(`renamed from “${shorten(data['previous_title'], 80)}”`);
  if (event.type === 'task.leased' && typeof data['attempts'] === 'number') parts.push(`attempt ${data['attempts']}`);
  if (data['result'] !== undefined && data['result'] !== null) parts.push(`result: ${resultText(data['result'])}`);
  if (typeof data['error'] === 'string' && data['error'] !== '') parts.push(`error: ${shorten(data['error'], 120)}`);
  // A progress report the row shows as a bar and its message is not repeated in words.
  if (data['progress'] !== undefined && data['progress'] !== null && !progressOf(event)) parts.push(`progress: ${shorten(textOf(data['progress']), 80)}`);
  const others = Object.keys(data).filter((field) => !TOLD.has(field));
  if (others.length > 0) parts.push(`changed: ${others.join(', ')}`);
  if (parts.length === 0 && progressOf(event)) return '';
  return shorten(parts.length > 0 ? parts.join(' · ') : 'changed', 240);
}

/** What a `task.progress` event reports, when it is what the API declares (a percent, a message, or both). */
export function progressOf(event: FleetEvent): { percent: number | undefined; message: string | undefined } | undefined {
  if (event.type !== 'task.progress') return undefined;
  const progress = (event.data as Record<string, unknown> | undefined)?.['progress'];
  if (typeof progress !== 'object' || progress === null) return undefined;
  const { percent, message } = progress as Record<string, unknown>;
  const shown = {
    percent: typeof percent === 'number' && Number.isFinite(percent) ? Math.min(100, Math.max(0, Math.round(percent))) : undefined,
    message: typeof message === 'string' && message !== '' ? message : undefined,
  };
  return shown.percent === undefined && shown.message === undefined ? undefined : shown;
}

/**
 * Tasks' titles by id. Every task event carries its task's title; events recorded by an earlier
 * version of the service do not, and take it from a newer event of the same task, or else from
 * one read of the task (TITLE_READS at most per page, a few at a time; a task that is gone is
 * not read again). `from` is the id of the event it came from, or `read`.
 */
const taskTitles = new Map<string, { title: string; from: string } | null>();
const titleReads = new Map<string, Promise<void>>();
const TITLE_READS = 50;
const TITLE_READS_AT_ONCE = 4;
/** Beyond this many tasks the oldest learnt are forgotten (a page left open for days). */
const MAX_TASK_TITLES = 5000;

/** The title the event carries. */
const carriedTitle = (event: FleetEvent): string | undefined => {
  const title = (event.data as Record<string, unknown> | undefined)?.['title'];
  return event.task_id !== null && typeof title === 'string' ? title : undefined;
};

/** Learns the title an event carries, unless a newer one is known; answers whether anything changed. */
function learnTaskTitle(event: FleetEvent): boolean {
  const title = carriedTitle(event);
  if (title === undefined || event.task_id === null) return false;
  const known = taskTitles.get(event.task_id);
  if (known && (known.from === 'read' || compareIds(known.from, event.id) >= 0)) return false;
  taskTitles.delete(event.task_id);
  taskTitles.set(event.task_id, { title, from: event.id });
  for (const oldest of taskTitles.keys()) {
    if (taskTitles.size <= MAX_TASK_TITLES) break;
    taskTitles.delete(oldest);
  }
  return known?.title !== title;
}

/** The task's title as of the event, or the newest known when the event carries none. */
export function titleOfTask(event: FleetEvent): string | undefined {
  if (event.task_id === null) return undefined;
  return carriedTitle(event) ?? taskTitles.get(event.task_id)?.title;
}

/**
 * Learns the titles `events` carry, then reads the tasks still without one (each once, however
 * many events name it). Resolves with whether any title became known.
 */
export async function learnTaskTitles(events: readonly FleetEvent[]): Promise<boolean> {
  let learnt = false;
  for (const event of events) learnt = learnTaskTitle(event) || learnt;
  const unknown = new Map<string, string>();
  for (const event of events) {
    if (event.task_id !== null && event.agent_id !== null && !taskTitles.has(event.task_id) && !titleReads.has(event.task_id)) unknown.set(event.task_id, event.agent_id);
  }
  const toRead = [...unknown].slice(0, Math.max(0, TITLE_READS - titleReads.size));
  for (let start = 0; start < toRead.length; start += TITLE_READS_AT_ONCE) {
    const reads = toRead.slice(start, start + TITLE_READS_AT_ONCE).map(([taskId, agentId]) => {
      const read = readTaskTitle(agentId, taskId).then((title) => {
        if (title !== undefined) learnt = true;
      });
      titleReads.set(taskId, read);
      return read;
    });
    await Promise.all(reads);
  }
  return learnt;
}

/** One task's title, read with only that field; undefined when it cannot be read (a task that is gone is remembered as such). */
async function readTaskTitle(agentId: string, taskId: string): Promise<string | undefined> {
  try {
    const { data, response } = await api.GET('/api/v1/agents/{agent_id}/tasks/{task_id}', { params: { path: { agent_id: agentId, task_id: taskId }, query: { fields: ['title'] } } });
    if (response.status === 404) taskTitles.set(taskId, null);
    const title = data?.data.title;
    if (typeof title !== 'string') return undefined;
    if (!taskTitles.get(taskId)) taskTitles.set(taskId, { title, from: 'read' });
    return title;
  } catch {
    // A name is a nicety: without it the feed shows the task's short id.
    return undefined;
  }
}

/** The agents' names by id, read once per page and kept current from events (a deleted agent keeps its name). */
const agentNames = new Map<string, string>();
let agentsRead: Promise<void> | undefined;
/** The most agents read for names; events of others show their short id. */
const MAX_AGENTS = 1000;

export function readAgentNames(): Promise<void> {
  agentsRead ??= (async () => {
    let count = 0;
    for await (const agent of api.paginate('/api/v1/agents', { params: { query: { limit: 100, fields: ['name'] } } })) {
      if (typeof agent.name === 'string') agentNames.set(agent.id, agent.name);
      count += 1;
      if (count >= MAX_AGENTS) break;
    }
  })().catch(() => {
    // Names are a nicety: without them the feed shows the agents' short ids. Read again on the next open.
    agentsRead = undefined;
  });
  return agentsRead;
}

/** Learns names from agent events; answers whether anything changed. */
export function learnAgentName(event: FleetEvent): boolean {
  const name = (event.data as Record<string, unknown> | undefined)?.['name'];
  if ((event.type === 'agent.created' || event.type === 'agent.updated') && event.agent_id !== null && typeof name === 'string' && agentNames.get(event.agent_id) !== name) {
    agentNames.set(event.agent_id, name);
    return true;
  }
  return false;
}

export const nameOfAgent = (agentId: string): string | undefined => agentNames.get(agentId);
export const knownAgents = (): Array<[string, string]> => [...agentNames.entries()];
/** The end of an id: ids begin with their time (UUIDv7), so their first characters are alike. */
export const shortId = (id: string): string => `…${id.slice(-8)}`;

/** People's names by user id, from the members of the workspaces the person can see, read once per page. */
const people = new Map<string, string>();
let peopleRead: Promise<void> | undefined;
/** Whose name the feed shows as "you". */
let myId: string | undefined;

export function readPeople(me: string | undefined, workspaceIds: readonly string[]): Promise<void> {
  myId = me;
  peopleRead ??= (async () => {
    for (const workspaceId of workspaceIds.slice(0, MAX_WORKSPACES_READ)) {
      for await (const member of api.paginate('/api/v1/workspaces/{workspace_id}/members', { params: { path: { workspace_id: workspaceId }, query: { limit: 100 } } })) {
        people.set(member.user_id, member.name);
      }
    }
  })().catch(() => {
    // Names are a nicety: without them the feed shows short ids. Read again on the next open.
    peopleRead = undefined;
  });
  return peopleRead;
}
/** The most workspaces whose members are read for names. */
const MAX_WORKSPACES_READ = 20;

/** A person by name ("you" for the signed-in one), else by the end of their id. */
export function personName(userId: string): string {
  if (userId === myId) return 'you';
  return people.get(userId) ?? `user ${shortId(userId)}`;
}

/** Who made the change, in a few words. */
export function actorText(event: FleetEvent): string {
  const { actor } = event;
  if (actor === null) return 'by the service';
  switch (actor.type) {
    case 'user':
      return `by ${personName(actor.id)}`;
    case 'agent_key':
      return `by agent key ${shortId(actor.id)}`;
    case 'service_key':
      return `by service key ${actor.id}`;
  }
}

/** The feed as the page last showed it, so that coming back to the view reads only what is new. */
let remembered: Feed | undefined;
export const rememberedFeed = (): Feed | undefined => remembered;
export function rememberFeed(feed: Feed): void {
  remembered = feed;
}
