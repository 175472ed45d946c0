// A task's life in order: its creation, then each attempt (who claimed it, when it started, its log
// lines as they were written, its last heartbeat and progress, how it ended and why: succeeded,
// failed, released, expired, cancelled or timed out at its deadline), then its end.
// Log lines are text and their data JSON, both shown as text: nothing a worker logs becomes markup.
import type { components } from '@agent-fleet/client';
import type { ComponentChildren } from 'preact';
import { ProgressBar, StatusBadge } from '../../ui';
import type { Task } from '../agent/task-list';
import type { LogLine } from './task-logs';

export type Attempt = components['schemas']['Attempt'];
type Outcome = components['schemas']['AttemptOutcome'];

/** How an attempt ended, in words: its outcome's name where it reads as one. */
const OUTCOME_WORDS: Record<Outcome, string> = {
  succeeded: 'succeeded',
  failed: 'failed',
  released: 'released',
  expired: 'expired',
  cancelled: 'cancelled',
  timed_out: 'timed out',
};
const outcomeWords = (outcome: Outcome | null): string => (outcome === null ? 'running' : (OUTCOME_WORDS[outcome] ?? outcome));

const CLOCK = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
const DAY = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A line's time to the millisecond (lines come fast), the day on hover. */
function Stamp({ at }: { at: string }) {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return <time dateTime={at}>{at}</time>;
  return (
    <time dateTime={at} title={DATE_TIME.format(date)}>
      {CLOCK.format(date)}.{String(date.getMilliseconds()).padStart(3, '0')}
    </time>
  );
}

export const workerName = (worker: Attempt['worker']): string => {
  if (worker === null) return 'a worker the service did not record';
  const kind = worker.kind === 'agent_key' ? 'agent key' : worker.kind === 'service_key' ? 'service key' : 'person';
  return `${worker.name ?? worker.credential_id} (${kind})`;
};

/** One moment of an attempt: what the timeline lists under it, in time order. */
type Moment = { at: string; order: number; key: string; view: ComponentChildren; class: string };

function LogEntry({ line }: { line: LogLine }) {
  return (
    <>
      <Stamp at={line.at} /> <span class={`log-level log-level-${line.level}`}>{line.level}</span> <span class="log-message">{line.message}</span>
      {line.data !== null && line.data !== undefined && <code class="log-data">{JSON.stringify(line.data)}</code>}
    </>
  );
}

/** What happened in one attempt, oldest first: its start, its lines, its last heartbeat, its end. */
function momentsOf(attempt: Attempt | undefined, lines: readonly LogLine[]): Moment[] {
  const moments: Moment[] = lines.map((line) => ({ at: line.at, order: 1, key: `line-${line.id}`, class: `log-line log-${line.level}`, view: <LogEntry line={line} /> }));
  if (attempt) {
    moments.push({
      at: attempt.started_at,
      order: 0,
      key: 'start',
      class: 'moment-start',
      view: (
        <>
          <Stamp at={attempt.started_at} /> Claimed by <strong>{workerName(attempt.worker)}</strong>
          {attempt.model ? ` · model ${attempt.model}` : ''}
        </>
      ),
    });
    if (attempt.last_heartbeat_at) {
      moments.push({
        at: attempt.last_heartbeat_at,
        order: 2,
        key: 'heartbeat',
        class: 'moment-heartbeat',
        view: (
          <>
            <Stamp at={attempt.last_heartbeat_at} /> Last heartbeat
            {attempt.progress && <ProgressBar progress={attempt.progress} label={`Progress of attempt ${attempt.number}`} />}
          </>
        ),
      });
    }
    if (attempt.ended_at) {
      moments.push({
        at: attempt.ended_at,
        order: 3,
        key: 'end',
        class: `moment-end moment-${attempt.outcome ?? 'ended'}`,
        view: (
          <>
            <Stamp at={attempt.ended_at} /> Ended: <StatusBadge status={attempt.outcome ?? 'ended'} label={attempt.outcome === null ? 'ended' : outcomeWords(attempt.outcome)} />
            {attempt.outcome === 'timed_out' && <span class="muted"> (the task passed its deadline)</span>}
            {attempt.error && <span class="moment-error">{attempt.error}</span>}
          </>
        ),
      });
    }
  }
  return moments.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.order - b.order);
}

function AttemptEntry({ number, attempt, lines, filteredOut }: { number: number; attempt: Attempt | undefined; lines: readonly LogLine[]; filteredOut: boolean }) {
  const running = attempt !== undefined && attempt.ended_at === null;
  return (
    <li class={`timeline-attempt${running ? ' timeline-running' : ''}`}>
      <h3 class="attempt-title">
        Attempt {number}
        {attempt && <span class="muted"> · {outcomeWords(attempt.outcome)}</span>}
      </h3>
      <ol class="moments" aria-label={`Attempt ${number}`}>
        {momentsOf(attempt, lines).map((moment) => (
          <li key={moment.key} class={moment.class}>
            {moment.view}
          </li>
        ))}
      </ol>
      {lines.length === 0 && <p class="muted moments-none">{filteredOut ? 'Its lines are hidden by the filter.' : 'No log lines.'}</p>}
    </li>
  );
}

export function Timeline({ task, attempts, lines, attemptFilter }: { task: Task; attempts: readonly Attempt[]; lines: readonly LogLine[]; attemptFilter: number | undefined }) {
  // Lines of an attempt not read yet (it began after the attempts were) still show, under its number.
  const numbers = [...new Set([...attempts.map((attempt) => attempt.number), ...lines.map((line) => line.attempt)])].sort((a, b) => a - b);
  const finished = task.finished_at && (task.status === 'succeeded' || task.status === 'failed' || task.status === 'cancelled');
  return (
    <ol class="timeline">
      <li class="timeline-created">
        <span class="moment-start">
          <Stamp at={task.created_at} /> Created ({DAY.format(new Date(task.created_at))})
        </span>
      </li>
      {numbers.map((number) => (
        <AttemptEntry
          key={number}
          number={number}
          attempt={attempts.find((attempt) => attempt.number === number)}
          lines={lines.filter((line) => line.attempt === number)}
          filteredOut={attemptFilter !== undefined && attemptFilter !== number}
        />
      ))}
      {numbers.length === 0 && (
        <li class="timeline-waiting muted">{task.status === 'queued' ? 'No worker has claimed it yet.' : 'No attempt was made.'}</li>
      )}
      {finished && (
        <li class="timeline-finished">
          <Stamp at={task.finished_at as string} /> Finished: <StatusBadge status={task.status} />
        </li>
      )}
    </ol>
  );
}
