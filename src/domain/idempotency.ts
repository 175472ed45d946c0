import { createHash, randomUUID } from 'node:crypto';
import type { KeptAnswer } from '../data/records';
import type { Store } from '../data/store';
import { idempotencyKeyInUse, idempotencyKeyReused } from '../errors';
import type { Principal } from './access';

/**
 * An attempt in flight longer than this is taken to be abandoned (its process crashed or lost the
 * database) and is taken over by the next request with its key. It is well beyond the longest
 * create (a claim waits at most 20 s, a statement at most DATABASE_STATEMENT_TIMEOUT_MS).
 */
export const IN_FLIGHT_BOUND_MS = 60_000;
/** What a request that meets an attempt in flight is told to wait before asking again. */
export const IN_USE_RETRY_AFTER_SECONDS = 1;

const HOUR_MS = 3_600_000;

/** Whose keys these are: each principal has keys of its own. Anonymous requests are told apart by their client address. */
export function scopeOf(principal: Principal | undefined, clientAddress: string): string {
  if (!principal) return `address:${clientAddress}`;
  if (principal.kind === 'user') return `user:${principal.user.id}`;
  if (principal.kind === 'service') return `service:${principal.keyNumber}`;
  return `agent-key:${principal.keyId}`;
}

/** JSON with every object's keys in order: two bodies that differ only in key order or spacing read the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, member]) => member !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What makes two requests the same request: the method, the path with its query, and the parsed body. */
export function fingerprintOf(method: string, target: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${target}\n${canonicalJson(body)}`, 'utf8').digest('hex');
}

export interface IdempotentRequest {
  scope: string;
  key: string;
  fingerprint: string;
}

/** The attempt a request holds once it may run: its answer is kept (complete) or forgotten (release) under it. */
export interface Attempt extends IdempotentRequest {
  owner: string;
}

export type Begun = { kind: 'run'; attempt: Attempt } | { kind: 'replay'; answer: KeptAnswer };

export interface IdempotencySettings {
  /** A key and its answer are kept this long after the first request. */
  ttlHours: number;
}

/**
 * Begins a request with an Idempotency-Key. The first request with a key inserts its row and runs
 * (`run`); a later one with the same fingerprint gets the kept answer (`replay`), or 409 while
 * the first is still running; another fingerprint is 422. The table's primary key decides between
 * racing requests, on every instance. An attempt in flight beyond IN_FLIGHT_BOUND_MS, and a row
 * past its expiry that the purge has not reached yet, are taken over by a compare-and-swap.
 */
export async function beginIdempotent(store: Store, request: IdempotentRequest, settings: IdempotencySettings, now = Date.now()): Promise<Begun> {
  const row = {
    principal: request.scope,
    key: request.key,
    fingerprint: request.fingerprint,
    owner: randomUUID(),
    started_at: new Date(now).toISOString(),
    expires_at: new Date(now + settings.ttlHours * HOUR_MS).toISOString(),
  };
  const attempt: Attempt = { ...request, owner: row.owner };
  // A row found by a failed insert can be gone by the time it is read (purged, or released by a
  // refused first attempt): then the insert is tried again.
  for (let round = 0; round < 3; round++) {
    if (await store.idempotencyKeys.insert(row)) return { kind: 'run', attempt };
    const found = await store.idempotencyKeys.find(request.scope, request.key);
    if (!found) continue;
    const expired = Date.parse(found.expires_at) <= now;
    const abandoned = found.answer === null && Date.parse(found.started_at) <= now - IN_FLIGHT_BOUND_MS;
    if (expired || abandoned) {
      if (await store.idempotencyKeys.takeOver(found.owner, row)) return { kind: 'run', attempt };
      continue;
    }
    if (found.fingerprint !== request.fingerprint) throw idempotencyKeyReused();
    if (found.answer === null) throw idempotencyKeyInUse(IN_USE_RETRY_AFTER_SECONDS);
    return { kind: 'replay', answer: found.answer };
  }
  // Rows that keep vanishing and reappearing: other requests with this key are racing this one.
  throw idempotencyKeyInUse(IN_USE_RETRY_AFTER_SECONDS);
}

/** Keeps the answer of an attempt for its retries; false when the attempt had been taken over meanwhile. */
export function completeIdempotent(store: Store, attempt: Attempt, answer: KeptAnswer): Promise<boolean> {
  return store.idempotencyKeys.complete(attempt.scope, attempt.key, attempt.owner, answer);
}

/** Forgets an attempt whose answer is not kept (a 5xx): the same key may be sent again at once. */
export function releaseIdempotent(store: Store, attempt: Attempt): Promise<void> {
  return store.idempotencyKeys.release(attempt.scope, attempt.key, attempt.owner);
}

/** Deletes expired keys, a batch at a time, until none is left; answers how many. */
export async function purgeExpiredKeys(store: Store, now = Date.now(), batch = 500): Promise<number> {
  const at = new Date(now).toISOString();
  let purged = 0;
  for (;;) {
    const deleted = await store.idempotencyKeys.purgeExpired(at, batch);
    purged += deleted;
    if (deleted < batch) return purged;
  }
}
