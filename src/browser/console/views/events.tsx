// The live event feed: the recent history read on open, then every event of the person's agents
// as it happens, newest at the top; filters by agent and type, and a pause that holds new events
// back so that the list stops moving while someone reads it. A task is named by its title and
// links to its page; a progress report shows as a bar with the worker's message.
import type { FleetEvent } from '@agent-fleet/client';
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from '../../api';
import { useEvents } from '../live';
import { hrefOf } from '../route';
import { Empty, JsonBlock, Loading, Problem, Time, ViewHeading } from '../ui';
import { useWorkspaces, workspaceLabel } from '../workspaces';
import {
  EMPTY_FEED,
  EVENT_TYPES,
  familyOf,
  HISTORY_BATCH,
  knownAgents,
  learnAgentName,
  learnTaskTitles,
  matchesType,
  MAX_EVENTS,
  mergeEvents,
  nameOfAgent,
  progressOf,
  actorText,
  readAgentNames,
  readHistoryAfter,
  readPeople,
  rememberedFeed,
  rememberFeed,
  shortId,
  summaryOf,
  titleOfTask,
  withHistory,
  type Feed,
  type TypeFilter,
} from './events-feed';

const TYPE_CHOICES: Array<{ value: TypeFilter; label: string }> = [
  { value: 'all', label: 'All events' },
  { value: 'family:task', label: 'Task events (task.*)' },
  { value: 'family:agent', label: 'Agent events (agent.*)' },
  { value: 'family:workspace', label: 'Workspace events (members, invitations, keys, webhooks)' },
  { value: 'outcomes', label: 'Finished tasks (succeeded, failed, cancelled)' },
];

function AgentLink({ agentId }: { agentId: string }) {
  const name = nameOfAgent(agentId);
  return (
    <a class="event-agent" href={hrefOf.agent(agentId)}>
      {name ?? (
        <>
          agent <code>{shortId(agentId)}</code>
        </>
      )}
    </a>
  );
}

/** The task by its title (its short id until the title is known), linking to its page. */
function TaskLink({ event, agentId, taskId }: { event: FleetEvent; agentId: string; taskId: string }) {
  const title = titleOfTask(event);
  return (
    <a class="event-task" href={hrefOf.task(agentId, taskId)}>
      {title !== undefined ? (
        <span class="event-task-title">{title}</span>
      ) : (
        <>
          task <code>{shortId(taskId)}</code>
        </>
      )}
    </a>
  );
}

/** A worker's progress report: a bar when it gives a percent, and its message. */
function EventProgress({ progress, name }: { progress: NonNullable<ReturnType<typeof progressOf>>; name: string }) {
  return (
    <div class="event-progress">
      {progress.percent !== undefined && (
        <>
          <progress max={100} value={progress.percent} aria-label={`Progress of ${name}`} />
          <span class="event-progress-percent">{progress.percent}%</span>
        </>
      )}
      {progress.message !== undefined && <span class="event-progress-message">{progress.message}</span>}
    </div>
  );
}

/** The type as its word, behind a mark whose shape tells the family (and a task's outcome). */
function EventKind({ type }: { type: string }) {
  const outcome = type.split('.')[1] ?? '';
  return (
    <span class={`event-kind family-${familyOf(type)} kind-${outcome}`}>
      <span class="event-kind-mark" aria-hidden="true" />
      {type}
    </span>
  );
}

function EventRow({ event }: { event: FleetEvent }) {
  const [open, setOpen] = useState(false);
  const detailsId = `event-${event.id}-json`;
  const progress = progressOf(event);
  const summary = summaryOf(event);
  const title = titleOfTask(event);
  return (
    <li class="event-row" data-event-id={event.id}>
      <div class="event-line">
        <Time at={event.occurred_at} />
        <EventKind type={event.type} />
        {event.agent_id !== null && <AgentLink agentId={event.agent_id} />}
        {event.task_id && event.agent_id !== null && <TaskLink event={event} agentId={event.agent_id} taskId={event.task_id} />}
        <span class="event-actor">{actorText(event)}</span>
        <button type="button" class="secondary event-toggle" aria-expanded={open} aria-controls={detailsId} onClick={() => setOpen(!open)}>
          Details
        </button>
      </div>
      {progress && <EventProgress progress={progress} name={title !== undefined ? `“${title}”` : 'the task'} />}
      {summary !== '' && <p class="event-summary">{summary}</p>}
      {open && (
        <div id={detailsId}>
          <JsonBlock value={event} label={`Event ${event.id} as JSON`} />
        </div>
      )}
    </li>
  );
}

function GapRow({ after, busy, onRead }: { after: FleetEvent | undefined; busy: boolean; onRead: () => void }) {
  return (
    <li class="feed-gap">
      <p>
        Events after {after ? <Time at={after.occurred_at} /> : 'this point'} have not been read yet: the console reads your history {HISTORY_BATCH} events at a time, oldest
        first.
      </p>
      <button type="button" class="secondary" disabled={busy} onClick={onRead}>
        {busy ? 'Reading…' : `Read the next ${HISTORY_BATCH}`}
      </button>
    </li>
  );
}

export function EventsView() {
  const [feed, setFeed] = useState<Feed>(() => rememberedFeed() ?? EMPTY_FEED);
  const [loaded, setLoaded] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [attempt, setAttempt] = useState(0);
  const [filling, setFilling] = useState<string | undefined>(undefined);
  const [paused, setPaused] = useState(false);
  const [held, setHeld] = useState<FleetEvent[]>([]);
  const [agentFilter, setAgentFilter] = useState('all');
  const [typeFilter, setTypeFilter] = useState<TypeFilter>('all');
  const [, setNamesVersion] = useState(0);
  const mounted = useRef(true);
  const { current, me, list } = useWorkspaces();

  useEffect(() => {
    if (list === undefined) return;
    void readPeople(
      me?.id,
      list.map((workspace) => workspace.id),
    ).then(() => mounted.current && setNamesVersion((version) => version + 1));
  }, [list, me]);

  useEffect(() => {
    mounted.current = true;
    void readAgentNames().then(() => mounted.current && setNamesVersion((version) => version + 1));
    return () => {
      mounted.current = false;
    };
  }, []);

  // The history: from the oldest kept the first time, then only what came after the newest event held.
  useEffect(() => {
    let current = true;
    const start = rememberedFeed();
    setProblem(undefined);
    readHistoryAfter(start?.events[0]?.id).then(
      ({ read, restarted }) => {
        if (!current) return;
        setFeed((shown) => withHistory(restarted ? { ...EMPTY_FEED, events: shown.events.filter((event) => !start?.events.includes(event)) } : shown, read));
        setLoaded(true);
      },
      (failure: unknown) => current && setProblem(messageOf(failure, 'Your recent events could not be read. Please try again.')),
    );
    return () => {
      current = false;
    };
  }, [attempt]);

  useEffect(() => {
    if (loaded) rememberFeed(mergeEvents(feed, held));
  }, [loaded, feed, held]);

  // Tasks' titles: those the events carry, and one read for each task whose events carry none.
  useEffect(() => {
    void learnTaskTitles(feed.events).then((learnt) => learnt && mounted.current && setNamesVersion((version) => version + 1));
  }, [feed]);

  useEvents(
    (event) => {
      if (learnAgentName(event)) setNamesVersion((version) => version + 1);
      if (paused) setHeld((waiting) => (waiting.some((other) => other.id === event.id) ? waiting : [...waiting, event].slice(-MAX_EVENTS)));
      else setFeed((shown) => mergeEvents(shown, [event]));
    },
    [paused],
  );

  const readGap = (after: string) => {
    setFilling(after);
    setProblem(undefined);
    readHistoryAfter(after).then(
      ({ read }) => {
        if (!mounted.current) return;
        setFeed((shown) => withHistory({ ...shown, gaps: shown.gaps.filter((gap) => gap !== after) }, read));
        setFilling(undefined);
      },
      (failure: unknown) => {
        if (!mounted.current) return;
        setProblem(messageOf(failure, 'Those events could not be read. Please try again.'));
        setFilling(undefined);
      },
    );
  };

  const resume = () => {
    setFeed((shown) => mergeEvents(shown, held));
    setHeld([]);
    setPaused(false);
  };

  const matches = (event: FleetEvent) =>
    (current === undefined || event.workspace_id === current.id) && (agentFilter === 'all' || event.agent_id === agentFilter) && matchesType(event, typeFilter);
  const waiting = held.filter(matches).length;

  const agentChoices = new Map(knownAgents());
  for (const event of feed.events) if (event.agent_id !== null && !agentChoices.has(event.agent_id)) agentChoices.set(event.agent_id, `agent ${shortId(event.agent_id)}`);
  const sortedAgents = [...agentChoices.entries()].sort((a, b) => a[1].localeCompare(b[1]));

  const rows: JSX.Element[] = [];
  let pendingGap: FleetEvent | undefined;
  const flushGap = () => {
    if (!pendingGap) return;
    const after = pendingGap;
    rows.push(<GapRow key={`gap-${after.id}`} after={after} busy={filling === after.id} onRead={() => readGap(after.id)} />);
    pendingGap = undefined;
  };
  for (const event of feed.events) {
    if (feed.gaps.includes(event.id)) pendingGap = event;
    if (!matches(event)) continue;
    flushGap();
    rows.push(<EventRow key={event.id} event={event} />);
  }
  flushGap();
  const shown = rows.length - feed.gaps.length;
  const filtered = agentFilter !== 'all' || typeFilter !== 'all';

  return (
    <section class="events">
      <ViewHeading>Events</ViewHeading>
      <p class="muted">
        Every change of your agents and their tasks, and of your workspaces, newest first, as it happens{current ? ` in ${workspaceLabel(current)}` : ''}: who did it, and
        what.
      </p>
      <div class="feed-controls">
        <div class="feed-filter">
          <label for="feed-agent">Agent</label>
          <select id="feed-agent" value={agentFilter} onChange={(event) => setAgentFilter(event.currentTarget.value)}>
            <option value="all">All agents</option>
            {sortedAgents.map(([id, name]) => (
              <option value={id}>{name}</option>
            ))}
          </select>
        </div>
        <div class="feed-filter">
          <label for="feed-type">Type</label>
          <select id="feed-type" value={typeFilter} onChange={(event) => setTypeFilter(event.currentTarget.value as TypeFilter)}>
            {TYPE_CHOICES.map((choice) => (
              <option value={choice.value}>{choice.label}</option>
            ))}
            <optgroup label="One type">
              {EVENT_TYPES.map((type) => (
                <option value={type}>{type}</option>
              ))}
            </optgroup>
          </select>
        </div>
        <button type="button" class="secondary feed-pause" onClick={() => (paused ? resume() : setPaused(true))}>
          {paused ? 'Resume' : 'Pause'}
        </button>
      </div>
      <div role="status" class="feed-state">
        {paused && (
          <p class="feed-paused">
            Paused: new events wait here.{' '}
            {waiting > 0 && (
              <button type="button" onClick={resume}>
                {waiting} new {waiting === 1 ? 'event' : 'events'}: show
              </button>
            )}
          </p>
        )}
      </div>
      {problem && <Problem message={problem} onRetry={loaded ? undefined : () => setAttempt((count) => count + 1)} />}
      {!loaded && !problem && feed.events.length === 0 && <Loading what="your recent events" />}
      {loaded && feed.events.length === 0 && (
        <Empty>
          <p>No events yet: they appear here as your agents and tasks change.</p>
        </Empty>
      )}
      {feed.events.length > 0 && shown === 0 && (
        <Empty>
          <p>
            No event here matches these filters.{' '}
            <button
              type="button"
              class="secondary"
              onClick={() => {
                setAgentFilter('all');
                setTypeFilter('all');
              }}
            >
              Show every event
            </button>
          </p>
        </Empty>
      )}
      {rows.length > 0 && (
        <ol class="feed" aria-label={filtered ? 'Events matching the filters, newest first' : 'Events, newest first'}>
          {rows}
        </ol>
      )}
      {loaded && feed.events.length > 0 && (
        <p class="muted feed-end">
          {feed.trimmed
            ? `The page holds your newest ${MAX_EVENTS} events; older ones are left out.`
            : 'Nothing older: these are the oldest of your events the service still keeps.'}
        </p>
      )}
    </section>
  );
}
