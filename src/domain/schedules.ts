import { Cron } from 'croner';
import type { DueSchedule, ScheduleChanges } from '../data/schedules-repository';
import type { Store } from '../data/store';
import { newId, nextTimestamp, now } from '../data/ids';
import { AppError, invalidValue, scheduleNotFound, stateConflict } from '../errors';
import type { Logger } from '../logger';
import type { Schedule, ScheduleCreate, ScheduleTemplate, ScheduleUpdate } from '../model';
import { assertNotAgentKey, type Principal } from './access';
import { reachAgent } from './agents';
import type { ListQuery, ListResult } from './collection';
import type { Quotas } from './quotas';
import { isTerminal } from './task-status';
import type { TaskWakeups } from './task-wakeups';
import { assertJsonSize, createTask } from './tasks';

/** The schedules an agent may hold (`schedules_per_agent`). */
export const SCHEDULES_PER_AGENT = 1000;
const DEFAULT_TIMEZONE = 'UTC';
/** The most due schedules one poll fires (the next poll takes the rest). */
const FIRE_BATCH = 100;
/**
 * How many agents' schedules one poll fires at once. Each firing is a transaction under its agent's
 * lock: different agents' firings never wait for each other, and on PostgreSQL running them side by
 * side is what lets one process keep up with a thousand schedules.
 */
const FIRE_CONCURRENCY = 4;

/** How the schedules are fired: the configuration (SCHEDULE_POLL_MS) as serve.ts uses it. */
export interface ScheduleSettings {
  /** SCHEDULE_POLL_MS: how often each process looks for due schedules. */
  pollMs: number;
}

/** When a schedule fires: a cron expression read in a time zone, or an interval from its creation. */
export type Timing = Pick<Schedule, 'cron' | 'timezone' | 'interval_seconds' | 'created_at'>;

/** What each of the five fields of a cron expression holds, in crontab's order. */
const CRON_FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day of week', min: 0, max: 7 },
] as const;
/** One entry of a field's list, as crontab reads it: `*`, a value or a range (numbers or names), and a step. */
const CRON_ENTRY = /^(?:\*|(\d+|[A-Za-z]{3})(?:-(\d+|[A-Za-z]{3}))?)(?:\/(\d+))?$/;

const cronProblem = (message: string) => invalidValue(`cron ${message}`, [{ field: 'cron', in: 'body', message }]);

/**
 * The expression as croner runs it. Five fields only, and only what crontab reads: croner also
 * takes seconds, nicknames and extensions (`L`, `W`, `#`, and `?`, which it fills in from the
 * clock, so the same text would fire differently depending on when it was read). A time the
 * clocks skip fires once after the gap, a time they repeat once, whenever minute and hour are
 * fixed values (lists and ranges too), as Vixie cron does.
 */
function cronOf(expression: string, timezone: string): Cron {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== CRON_FIELDS.length) {
    throw cronProblem('must have exactly five fields (minute, hour, day of month, month, day of week): no seconds, no nicknames such as @daily');
  }
  fields.forEach((field, index) => {
    const { name, min, max } = CRON_FIELDS[index] as (typeof CRON_FIELDS)[number];
    for (const entry of field.split(',')) {
      const match = CRON_ENTRY.exec(entry);
      if (!match) throw cronProblem(`${name} field has "${entry}": use numbers, names (JAN, MON), *, lists (,), ranges (-) and steps (/)`);
      const [, from, to, step] = match;
      for (const value of [from, to].filter((part) => part !== undefined && /^\d+$/.test(part))) {
        if (Number(value) < min || Number(value) > max) throw cronProblem(`${name} must be from ${min} to ${max} (got ${value})`);
      }
      if (step !== undefined && Number(step) < 1) throw cronProblem(`${name} has a step of 0`);
    }
  });
  try {
    return new Cron(expression, { timezone, paused: true, mode: '5-part', fixedTimeRule: 'no-wildcard' });
  } catch (error) {
    throw cronProblem(`is not valid: ${(error instanceof Error ? error.message : String(error)).replace(/^CronPattern:\s*/, '')}`);
  }
}

function assertKnownTimezone(timezone: string): void {
  // Offsets (`+01:00`) are not zones, whatever this Node's Intl makes of them.
  if (/^[A-Za-z]/.test(timezone)) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: timezone });
      return;
    } catch {
      // an unknown zone: refused below
    }
  }
  throw invalidValue('timezone is not a known IANA time zone', [{ field: 'timezone', in: 'body', message: 'must be an IANA time zone such as Europe/Paris or UTC' }]);
}

/** When a schedule of this timing fires next, strictly after `after`; null when it never fires again. */
export function nextRunAfter(timing: Timing, after: string): string | null {
  if (timing.interval_seconds !== null) {
    const period = timing.interval_seconds * 1000;
    const start = Date.parse(timing.created_at);
    // Keeps the phase of its creation however late it fires: the first multiple after `after`.
    const periods = Math.max(1, Math.floor((Date.parse(after) - start) / period) + 1);
    return new Date(start + periods * period).toISOString();
  }
  if (timing.cron === null) return null;
  const next = cronOf(timing.cron, timing.timezone).nextRun(new Date(after));
  return next ? next.toISOString() : null;
}

/** The first firing of a timing from `at`, or 400 for one that is not valid or never fires. */
function firstRun(timing: Timing, at: string): string {
  if (timing.cron !== null) assertKnownTimezone(timing.timezone);
  const next = nextRunAfter(timing, at);
  if (next === null) throw cronProblem('never fires (no date matches it)');
  return next;
}

function assertTemplate(template: ScheduleTemplate): void {
  assertJsonSize('template/input', template.input);
}

export async function listSchedules(store: Store, principal: Principal, agentId: string, query: ListQuery): Promise<ListResult<Schedule>> {
  await reachAgent(store, principal, agentId);
  return store.schedules.list(agentId, query);
}

export async function getSchedule(store: Store, principal: Principal, agentId: string, scheduleId: string): Promise<Schedule> {
  await reachAgent(store, principal, agentId);
  return (await store.schedules.find(agentId, scheduleId)) ?? Promise.reject(scheduleNotFound());
}

/**
 * A new schedule of the agent, with its first firing (none while paused). Its agent's row lock
 * serialises the agent's schedule writes, so the count the quota is checked against is exact.
 */
export async function createSchedule(store: Store, principal: Principal, agentId: string, input: ScheduleCreate, quotas: Pick<Quotas, 'schedulesPerAgent'> = {}): Promise<Schedule> {
  assertNotAgentKey(principal);
  assertTemplate(input.template);
  const at = now();
  const timing: Timing =
    'cron' in input ? { cron: input.cron, timezone: input.timezone ?? DEFAULT_TIMEZONE, interval_seconds: null, created_at: at } : { cron: null, timezone: DEFAULT_TIMEZONE, interval_seconds: input.interval_seconds, created_at: at };
  const next = firstRun(timing, at);
  const paused = input.paused ?? false;
  const schedule: Schedule = {
    id: newId(),
    agent_id: agentId,
    name: input.name ?? null,
    cron: timing.cron,
    timezone: timing.timezone,
    interval_seconds: timing.interval_seconds,
    template: input.template,
    paused,
    overlap: input.overlap ?? 'skip',
    next_run_at: paused ? null : next,
    last_run_at: null,
    last_task_id: null,
    last_error: null,
    created_at: at,
    updated_at: at,
  };
  return store.transaction(async (tx) => {
    await reachAgent(tx, principal, agentId, { lock: true });
    const limit = quotas.schedulesPerAgent ?? SCHEDULES_PER_AGENT;
    const usage = await tx.schedules.countOf(agentId);
    if (usage >= limit) throw stateConflict(`An agent holds at most ${limit} schedules: delete one first`);
    await tx.schedules.insert(schedule);
    return schedule;
  });
}

/** The timing after `input`: setting `cron` or `interval_seconds` replaces the other, `timezone` alone keeps the cron. */
function timingAfter(current: Schedule, input: ScheduleUpdate): Timing {
  const { created_at } = current;
  if (input.interval_seconds !== undefined) return { cron: null, timezone: DEFAULT_TIMEZONE, interval_seconds: input.interval_seconds, created_at };
  if (input.cron !== undefined) return { cron: input.cron, timezone: input.timezone ?? current.timezone, interval_seconds: null, created_at };
  if (input.timezone !== undefined) {
    if (current.cron === null) {
      throw invalidValue('timezone applies to a cron schedule: this one runs at an interval (set cron with it)', [
        { field: 'timezone', in: 'body', message: 'only a cron schedule has a time zone' },
      ]);
    }
    return { cron: current.cron, timezone: input.timezone, interval_seconds: null, created_at };
  }
  return current;
}

/**
 * Changes a schedule. A new timing, or a resume, sets its next firing from now; pausing clears it.
 * Under its agent's lock, so that no firing of the schedule runs across the change.
 */
export async function updateSchedule(store: Store, principal: Principal, agentId: string, scheduleId: string, input: ScheduleUpdate): Promise<Schedule> {
  assertNotAgentKey(principal);
  if (input.template !== undefined) assertTemplate(input.template);
  return store.transaction(async (tx) => {
    await reachAgent(tx, principal, agentId, { lock: true });
    const schedule = await tx.schedules.find(agentId, scheduleId);
    if (!schedule) throw scheduleNotFound();
    const retimed = input.cron !== undefined || input.timezone !== undefined || input.interval_seconds !== undefined;
    const timing = timingAfter(schedule, input);
    const at = now();
    // A new timing is checked even when it is paused: valid, and firing some day.
    const next = retimed ? firstRun(timing, at) : undefined;
    const paused = input.paused ?? schedule.paused;
    let nextRunAt = schedule.next_run_at;
    if (paused) nextRunAt = null;
    else if (next !== undefined) nextRunAt = next;
    else if (schedule.paused) nextRunAt = nextRunAfter(timing, at);
    const changes: ScheduleChanges = {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(retimed ? { cron: timing.cron, timezone: timing.timezone, interval_seconds: timing.interval_seconds } : {}),
      ...(input.template === undefined ? {} : { template: input.template }),
      ...(input.overlap === undefined ? {} : { overlap: input.overlap }),
      paused,
      next_run_at: nextRunAt,
      updated_at: nextTimestamp(schedule.updated_at),
    };
    await tx.schedules.update(scheduleId, changes);
    return { ...schedule, ...changes };
  });
}

/** It fires no more; the tasks it created stay, with their `schedule_id`. */
export async function deleteSchedule(store: Store, principal: Principal, agentId: string, scheduleId: string): Promise<void> {
  assertNotAgentKey(principal);
  await store.transaction(async (tx) => {
    await reachAgent(tx, principal, agentId, { lock: true });
    if (!(await tx.schedules.remove(agentId, scheduleId))) throw scheduleNotFound();
  });
}

/** What firing needs beside the store. */
export interface FiringDependencies {
  quotas: Quotas;
  /** Told of each task a firing created, once it is committed: the claims waiting for the agent's next task look at once. */
  wakeups?: TaskWakeups;
  logger?: Logger;
}

/**
 * Whom a firing acts as: the service itself, which reaches the schedule's agent whoever owns it.
 * What the task stores is charged to the agent's owner, as for any task.
 */
const FIRING: Principal = { kind: 'service', keyNumber: 0 };

/** The agent refused a firing's task: what it said, after that transaction was rolled back. */
class Refusal extends Error {}

type Firing = 'created' | 'skipped' | 'refused';

/**
 * Fires every schedule due at `at`, whichever process runs it, as often as it runs: each in a
 * transaction of its own under its agent's lock, and only while its `next_run_at` is still the one
 * listed (a compare-and-swap), so each firing creates one task however many processes poll. The
 * next firing is reckoned from `at`: firings missed while nothing ran are caught up once. A
 * firing that fails unexpectedly is rolled back and logged, and the others go on; the schedule is
 * due again at the next poll. Answers how many firings it made.
 */
export async function fireDueSchedules(store: Store, dependencies: FiringDependencies, at: string = now()): Promise<number> {
  let fired = 0;
  const byAgent = new Map<string, DueSchedule[]>();
  for (const due of await store.schedules.listDue(at, FIRE_BATCH)) byAgent.set(due.agent_id, [...(byAgent.get(due.agent_id) ?? []), due]);
  const agents = [...byAgent.values()];
  // One agent's schedules one after the other (they would wait for its lock anyway), agents side by side.
  const fireAgents = async () => {
    for (let schedules = agents.shift(); schedules !== undefined; schedules = agents.shift()) {
      for (const due of schedules) {
        try {
          const firing = await fireOne(store, dependencies.quotas, due, at);
          if (firing === undefined) continue;
          fired += 1;
          if (firing === 'created') dependencies.wakeups?.notify(due.agent_id);
        } catch (error) {
          dependencies.logger?.error({ err: error instanceof Error ? error.message : String(error), schedule_id: due.id, agent_id: due.agent_id }, 'schedule firing failed');
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(FIRE_CONCURRENCY, agents.length) }, fireAgents));
  return fired;
}

async function fireOne(store: Store, quotas: Quotas, due: DueSchedule, at: string): Promise<Firing | undefined> {
  try {
    return await store.transaction((tx) => fireLocked(tx, quotas, due, at));
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    // Nothing of the refused task was written (a quota refuses after the insert): the firing is recorded by itself.
    return store.transaction((tx) => fireLocked(tx, quotas, due, at, error.message));
  }
}

async function fireLocked(tx: Store, quotas: Quotas, due: DueSchedule, at: string, refusal?: string): Promise<Firing | undefined> {
  // On PostgreSQL an agent another transaction holds is passed over until the next poll.
  if (!(await tx.agents.lockUnlessHeld(due.agent_id))) return undefined;
  const schedule = await tx.schedules.find(due.agent_id, due.id);
  // Fired by another process, changed, paused or deleted since it was listed.
  if (!schedule || schedule.paused || schedule.next_run_at !== due.next_run_at) return undefined;
  const advance = { next_run_at: nextRunAfter(schedule, at), last_run_at: at, updated_at: nextTimestamp(schedule.updated_at) };
  let firing: Firing;
  let changes: ScheduleChanges;
  if (refusal !== undefined) {
    firing = 'refused';
    changes = { ...advance, last_error: refusal };
  } else {
    const previous = schedule.overlap === 'skip' && schedule.last_task_id !== null ? await tx.tasks.find(schedule.agent_id, schedule.last_task_id) : undefined;
    if (previous && !isTerminal(previous.status)) {
      firing = 'skipped';
      changes = { ...advance, last_error: `Skipped: the previous task ${previous.id} is still ${previous.status} (overlap skip)` };
    } else {
      const task = await createTask(tx, FIRING, schedule.agent_id, schedule.template, quotas, undefined, { scheduleId: schedule.id }).catch((error: unknown) => {
        throw error instanceof AppError ? new Refusal(error.message) : error;
      });
      firing = 'created';
      changes = { ...advance, last_task_id: task.id, last_error: null };
    }
  }
  if (!(await tx.schedules.update(schedule.id, changes, due.next_run_at))) throw new Error(`schedule ${schedule.id} changed under its agent's lock`);
  return firing;
}
