// The agent's schedules: each one's timing (a cron expression read in its time zone, or an
// interval), the task it creates, when it fires next and when it last fired (a link to the task it
// last made), and why its last firing made none; pausing and resuming it, deleting it (asked
// twice), and a form to add one, whose fields show what the service refused in them. No event says
// that a schedule fired: the list is read again once its earliest next firing has passed, at most
// every REFRESH_MS and only in a visible tab, and (throttled) when a task of a schedule appears.
import type { components } from '@agent-fleet/client';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, messageOf } from '../../../api';
import { ConfirmAction } from '../../confirm-action';
import { useEvents } from '../../live';
import { useAfter, useLoad } from '../../load';
import { hrefOf } from '../../route';
import { useSubmission } from '../../submit';
import { Empty, FieldProblem, invalidProps, Loading, Problem, relativeText, secondsText, StatusBadge, Time, useNow } from '../../ui';
import { REFRESH_MS } from './overview';
import { useViewRights } from '../../workspaces';

type Schedule = components['schemas']['Schedule'];
type ScheduleCreate = components['schemas']['ScheduleCreate'];

/** The most schedules an agent holds (the API's own bound), all listed. */
const MAX_SCHEDULES = 1000;
/** A schedule is read again this long after its next firing was due, so that the firing has happened. */
const DUE_GRACE_MS = 1500;
/** However far the next firing, the list is read again at least this often while shown (and a timer can wait no longer than 2^31 ms). */
const LONGEST_WAIT_MS = 3_600_000;

const UNITS = { s: 1, min: 60, h: 3600 } as const;
type Unit = keyof typeof UNITS;

async function readSchedules(agentId: string): Promise<Schedule[]> {
  const schedules: Schedule[] = [];
  for await (const schedule of api.paginate('/api/v1/agents/{agent_id}/schedules', { params: { path: { agent_id: agentId }, query: { limit: 100 } } })) {
    schedules.push(schedule as Schedule);
    if (schedules.length >= MAX_SCHEDULES) break;
  }
  return schedules;
}

const nameOf = (schedule: Schedule): string => schedule.name ?? schedule.template.title;

/** The browser's own time zone, the form's first guess. */
function localZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The zones the browser knows, for the time zone field's suggestions. */
function knownZones(): string[] {
  try {
    const zones = Intl.supportedValuesOf('timeZone');
    return zones.includes('UTC') ? zones : ['UTC', ...zones];
  } catch {
    return ['UTC'];
  }
}

/** The time `at` as read in `timezone`: "Mon 09:30" (a cron schedule's hours are its zone's). */
function zoneClock(at: string, timezone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat(undefined, { timeZone: timezone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(at));
  } catch {
    return undefined;
  }
}

/** How long until the list is read again: once the earliest next firing has passed (see the top of the file). */
function dueReloadMs(schedules: readonly Schedule[] | undefined): number | undefined {
  if (!schedules) return undefined;
  const due = Math.min(...schedules.flatMap((schedule) => (!schedule.paused && schedule.next_run_at ? [Date.parse(schedule.next_run_at)] : [])));
  if (!Number.isFinite(due)) return undefined;
  return Math.min(LONGEST_WAIT_MS, Math.max(REFRESH_MS, due + DUE_GRACE_MS - Date.now()));
}

function Timing({ schedule }: { schedule: Schedule }) {
  if (schedule.cron !== null) {
    return (
      <>
        <code>{schedule.cron}</code> in {schedule.timezone}
      </>
    );
  }
  return <>every {secondsText(schedule.interval_seconds ?? 0)}</>;
}

function NextRun({ schedule, now }: { schedule: Schedule; now: number }) {
  if (schedule.paused || !schedule.next_run_at) return <span class="schedule-paused-note">paused: it fires nothing until resumed</span>;
  const there = schedule.cron !== null && schedule.timezone !== localZone() ? zoneClock(schedule.next_run_at, schedule.timezone) : undefined;
  return (
    <>
      <Time at={schedule.next_run_at} />{' '}
      <span class="muted">
        ({relativeText(schedule.next_run_at, now)}
        {there ? `; ${there} in ${schedule.timezone}` : ''})
      </span>
    </>
  );
}

/** Pauses or resumes the schedule (PATCH `paused`); the button keeps the focus, its word changes. */
function PauseToggle({ schedule, onChanged }: { schedule: Schedule; onChanged: (changed: Schedule) => void }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const word = schedule.paused ? 'Resume' : 'Pause';
  const toggle = async () => {
    if (busy) return;
    setBusy(true);
    setProblem(undefined);
    try {
      const { data, error, response } = await api.PATCH('/api/v1/agents/{agent_id}/schedules/{schedule_id}', {
        params: { path: { agent_id: schedule.agent_id, schedule_id: schedule.id } },
        body: { paused: !schedule.paused },
      });
      if (!response.ok || !data) throw error;
      onChanged(data.data);
    } catch (failure) {
      setProblem(messageOf(failure, `The schedule could not be ${schedule.paused ? 'resumed' : 'paused'}. Please try again.`));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" class="secondary" aria-disabled={busy ? 'true' : undefined} onClick={() => void toggle()} aria-label={`${word}: schedule ${nameOf(schedule)}`}>
        {word}
      </button>
      {problem && <Problem message={problem} />}
    </>
  );
}

async function deleteSchedule(schedule: Schedule, onDeleted: () => void): Promise<string | undefined> {
  try {
    const { error, response } = await api.DELETE('/api/v1/agents/{agent_id}/schedules/{schedule_id}', { params: { path: { agent_id: schedule.agent_id, schedule_id: schedule.id } } });
    // Already gone (deleted elsewhere) is what was asked for.
    if (!response.ok && response.status !== 404) throw error;
    onDeleted();
    return undefined;
  } catch (failure) {
    return messageOf(failure, 'The schedule could not be deleted. Please try again.');
  }
}

function ScheduleItem({ schedule, now, onChanged, onDeleted }: { schedule: Schedule; now: number; onChanged: (changed: Schedule) => void; onDeleted: () => void }) {
  const { template } = schedule;
  const { operate } = useViewRights();
  return (
    <li class={`schedule${schedule.paused ? ' schedule-paused' : ''}`}>
      <div class="task-head">
        <h3 class="schedule-name">{nameOf(schedule)}</h3>
        <StatusBadge status={schedule.paused ? 'paused' : 'active'} />
      </div>
      <dl class="task-facts">
        <div>
          <dt>Runs</dt>
          <dd class="schedule-timing">
            <Timing schedule={schedule} />
          </dd>
        </div>
        <div>
          <dt>Next run</dt>
          <dd class="schedule-next">
            <NextRun schedule={schedule} now={now} />
          </dd>
        </div>
        <div>
          <dt>Last run</dt>
          <dd class="schedule-last">
            {schedule.last_run_at ? <Time at={schedule.last_run_at} /> : 'never'}
            {schedule.last_task_id && (
              <>
                {' · '}
                <a href={hrefOf.task(schedule.agent_id, schedule.last_task_id)}>its last task</a>
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>Creates</dt>
          <dd class="schedule-template">
            “{template.title}”, priority {template.priority ?? 5}
            {template.timeout_seconds ? `, timeout ${secondsText(template.timeout_seconds)}` : ''}
          </dd>
        </div>
        <div>
          <dt>While its last task runs</dt>
          <dd>{schedule.overlap === 'skip' ? 'skips the firing' : 'fires all the same'}</dd>
        </div>
      </dl>
      {schedule.last_error && (
        <p class="schedule-error" role="note">
          <strong>Its last firing made no task:</strong> {schedule.last_error}
        </p>
      )}
      {operate && (
        <div class="task-actions">
          <PauseToggle schedule={schedule} onChanged={onChanged} />
          <ConfirmAction
            label="Delete"
            confirmLabel="Confirm delete"
            subject={`schedule ${nameOf(schedule)}`}
            warning="It will fire no more; the tasks it created stay."
            onConfirm={() => deleteSchedule(schedule, onDeleted)}
          />
        </div>
      )}
    </li>
  );
}

/** The fields the service may name in a refusal, and the ids of the words shown beside them. */
const FIELD_IDS = {
  name: 'new-schedule-name-problem',
  cron: 'new-schedule-cron-problem',
  timezone: 'new-schedule-timezone-problem',
  interval_seconds: 'new-schedule-interval-problem',
  'template.title': 'new-schedule-title-problem',
  'template.priority': 'new-schedule-priority-problem',
  'template.timeout_seconds': 'new-schedule-timeout-problem',
} as const;

function NewScheduleForm({ agentId, onCreated }: { agentId: string; onCreated: (schedule: Schedule) => void }) {
  const [name, setName] = useState('');
  const [timing, setTiming] = useState<'cron' | 'interval'>('cron');
  const [cron, setCron] = useState('');
  const [timezone, setTimezone] = useState(localZone);
  const [every, setEvery] = useState('');
  const [unit, setUnit] = useState<Unit>('min');
  const [title, setTitle] = useState('');
  const [priority, setPriority] = useState('5');
  const [timeout, setTimeoutSeconds] = useState('');
  const [zones] = useState(knownZones);
  const { busy, problem, fields, run } = useSubmission('The schedule could not be created. Please try again.');
  const form = useRef<HTMLFormElement>(null);
  // A refusal that names fields takes the focus to the first of them.
  useEffect(() => {
    if (Object.keys(fields).length > 0) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [fields]);
  // The service's words go beside the fields shown; the whole message shows when it named none of them.
  const shown: string[] = Object.keys(FIELD_IDS).filter((key) => (timing === 'cron' ? key !== 'interval_seconds' : key !== 'cron' && key !== 'timezone'));
  const unplaced = Object.keys(fields).length === 0 || Object.keys(fields).some((key) => !shown.includes(key));
  const field = (key: keyof typeof FIELD_IDS) => ({ id: FIELD_IDS[key], message: fields[key] });

  const submit = (event: Event) => {
    event.preventDefault();
    const template = { title, priority: Number(priority), ...(timeout.trim() ? { timeout_seconds: Number(timeout) } : {}) };
    const common = { ...(name.trim() ? { name: name.trim() } : {}), template };
    const body: ScheduleCreate = timing === 'cron' ? { ...common, cron: cron.trim(), timezone: timezone.trim() } : { ...common, interval_seconds: Number(every) * UNITS[unit] };
    return run(async () => {
      const { data, error, response } = await api.POST('/api/v1/agents/{agent_id}/schedules', { params: { path: { agent_id: agentId } }, body });
      if (!response.ok || !data) throw error;
      setName('');
      setCron('');
      setEvery('');
      setTitle('');
      setPriority('5');
      setTimeoutSeconds('');
      onCreated(data.data);
    });
  };

  return (
    <form id="new-schedule" class="inline-form schedule-form" ref={form} onSubmit={(event) => void submit(event)} aria-labelledby="new-schedule-title">
      <h3 id="new-schedule-title">New schedule</h3>
      <label class="wide">
        Schedule name <span class="muted">(optional)</span>
        <input value={name} onInput={(event) => setName(event.currentTarget.value)} maxLength={100} {...invalidProps(FIELD_IDS.name, fields['name'])} />
      </label>
      <FieldProblem {...field('name')} />
      <fieldset class="choice wide">
        <legend>Runs</legend>
        <label class="check">
          <input type="radio" name="new-schedule-timing" value="cron" checked={timing === 'cron'} onChange={() => setTiming('cron')} />
          On a cron expression
        </label>
        <label class="check">
          <input type="radio" name="new-schedule-timing" value="interval" checked={timing === 'interval'} onChange={() => setTiming('interval')} />
          At an interval
        </label>
      </fieldset>
      {timing === 'cron' ? (
        <>
          <label>
            Cron expression <span class="muted">(minute hour day month weekday)</span>
            <input
              class="json-input"
              value={cron}
              onInput={(event) => setCron(event.currentTarget.value)}
              required
              maxLength={200}
              spellcheck={false}
              autocomplete="off"
              placeholder="30 9 * * MON-FRI"
              {...invalidProps(FIELD_IDS.cron, fields['cron'])}
            />
          </label>
          <FieldProblem {...field('cron')} />
          <label>
            Time zone <span class="muted">(IANA, such as Europe/Paris)</span>
            <input
              value={timezone}
              onInput={(event) => setTimezone(event.currentTarget.value)}
              required
              maxLength={64}
              list="new-schedule-zones"
              autocomplete="off"
              spellcheck={false}
              {...invalidProps(FIELD_IDS.timezone, fields['timezone'])}
            />
          </label>
          <datalist id="new-schedule-zones">
            {zones.map((zone) => (
              <option value={zone} />
            ))}
          </datalist>
          <FieldProblem {...field('timezone')} />
        </>
      ) : (
        <>
          <label>
            Every
            <input type="number" min={1} step={1} value={every} onInput={(event) => setEvery(event.currentTarget.value)} required {...invalidProps(FIELD_IDS.interval_seconds, fields['interval_seconds'])} />
          </label>
          <label>
            Unit
            <select value={unit} onChange={(event) => setUnit(event.currentTarget.value as Unit)}>
              <option value="s">seconds</option>
              <option value="min">minutes</option>
              <option value="h">hours</option>
            </select>
          </label>
          <FieldProblem {...field('interval_seconds')} />
        </>
      )}
      <label class="wide">
        Title of each task
        <input value={title} onInput={(event) => setTitle(event.currentTarget.value)} required maxLength={200} {...invalidProps(FIELD_IDS['template.title'], fields['template.title'])} />
      </label>
      <FieldProblem {...field('template.title')} />
      <label>
        Priority of each task <span class="muted">(0–10)</span>
        <input type="number" min={0} max={10} step={1} value={priority} onInput={(event) => setPriority(event.currentTarget.value)} required {...invalidProps(FIELD_IDS['template.priority'], fields['template.priority'])} />
      </label>
      <FieldProblem {...field('template.priority')} />
      <label>
        Timeout of each task (s) <span class="muted">(optional)</span>
        <input
          type="number"
          min={1}
          max={604800}
          step={1}
          value={timeout}
          onInput={(event) => setTimeoutSeconds(event.currentTarget.value)}
          {...invalidProps(FIELD_IDS['template.timeout_seconds'], fields['template.timeout_seconds'])}
        />
      </label>
      <FieldProblem {...field('template.timeout_seconds')} />
      <button type="submit" disabled={busy}>
        Add schedule
      </button>
      {problem && unplaced && <Problem message={problem} />}
    </form>
  );
}

export function SchedulesSection({ agentId }: { agentId: string }) {
  const schedules = useLoad(() => readSchedules(agentId), [agentId]);
  // Reckoned once per read: a wait counted again at each render would never end.
  const reloadIn = useMemo(() => dueReloadMs(schedules.data), [schedules.data]);
  useAfter(reloadIn, schedules.reload);
  useEvents(
    (event) => {
      if (event.agent_id !== agentId || event.type !== 'task.created') return;
      if ((event.data as { schedule_id?: unknown }).schedule_id) schedules.reconcile();
    },
    [agentId, schedules.reconcile],
  );
  const now = useNow(15_000);
  const [formOpen, setFormOpen] = useState(false);
  const [said, setSaid] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const replace = (changed: Schedule) => schedules.patch((all) => all.map((schedule) => (schedule.id === changed.id ? changed : schedule)));
  const list = schedules.data;
  const rights = useViewRights();
  return (
    <section class="agent-schedules" aria-labelledby="schedules-title">
      <div class="section-head">
        <h2 id="schedules-title" tabIndex={-1} ref={heading}>
          Schedules
        </h2>
        {rights.operate && (
          <button type="button" class="secondary" aria-expanded={formOpen} aria-controls="new-schedule" onClick={() => setFormOpen(!formOpen)}>
            New schedule
          </button>
        )}
      </div>
      <p class="muted schedules-said" role="status">
        {said}
      </p>
      {list === undefined && schedules.loading && <Loading what="the schedules" />}
      {schedules.error && <Problem message={schedules.error} onRetry={schedules.reload} />}
      {list !== undefined && list.length === 0 && (
        <Empty>
          <p>
            No schedules. A schedule queues a task on this agent at set times (a cron expression, read in the time zone you give) or at an interval, from a template:
            choose “New schedule” to add one.
          </p>
        </Empty>
      )}
      {list !== undefined && list.length > 0 && (
        <ul class="schedules" aria-label="Schedules, oldest first">
          {list.map((schedule) => (
            <ScheduleItem
              key={schedule.id}
              schedule={schedule}
              now={now}
              onChanged={replace}
              onDeleted={() => {
                schedules.patch((all) => all.filter((each) => each.id !== schedule.id));
                setSaid(`Deleted the schedule “${nameOf(schedule)}”.`);
                heading.current?.focus();
              }}
            />
          ))}
        </ul>
      )}
      {formOpen && rights.operate && (
        <NewScheduleForm
          agentId={agentId}
          onCreated={(schedule) => {
            schedules.patch((all) => (all.some((each) => each.id === schedule.id) ? all : [...all, schedule]));
            setSaid(`Added the schedule “${nameOf(schedule)}”.`);
          }}
        />
      )}
    </section>
  );
}
