import { createHash } from 'node:crypto';
import type { Config } from '../config/config';
import { tooManySignIns } from '../errors';

/**
 * Limits password guessing (NIST SP 800-63B section 5.2.2) by two keys at once: the client's
 * address (a fixed budget of failures per window) and the account's normalised e-mail (free
 * failures, then an exponential back-off that never locks the owner out for longer than its cap).
 *
 * That account budget is the strangers'. A client that has signed in to the account before is
 * not a stranger, and a stranger's failures must not lock it out, so it is counted apart:
 * - a device, known by a valid device cookie for the account (OWASP's "device cookies"), has a
 *   budget of its own in place of both keys: it fails too often, and it is itself locked out;
 * - a client address (the rate limiters' key: an IPv6 /56) that signed in to the account within
 *   `knownClientMs` is remembered, and keeps its address budget but has an account budget of its
 *   own. Whoever shares that address shares that budget, which is no more than the address's own.
 *
 * Only failed password checks count. An attempt that is refused is not a failure, and a correct
 * password is never refused while the budget has room: concurrent attempts beyond the room left
 * wait for the ones in flight to settle instead of being counted on arrival.
 */
export interface SignInThrottle {
  /**
   * Holds a place for one password check; rejects with a 429 naming the seconds to wait when there
   * is none. `client` is the client's key (clientKeyOf); `device`, the nonce of a device cookie
   * already verified to name `account`.
   */
  reserve(client: string, account: string, device?: string): Promise<SignInAttempt>;
  /**
   * The same for a credential that is itself the secret (an agent key's client_credentials grant):
   * its failures count against `account` (the key id) only, never against the client's address, so
   * that a worker retrying a dead key never locks out its neighbours or its owner. Its secret is 32
   * random bytes: the address budget guards nothing there that the key's own back-off does not.
   */
  reserveCredential(client: string, account: string): Promise<SignInAttempt>;
}

/** `abandoned`: the check never ran to an answer (the database failed, say): nothing is counted. */
export type SignInOutcome = 'succeeded' | 'failed' | 'abandoned';

export interface SignInAttempt {
  settle(outcome: SignInOutcome): Promise<void>;
}

export interface SignInThrottleLimits {
  /** Failures per client address per window. */
  clientMax: number;
  clientWindowMs: number;
  /** Failures per account before the back-off starts. */
  accountFreeFailures: number;
  /** The first back-off; each further failure doubles it, up to `accountMaxDelayMs`. */
  accountBaseDelayMs: number;
  accountMaxDelayMs: number;
  /** How long a client address that signed in to an account is remembered as one that did. */
  knownClientMs: number;
}

/** The limits configured: the login rate limit per client, the account back-off per account. */
export function signInThrottleLimits(config: Pick<Config, 'rateLimits' | 'auth'>): SignInThrottleLimits {
  return {
    clientMax: config.rateLimits.login.max,
    clientWindowMs: config.rateLimits.login.windowMs,
    accountFreeFailures: config.auth.accountThrottle.freeFailures,
    accountBaseDelayMs: config.auth.accountThrottle.baseDelayMs,
    accountMaxDelayMs: config.auth.accountThrottle.maxDelayMs,
    knownClientMs: config.auth.knownClients.ttlSeconds * 1000,
  };
}

/** One key's state. `pending` counts checks in flight; it lapses at `pendingUntil` should an instance die mid-check. */
interface Entry {
  failures: number;
  first: number;
  last: number;
  pending: number;
  pendingUntil: number;
}

/**
 * Where the entries live: process memory for one process, the cluster primary's memory for the
 * workers of one machine (src/process/shared-counters.ts), Redis for many machines.
 */
export interface ThrottleBackend {
  /**
   * Atomically: answers the wait in ms (> 0), 'busy', or 'reserved' after adding one pending check
   * to both keys. Without a client key, only the account's entry is read and written.
   */
  reserve(clientKey: string | undefined, accountKey: string, now: number): Promise<number | 'busy' | 'reserved'>;
  settle(clientKey: string | undefined, accountKey: string, outcome: SignInOutcome, now: number): Promise<void>;
  /** Whether `key` was remembered within `knownClientMs`. */
  recalls(key: string, now: number): Promise<boolean>;
  /** Remembers `key` for `knownClientMs` from `now`. */
  remember(key: string, now: number): Promise<void>;
}

/** Long enough for any password check; only a crashed instance's reservation ever reaches it. */
const PENDING_LEASE_MS = 15_000;
/** An account's failures are forgotten after a day without one. */
const ACCOUNT_MEMORY_MS = 86_400_000;
const BUSY_POLL_MS = 25;
const BUSY_WAIT_MS = 5_000;

const UNCOUNTED: SignInAttempt = { settle: async () => undefined };

export function createSignInThrottle(
  backend: ThrottleBackend,
  options: {
    /** Counts while `backend` fails (a Redis that is down): per instance, but never not at all. */
    fallback?: ThrottleBackend;
    clock?: () => number;
    onStoreError?: (error: unknown) => void;
    onRefused?: () => void;
  } = {},
): SignInThrottle {
  const clock = options.clock ?? Date.now;
  // Fail open, as the rate limiters do: an unreachable store must not stop every sign-in.
  const guarded = async <T, F>(step: () => Promise<T>, fallback: F): Promise<T | F> => {
    try {
      return await step();
    } catch (error) {
      options.onStoreError?.(error);
      return fallback;
    }
  };
  const stores = options.fallback ? [backend, options.fallback] : [backend];
  /** The keys an attempt counts against in `store` (see SignInThrottle); `counted`, whether the address is one. */
  const keysIn = async (store: ThrottleBackend, client: string, accountId: string, device: string | undefined, counted: boolean) => {
    if (device !== undefined) return { clientKey: `device:${device}`, accountKey: `account:${accountId}:device:${device}` };
    const known = await store.recalls(knownKeyOf(accountId, client), clock());
    return { clientKey: counted ? `client:${client}` : undefined, accountKey: known ? `account:${accountId}:client:${client}` : `account:${accountId}` };
  };
  /** The first store that answers; the attempt is settled with the same one, by the same keys. */
  const reserveIn = async (client: string, accountId: string, device: string | undefined, counted: boolean) => {
    for (const store of stores) {
      const reserved = await guarded(async () => {
        const keys = await keysIn(store, client, accountId, device, counted);
        return { ...keys, answer: await store.reserve(keys.clientKey, keys.accountKey, clock()) };
      }, undefined);
      if (reserved) return { store, ...reserved };
    }
    return undefined;
  };
  const reserve = async (client: string, account: string, device: string | undefined, counted: boolean): Promise<SignInAttempt> => {
    // The e-mail itself never becomes a key: counters may live in a shared Redis.
    const accountId = createHash('sha256').update(normaliseAccount(account)).digest('hex');
    for (let polls = 0; ; polls += 1) {
      const reserved = await reserveIn(client, accountId, device, counted);
      if (!reserved) return UNCOUNTED;
      const { store, clientKey, accountKey, answer } = reserved;
      if (answer === 'reserved') {
        let settled = false;
        return {
          async settle(outcome) {
            if (settled) return;
            settled = true;
            await guarded(async () => {
              await store.settle(clientKey, accountKey, outcome, clock());
              if (outcome === 'succeeded') await store.remember(knownKeyOf(accountId, client), clock());
            }, undefined);
          },
        };
      }
      if (answer !== 'busy' || polls >= BUSY_WAIT_MS / BUSY_POLL_MS) {
        options.onRefused?.();
        throw tooManySignIns(answer === 'busy' ? 1 : Math.max(1, Math.ceil(answer / 1000)));
      }
      await new Promise((resolve) => setTimeout(resolve, BUSY_POLL_MS));
    }
  };
  return {
    reserve: (client, account, device) => reserve(client, account, device, true),
    reserveCredential: (client, account) => reserve(client, account, undefined, false),
  };
}

/** An account as the throttle keys it: e-mail addresses that differ in case or blanks are one account. */
export const normaliseAccount = (account: string): string => account.trim().toLowerCase();

const knownKeyOf = (accountId: string, client: string) => `known:${accountId}:${client}`;

/** The rule, shared by both backends (the Redis script below is its transcription). */
function decide(client: Entry, account: Entry, limits: SignInThrottleLimits, now: number): number | 'busy' | 'reserved' {
  if (client.first + limits.clientWindowMs <= now) client = { ...client, failures: 0 };
  const clientWait = client.failures >= limits.clientMax ? client.first + limits.clientWindowMs - now : 0;
  const accountWait = account.failures >= limits.accountFreeFailures ? account.last + backoff(account.failures, limits) - now : 0;
  const wait = Math.max(clientWait, accountWait);
  if (wait > 0) return wait;
  const clientPending = client.pendingUntil > now ? client.pending : 0;
  const accountPending = account.pendingUntil > now ? account.pending : 0;
  const accountRoom = account.failures >= limits.accountFreeFailures ? 1 : limits.accountFreeFailures - account.failures;
  if (client.failures + clientPending >= limits.clientMax || accountPending >= accountRoom) return 'busy';
  return 'reserved';
}

function backoff(failures: number, limits: SignInThrottleLimits): number {
  const doublings = Math.min(failures - limits.accountFreeFailures, 30);
  return Math.min(limits.accountMaxDelayMs, limits.accountBaseDelayMs * 2 ** doublings);
}

/**
 * Counters in process memory, bounded so that rotating addresses and e-mails cannot grow it without
 * end. Known clients are kept apart from the counters, so that failures cannot crowd them out.
 */
export function createMemoryThrottleBackend(limits: SignInThrottleLimits, maxEntries = 100_000): ThrottleBackend {
  const entries = new Map<string, Entry & { expires: number }>();
  const known = new Map<string, number>();
  // No key (an attempt the client's address does not count for) reads as an empty entry and keeps nothing.
  const read = (key: string | undefined, now: number) => {
    const entry = key === undefined ? undefined : entries.get(key);
    if (entry && entry.expires > now) return entry;
    if (key !== undefined) entries.delete(key);
    return { failures: 0, first: 0, last: 0, pending: 0, pendingUntil: 0, expires: 0 };
  };
  const write = (key: string | undefined, entry: Entry & { expires: number }) => {
    if (key === undefined) return;
    entries.delete(key);
    entries.set(key, entry);
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
  };
  const lapse = (entry: Entry, now: number) => (entry.pendingUntil > now ? entry.pending : 0);
  return {
    async reserve(clientKey, accountKey, now) {
      const client = read(clientKey, now);
      const account = read(accountKey, now);
      const answer = decide(client, account, limits, now);
      if (answer !== 'reserved') return answer;
      for (const [key, entry] of [[clientKey, client], [accountKey, account]] as const) {
        write(key, { ...entry, pending: lapse(entry, now) + 1, pendingUntil: now + PENDING_LEASE_MS, expires: Math.max(entry.expires, now + PENDING_LEASE_MS) });
      }
      return 'reserved';
    },
    async settle(clientKey, accountKey, outcome, now) {
      const client = read(clientKey, now);
      const account = read(accountKey, now);
      const release = (entry: Entry) => ({ pending: Math.max(0, lapse(entry, now) - 1), pendingUntil: entry.pendingUntil });
      if (outcome === 'failed') {
        const fresh = client.failures === 0 || client.first + limits.clientWindowMs <= now;
        const first = fresh ? now : client.first;
        write(clientKey, { ...client, ...release(client), failures: fresh ? 1 : client.failures + 1, first, last: now, expires: first + limits.clientWindowMs });
        write(accountKey, { ...account, ...release(account), failures: account.failures + 1, last: now, expires: now + ACCOUNT_MEMORY_MS });
      } else {
        write(clientKey, { ...client, ...release(client) });
        write(accountKey, { ...account, ...release(account), ...(outcome === 'succeeded' ? { failures: 0, last: 0 } : {}) });
      }
    },
    async recalls(key, now) {
      const expires = known.get(key);
      if (expires !== undefined && expires <= now) known.delete(key);
      return expires !== undefined && expires > now;
    },
    async remember(key, now) {
      known.delete(key);
      known.set(key, now + limits.knownClientMs);
      if (known.size > maxEntries) known.delete(known.keys().next().value as string);
    },
  };
}

/** What the Redis backend needs: one raw command (node-redis's sendCommand). */
export interface ThrottleRedis {
  sendCommand(args: string[]): Promise<unknown>;
}

// KEYS: client, account. ARGV: now, limits..., the operation, then whether the client counts ('1';
// '0': KEYS[1] is neither read nor written). Each key is a hash with the fields of Entry; its TTL is
// the longest thing it still has to remember.
const SCRIPT = `
local now = tonumber(ARGV[1])
local clientMax, clientWindow = tonumber(ARGV[2]), tonumber(ARGV[3])
local free, base, cap = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local lease, memory, op = tonumber(ARGV[7]), tonumber(ARGV[8]), ARGV[9]
local counted = ARGV[10] == '1'
local function entry(key)
  local v = redis.call('HMGET', key, 'failures', 'first', 'last', 'pending', 'pendingUntil')
  local e = { failures = tonumber(v[1]) or 0, first = tonumber(v[2]) or 0, last = tonumber(v[3]) or 0, pending = tonumber(v[4]) or 0, pendingUntil = tonumber(v[5]) or 0 }
  if e.pendingUntil <= now then e.pending = 0 end
  return e
end
local function keep(key, ms)
  local ttl = redis.call('PTTL', key)
  if ms > ttl then redis.call('PEXPIRE', key, math.max(1, math.ceil(ms))) end
end
local c = { failures = 0, first = 0, last = 0, pending = 0, pendingUntil = 0 }
if counted then c = entry(KEYS[1]) end
local a = entry(KEYS[2])
if c.first + clientWindow <= now then c.failures = 0 end
if op == 'reserve' then
  local clientWait = 0
  if c.failures >= clientMax then clientWait = c.first + clientWindow - now end
  local accountWait = 0
  if a.failures >= free then accountWait = a.last + math.min(cap, base * 2 ^ math.min(a.failures - free, 30)) - now end
  local wait = math.max(clientWait, accountWait)
  if wait > 0 then return wait end
  local room = free - a.failures
  if a.failures >= free then room = 1 end
  if c.failures + c.pending >= clientMax or a.pending >= room then return -1 end
  for i, e in ipairs({ c, a }) do
    if i == 2 or counted then
      redis.call('HSET', KEYS[i], 'pending', e.pending + 1, 'pendingUntil', now + lease)
      keep(KEYS[i], lease)
    end
  end
  return 0
end
if counted then redis.call('HSET', KEYS[1], 'pending', math.max(0, c.pending - 1)) end
redis.call('HSET', KEYS[2], 'pending', math.max(0, a.pending - 1))
if op == 'failed' then
  if counted and (c.failures == 0 or c.first + clientWindow <= now) then
    redis.call('HSET', KEYS[1], 'failures', 1, 'first', now, 'last', now)
    redis.call('PEXPIRE', KEYS[1], clientWindow)
  elseif counted then
    redis.call('HSET', KEYS[1], 'failures', c.failures + 1, 'last', now)
    keep(KEYS[1], c.first + clientWindow - now)
  end
  redis.call('HSET', KEYS[2], 'failures', a.failures + 1, 'last', now)
  redis.call('PEXPIRE', KEYS[2], memory)
elseif op == 'succeeded' then
  redis.call('HSET', KEYS[2], 'failures', 0, 'last', 0)
end
return 0
`;

/** Counters in Redis, so every instance sees the same failures. One script call per step, atomic. */
export function createRedisThrottleBackend(redis: ThrottleRedis, limits: SignInThrottleLimits, prefix: string): ThrottleBackend {
  const run = (op: string, clientKey: string | undefined, accountKey: string, now: number) =>
    redis.sendCommand([
      'EVAL',
      SCRIPT,
      '2',
      // Redis Cluster wants every key named; an uncounted client's is the account's own, unread.
      `${prefix}${clientKey ?? accountKey}`,
      `${prefix}${accountKey}`,
      String(now),
      String(limits.clientMax),
      String(limits.clientWindowMs),
      String(limits.accountFreeFailures),
      String(limits.accountBaseDelayMs),
      String(limits.accountMaxDelayMs),
      String(PENDING_LEASE_MS),
      String(ACCOUNT_MEMORY_MS),
      op,
      clientKey === undefined ? '0' : '1',
    ]);
  return {
    async reserve(clientKey, accountKey, now) {
      const answer = Number(await run('reserve', clientKey, accountKey, now));
      return answer > 0 ? answer : answer < 0 ? 'busy' : 'reserved';
    },
    async settle(clientKey, accountKey, outcome, now) {
      await run(outcome, clientKey, accountKey, now);
    },
    async recalls(key) {
      return Number(await redis.sendCommand(['EXISTS', `${prefix}${key}`])) === 1;
    },
    async remember(key) {
      await redis.sendCommand(['SET', `${prefix}${key}`, '1', 'PX', String(limits.knownClientMs)]);
    },
  };
}
