import type { AttemptRecord, ClaimedDelivery, EventRecord, NewDelivery, WebhookTarget } from '../data/records';
import type { Store } from '../data/store';
import { presentEvent } from './events';

export type { ClaimedDelivery } from '../data/records';

/** Events turned into deliveries per transaction: a backlog is worked through in bounded steps. */
export const FANOUT_BATCH = 500;

/** The event as every endpoint receives it, and as its signature covers it. */
export function eventBody(event: EventRecord): string {
  return JSON.stringify(presentEvent(event));
}

/**
 * Whether an endpoint receives an event: one committed after it was created, of a type it wants,
 * in its workspace. Its own `webhook.created` commits with it, before its creation is answered.
 */
export function receives(target: WebhookTarget, event: EventRecord): boolean {
  if (Number(event.id) <= target.after_event_id) return false;
  if (event.type === 'webhook.created' && event.data.id === target.id) return false;
  if (target.types !== null && !target.types.includes(event.type)) return false;
  return event.workspace_id === target.workspace_id;
}

/**
 * One fan-out step: in one transaction holding the fan-out mark, the events after it (at most
 * `batch`) become one pending delivery per enabled endpoint that receives them, and the mark
 * moves past them. On PostgreSQL a process that finds the mark locked does nothing (another is
 * at it); on SQLite the transaction's write lock serialises processes. A step that fails
 * leaves the mark where it was, and the unique (endpoint, event) pair makes a repeated step
 * harmless. With no enabled endpoint the mark moves to the newest event without reading any.
 * Answers the number of events read: `batch` means there may be more.
 */
export async function fanOutEvents(store: Store, clock: () => number = Date.now, batch = FANOUT_BATCH): Promise<number> {
  const mark = await store.webhooks.fanoutMark();
  // Read before the endpoints: one created after this read receives only later events.
  const newest = await store.webhooks.newestEventId();
  if (newest <= mark) return 0;
  return store.transaction(async (tx) => {
    const locked = await tx.webhooks.lockFanoutMark();
    if (locked === undefined) return 0;
    const targets = await tx.webhooks.enabledTargets();
    if (targets.length === 0) {
      // Nobody to deliver to: the mark moves on without reading the events back.
      if (newest > locked) await tx.webhooks.setFanoutMark(newest);
      return 0;
    }
    const events = await tx.webhooks.eventsAfter(locked, batch);
    const last = events.at(-1);
    if (!last) return 0;
    const deliveries: NewDelivery[] = [];
    for (const event of events) {
      const matching = targets.filter((target) => receives(target, event));
      if (matching.length === 0) continue;
      const payload = eventBody(event);
      for (const target of matching) deliveries.push({ webhook_id: target.id, event_id: Number(event.id), event_type: event.type, payload });
    }
    await tx.webhooks.insertDeliveries(deliveries, new Date(clock()).toISOString());
    await tx.webhooks.setFanoutMark(Number(last.id));
    return events.length;
  });
}

/** How long a claimed delivery stays with its sender: beyond the longest attempt, so that two attempts never overlap. */
export const claimLeaseMs = (timeoutMs: number): number => timeoutMs * 2 + 5000;

/** Takes one due delivery for this process, if there is one. */
export async function claimDelivery(store: Store, timeoutMs: number, clock: () => number = Date.now): Promise<ClaimedDelivery | undefined> {
  const at = clock();
  return store.webhooks.claimDue(new Date(at).toISOString(), new Date(at + claimLeaseMs(timeoutMs)).toISOString());
}

/** What one attempt came to: a status code when the endpoint answered, an error unless it succeeded. */
export interface AttemptResult {
  startedAt: number;
  durationMs: number;
  statusCode: number | null;
  /** Null: the endpoint answered 2xx in time. */
  error: string | null;
}

/**
 * Records an attempt: the delivery succeeded, waits for its next attempt (the schedule's delay
 * for this retry, from the attempt's end), or failed once the schedule is spent. Answers the
 * delivery's status now; undefined when the claim was lost meanwhile (the endpoint was deleted, or
 * the lease expired and another took it).
 */
export async function recordAttempt(
  store: Store,
  claim: ClaimedDelivery,
  result: AttemptResult,
  retryScheduleMs: readonly number[],
): Promise<AttemptRecord['delivery_status'] | undefined> {
  const endedAt = result.startedAt + result.durationMs;
  const retry = retryScheduleMs[claim.attempts];
  const record: AttemptRecord = {
    attempted_at: new Date(result.startedAt).toISOString(),
    status_code: result.statusCode,
    error: result.error,
    duration_ms: Math.max(0, Math.round(result.durationMs)),
    ended_at: new Date(endedAt).toISOString(),
    delivery_status: result.error === null ? 'succeeded' : retry === undefined ? 'failed' : 'pending',
    next_attempt_at: result.error === null || retry === undefined ? null : new Date(endedAt + retry).toISOString(),
  };
  return (await store.transaction((tx) => tx.webhooks.recordAttempt(claim, record))) ? record.delivery_status : undefined;
}
