// One task (#/agents/{agent_id}/tasks/{task_id}): where it stands and its last error, when it is
// scheduled to run, its timeout and deadline, the schedule that made it, cancelling it while it can
// be and running it again once it failed or was cancelled, its input and result, what its attempts
// used, and its timeline: each attempt with its worker, times, outcome and error, interleaved with
// its log lines, which arrive live. Events of the task change what is shown at once; an attempt
// beginning or ending reads the attempts (and the task, for its usage) again.
import type { components, FleetEvent } from '@agent-fleet/client';
import { AgentFleetError } from '@agent-fleet/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api';
import { ConfirmAction } from '../confirm-action';
import { PressButton } from '../press-button';
import { changesOf, useEvents } from '../live';
import { useLoad } from '../load';
import { hrefOf } from '../route';
import { CopyButton, costText, countText, Empty, JsonBlock, Loading, Problem, ProgressBar, relativeText, secondsText, StatusBadge, Time, ViewHeading } from '../ui';
import { readAgent } from './agent';
import type { Task } from './agent/task-list';
import { cancelTask, isCancellable } from './task/cancel-task';
import { isRetryable, retryTask } from './task/retry-task';
import { LOG_LEVELS, MAX_LINES, useTaskLog, type LogLevel } from './task/task-logs';
import { Timeline, workerName, type Attempt } from './task/timeline';
import { useRights } from '../workspaces';

type Schedule = components['schemas']['Schedule'];

/** The most attempts read (a task's `max_attempts` is at most 100; released attempts come on top). */
const MAX_ATTEMPTS = 1000;
/** Events after which the task has another attempt, or its attempt an outcome. */
const ATTEMPT_EVENTS = new Set(['task.leased', 'task.requeued', 'task.succeeded', 'task.failed', 'task.cancelled']);

/** The task, or null when the service knows no such task for this person (404). */
async function readTask(agentId: string, taskId: string): Promise<Task | null> {
  const { data, error, response } = await api.GET('/api/v1/agents/{agent_id}/tasks/{task_id}', { params: { path: { agent_id: agentId, task_id: taskId } } });
  if (response.status === 404) return null;
  if (!response.ok || !data) throw new AgentFleetError(response, error);
  return data.data as Task;
}

/** The schedule that created the task; null when it has none, or it was deleted since. */
async function readSchedule(agentId: string, scheduleId: string | null | undefined): Promise<Schedule | null> {
  if (!scheduleId) return null;
  const { data, error, response } = await api.GET('/api/v1/agents/{agent_id}/schedules/{schedule_id}', { params: { path: { agent_id: agentId, schedule_id: scheduleId } } });
  if (response.status === 404) return null;
  if (!response.ok || !data) throw new AgentFleetError(response, error);
  return data.data;
}

async function readAttempts(agentId: string, taskId: string): Promise<Attempt[]> {
  const attempts: Attempt[] = [];
  for await (const attempt of api.paginate('/api/v1/agents/{agent_id}/tasks/{task_id}/attempts', { params: { path: { agent_id: agentId, task_id: taskId }, query: { limit: 100 } } })) {
    attempts.push(attempt as Attempt);
    if (attempts.length >= MAX_ATTEMPTS) break;
  }
  return attempts;
}

/** The task after one of its events: its changed fields, or null once it is deleted. */
export function applyTaskPageEvent(task: Task | null, event: FleetEvent): Task | null {
  if (task === null || event.task_id !== task.id) return task;
  if (event.type === 'task.deleted') return null;
  return { ...task, ...changesOf<Task>(event), id: task.id, agent_id: task.agent_id };
}

function NoSuchTask({ agentId }: { agentId: string }) {
  return (
    <section class="task-view">
      <ViewHeading>No such task</ViewHeading>
      <Empty>
        <p>There is no task of yours with this id: it may have been deleted, or the link may be mistyped.</p>
        <p>
          <a href={hrefOf.agent(agentId)}>Go to its agent</a> or <a href={hrefOf.fleet()}>your fleet</a>.
        </p>
      </Empty>
    </section>
  );
}

/**
 * When a queued task may be claimed: "Scheduled for" a time asked for (its `run_at`, or its
 * schedule's firing), "Backing off until" a retry's delay ends, or "Available" since when.
 */
function WhenFacts({ task }: { task: Task }) {
  const now = Date.now();
  const available = Date.parse(task.available_at);
  const ahead = task.status === 'queued' && available > now;
  const asked = task.run_at ? Date.parse(task.run_at) : undefined;
  const scheduled = ahead && asked !== undefined && asked >= available;
  return (
    <>
      {task.status === 'queued' && (
        <div>
          <dt>{scheduled ? 'Scheduled for' : ahead ? 'Backing off until' : 'Available'}</dt>
          <dd>
            <Time at={task.available_at} />
            {ahead && <span class="muted"> ({relativeText(task.available_at, now)})</span>}
          </dd>
        </div>
      )}
      {task.run_at && !scheduled && (
        <div>
          <dt>Asked to run at</dt>
          <dd>
            <Time at={task.run_at} />
          </dd>
        </div>
      )}
      {task.timeout_seconds !== null && task.timeout_seconds !== undefined && (
        <div>
          <dt>Timeout</dt>
          <dd>
            {secondsText(task.timeout_seconds)}
            {!task.deadline_at && <span class="muted"> from its first lease</span>}
          </dd>
        </div>
      )}
      {task.deadline_at && (
        <div>
          <dt>Deadline</dt>
          <dd>
            <Time at={task.deadline_at} />
          </dd>
        </div>
      )}
    </>
  );
}

/** The schedule that created the task, by name, linking to its agent's page (where its schedules are). */
function ScheduleFact({ agentId, scheduleId }: { agentId: string; scheduleId: string }) {
  const schedule = useLoad(() => readSchedule(agentId, scheduleId), [agentId, scheduleId]);
  const name = schedule.data === undefined ? 'its schedule' : schedule.data === null ? 'a schedule since deleted' : (schedule.data.name ?? `“${schedule.data.template.title}”`);
  return (
    <div>
      <dt>Created by schedule</dt>
      <dd>
        <a href={hrefOf.agent(agentId)}>{name}</a>
      </dd>
    </div>
  );
}

function UsageTable({ task, attempts }: { task: Task; attempts: readonly Attempt[] }) {
  const used = attempts.filter((attempt) => attempt.usage.input_tokens + attempt.usage.output_tokens > 0 || attempt.usage.cost_usd > 0 || attempt.model);
  return (
    <section class="task-usage" aria-labelledby="task-usage-title">
      <h2 id="task-usage-title">Usage</h2>
      <table class="usage-table">
        <caption class="visually-hidden">Tokens and cost of each attempt, and of the task</caption>
        <thead>
          <tr>
            <th scope="col">Attempt</th>
            <th scope="col" class="col-model">
              Model
            </th>
            <th scope="col">Input tokens</th>
            <th scope="col">Output tokens</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          {used.map((attempt) => (
            <tr>
              <th scope="row">{attempt.number}</th>
              <td class="col-model">{attempt.model ?? '—'}</td>
              <td>{countText(attempt.usage.input_tokens)}</td>
              <td>{countText(attempt.usage.output_tokens)}</td>
              <td>{costText(attempt.usage.cost_usd)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr class="usage-total">
            <th scope="row">Task</th>
            <td class="col-model">{used.length === 0 ? 'no usage reported' : `${used.length} ${used.length === 1 ? 'attempt' : 'attempts'}`}</td>
            <td>{countText(task.usage.input_tokens)}</td>
            <td>{countText(task.usage.output_tokens)}</td>
            <td>{costText(task.usage.cost_usd)}</td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}

function TimelineSection({ task, attempts }: { task: Task; attempts: readonly Attempt[] }) {
  const [level, setLevel] = useState<LogLevel | undefined>(undefined);
  const [attempt, setAttempt] = useState<number | undefined>(undefined);
  const log = useTaskLog(task.agent_id, task.id, { level, attempt });
  const numbers = [...new Set([...attempts.map((known) => known.number), ...(attempt === undefined ? [] : [attempt])])].sort((a, b) => a - b);
  const liveWords = { connecting: 'Connecting to the log…', live: 'Log live', reconnecting: 'Log reconnecting…', stopped: 'Log not live: reload the page' }[log.state];
  return (
    <section class="task-timeline" aria-labelledby="timeline-title">
      <div class="section-head">
        <h2 id="timeline-title">Timeline and log</h2>
        <div class="table-controls">
          <label class="task-filter">
            Log level
            <select value={level ?? 'all'} onChange={(event) => setLevel(event.currentTarget.value === 'all' ? undefined : (event.currentTarget.value as LogLevel))}>
              <option value="all">All levels</option>
              {LOG_LEVELS.map((value) => (
                <option value={value}>{value} and above</option>
              ))}
            </select>
          </label>
          <label class="task-filter">
            Attempt
            <select value={attempt === undefined ? 'all' : String(attempt)} onChange={(event) => setAttempt(event.currentTarget.value === 'all' ? undefined : Number(event.currentTarget.value))}>
              <option value="all">Every attempt</option>
              {numbers.map((number) => (
                <option value={String(number)}>Attempt {number}</option>
              ))}
            </select>
          </label>
        </div>
      </div>
      <p class={`log-state live live-${log.state === 'live' ? 'live' : log.state === 'stopped' ? 'stopped' : 'connecting'}`} role="status">
        <span class="live-mark" aria-hidden="true" />
        {liveWords}
        {log.lines.length > 0 ? ` · ${countText(log.lines.length)} ${log.lines.length === 1 ? 'line' : 'lines'}` : ''}
      </p>
      {log.problem && <Problem message={log.problem} />}
      {log.dropped > 0 && (
        <p class="muted">
          The {countText(log.dropped)} oldest lines are not shown: the page keeps the newest {countText(MAX_LINES)}. Choose an attempt or a level to see fewer.
        </p>
      )}
      <Timeline task={task} attempts={attempts} lines={log.lines} attemptFilter={attempt} />
    </section>
  );
}

export function TaskView({ agentId, taskId }: { agentId: string; taskId: string }) {
  const task = useLoad(() => readTask(agentId, taskId), [agentId, taskId]);
  const attempts = useLoad(() => readAttempts(agentId, taskId), [agentId, taskId]);
  const agent = useLoad(() => readAgent(agentId), [agentId]);
  const { operate } = useRights(agent.data?.workspace_id);
  // Once cancelled (or queued again), its button is gone: focus goes to the words that say so, not
  // to nothing. They stay while the task is in the status they name.
  const [justDone, setJustDone] = useState<{ words: string; status: Task['status'] } | undefined>(undefined);
  const said = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (justDone) said.current?.focus();
  }, [justDone]);
  useEvents(
    (event) => {
      if (event.task_id !== taskId) return;
      task.patch((current) => applyTaskPageEvent(current, event));
      if (ATTEMPT_EVENTS.has(event.type)) {
        attempts.reload();
        // Usage and the last error come with the outcome, not all in the event: read the task too.
        task.reload();
      } else if (event.type === 'task.progress') {
        const progress = changesOf<Task>(event).progress;
        attempts.patch((all) => all.map((known) => (known.ended_at === null && progress !== undefined ? { ...known, progress, last_heartbeat_at: event.occurred_at } : known)));
      }
    },
    [taskId, task.patch, task.reload, attempts.reload, attempts.patch],
  );

  const back = (
    <p class="back">
      <a href={hrefOf.agent(agentId)}>
        <span aria-hidden="true">← </span>
        {agent.data ? agent.data.name : 'Its agent'}
      </a>
    </p>
  );
  if (task.data === null) return <NoSuchTask agentId={agentId} />;
  const shown = task.data;
  if (shown === undefined) {
    return (
      <section class="task-view">
        {back}
        {task.error ? (
          <>
            <ViewHeading>This task could not be loaded</ViewHeading>
            <Problem message={task.error} onRetry={task.reload} />
          </>
        ) : (
          <Loading what="the task" />
        )}
      </section>
    );
  }
  const lastAttempt = attempts.data?.at(-1);
  return (
    <section class="task-view">
      {back}
      <header class="task-header">
        <ViewHeading>{shown.title}</ViewHeading>
        <StatusBadge status={shown.status} />
      </header>
      <dl class="task-facts">
        <div>
          <dt>Attempts</dt>
          <dd>
            {shown.attempts} of {shown.max_attempts}
          </dd>
        </div>
        <div>
          <dt>Priority</dt>
          <dd>{shown.priority}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>
            <Time at={shown.created_at} />
          </dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>
            <Time at={shown.started_at} />
          </dd>
        </div>
        <div>
          <dt>Finished</dt>
          <dd>
            <Time at={shown.finished_at} />
          </dd>
        </div>
        <WhenFacts task={shown} />
        {shown.schedule_id && <ScheduleFact agentId={agentId} scheduleId={shown.schedule_id} />}
        {lastAttempt && (
          <div>
            <dt>Last worker</dt>
            <dd>{workerName(lastAttempt.worker)}</dd>
          </div>
        )}
        <div>
          <dt>Task id</dt>
          <dd>
            <code>{shown.id}</code> <CopyButton text={shown.id} label="Copy task id" />
          </dd>
        </div>
      </dl>
      {shown.progress && shown.status === 'running' && <ProgressBar progress={shown.progress} label="Progress" />}
      {shown.last_error && (
        <div class="last-error" role="note" aria-labelledby="last-error-title">
          <h2 id="last-error-title">{shown.status === 'failed' ? 'Error' : 'Last error'}</h2>
          <p>{shown.last_error}</p>
          {shown.status !== 'failed' && <p class="muted">An earlier attempt ended with it; the task was {shown.status === 'succeeded' ? 'retried and succeeded' : 'queued again'}.</p>}
        </div>
      )}
      {task.error && <Problem message={task.error} onRetry={task.reload} />}
      {justDone && justDone.status === shown.status && (
        <p class="task-said" tabIndex={-1} ref={said}>
          {justDone.words}
        </p>
      )}
      {operate && isCancellable(shown) && (
        <div class="task-actions">
          <ConfirmAction
            label="Cancel task"
            confirmLabel="Confirm cancel"
            subject={shown.title}
            warning={shown.status === 'running' ? 'Its worker loses the task at its next heartbeat.' : undefined}
            onConfirm={async () => {
              const answer = await cancelTask(agentId, taskId);
              if (!answer.ok) return answer.message;
              task.patch(() => answer.task);
              attempts.reload();
              setJustDone({ words: 'Cancelled.', status: answer.task.status });
              return undefined;
            }}
          />
        </div>
      )}
      {operate && isRetryable(shown) && (
        <div class="task-actions">
          <PressButton
            label="Retry task"
            busyLabel="Retrying…"
            subject={shown.title}
            onPress={async () => {
              const answer = await retryTask(agentId, taskId);
              if (!answer.ok) return answer.message;
              task.patch(() => answer.task);
              attempts.reload();
              setJustDone({ words: 'Queued again.', status: answer.task.status });
              return undefined;
            }}
          />
        </div>
      )}
      {shown.description && <p class="task-description">{shown.description}</p>}
      {attempts.error && <Problem message={attempts.error} onRetry={attempts.reload} />}
      {attempts.data === undefined && attempts.loading && <Loading what="the attempts" />}
      {/* What the task took, gave and used, then its timeline: beside it on a wide screen, above it on a narrow one (the same order for the keyboard). */}
      <div class="task-body">
        <div class="task-side">
          <section aria-labelledby="task-input-title">
            <h2 id="task-input-title">Input</h2>
            {shown.input ? <JsonBlock value={shown.input} label={`Input of ${shown.title}`} /> : <p class="muted">No input.</p>}
          </section>
          <section aria-labelledby="task-result-title">
            <h2 id="task-result-title">Result</h2>
            {shown.status === 'succeeded' ? (
              <JsonBlock value={shown.result} label={`Result of ${shown.title}`} />
            ) : (
              <p class="muted">No result{shown.status === 'queued' || shown.status === 'running' ? ' yet' : ''}.</p>
            )}
          </section>
          {attempts.data && <UsageTable task={shown} attempts={attempts.data} />}
        </div>
        <div class="task-main">{attempts.data && <TimelineSection task={shown} attempts={attempts.data} />}</div>
      </div>
    </section>
  );
}
