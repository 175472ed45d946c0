import { MemoryStore, type ClientRateLimitInfo, type IncrementResponse, type Options, type Store } from 'express-rate-limit';
import { createMemoryThrottleBackend, signInThrottleLimits, type SignInOutcome, type ThrottleBackend } from '../auth/sign-in-throttle';
import { answerIpc, createIpcCaller, type IpcLink } from './cluster-ipc';
import type { Config } from '../config/config';
import type { SharedCounters } from '../http/rate-limit';

/**
 * Counters that every worker of a cluster shares without Redis: the cluster primary keeps them in
 * its memory (the same in-memory stores a single process uses) and the workers ask it over IPC.
 *
 * Not @express-rate-limit/cluster-memory-store, though the design is its own. Its worker gives up
 * on the primary after 1 s measured by a timer that runs before the answer is read when the worker
 * itself was busy (a cold worker compiling its first request's validators takes longer), so
 * requests the primary had counted passed uncounted (src/process/cluster-ipc.ts reads a waiting answer
 * before it gives up); its primary reads MemoryStore's counter after the next request has
 * incremented it (see `serially` below); and it writes its complaints to stderr, not to the log.
 */

const RATE_LIMIT_CHANNEL = 'agent-fleet:rate-limit';
const SIGN_IN_CHANNEL = 'agent-fleet:sign-in-throttle';
/**
 * The primary only counts in memory: it answers in well under a millisecond unless the machine is
 * starved. Beyond this a request passes uncounted (as with an unreachable Redis), and a password
 * check is counted in the worker's own memory instead (the throttle's fallback).
 */
const PRIMARY_TIMEOUT_MS = 1000;

type RateLimitRequest = { op: 'increment' | 'get' | 'decrement' | 'resetKey'; limiter: string; windowMs: number; key: string };
type RateLimitAnswer = { totalHits: number; resetTime?: number } | null;

type ThrottleRequest =
  | { op: 'reserve'; clientKey?: string; accountKey: string; now: number }
  | { op: 'settle'; clientKey?: string; accountKey: string; now: number; outcome: SignInOutcome }
  | { op: 'recalls' | 'remember'; key: string; now: number };

/** A limiter's counters, kept by the primary. */
class PrimaryStore implements Store {
  private windowMs = 0;

  constructor(
    private readonly call: (request: RateLimitRequest) => Promise<RateLimitAnswer>,
    readonly prefix: string,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  async increment(key: string): Promise<IncrementResponse> {
    const answer = await this.call({ op: 'increment', limiter: this.prefix, windowMs: this.windowMs, key });
    if (!answer) throw new Error('rate limit: the primary sent no count');
    return { totalHits: answer.totalHits, resetTime: answer.resetTime === undefined ? undefined : new Date(answer.resetTime) };
  }

  /** The count without counting (whether an address has spent its budget before its credential is checked). */
  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const answer = await this.call({ op: 'get', limiter: this.prefix, windowMs: this.windowMs, key });
    return answer ? { totalHits: answer.totalHits, resetTime: answer.resetTime === undefined ? undefined : new Date(answer.resetTime) } : undefined;
  }

  async decrement(key: string): Promise<void> {
    await this.call({ op: 'decrement', limiter: this.prefix, windowMs: this.windowMs, key });
  }

  async resetKey(key: string): Promise<void> {
    await this.call({ op: 'resetKey', limiter: this.prefix, windowMs: this.windowMs, key });
  }
}

/** In a worker: counters kept by the primary, which must run keepSharedCounters. */
export function connectSharedCounters(primary: IpcLink): SharedCounters {
  const countRequest = createIpcCaller<RateLimitRequest, RateLimitAnswer>(primary, RATE_LIMIT_CHANNEL, PRIMARY_TIMEOUT_MS);
  const throttleRequest = createIpcCaller<ThrottleRequest, unknown>(primary, SIGN_IN_CHANNEL, PRIMARY_TIMEOUT_MS);
  return {
    rateLimitStore: (name) => new PrimaryStore(countRequest, name),
    signInThrottle: {
      reserve: async (clientKey, accountKey, now) => {
        const answer = await throttleRequest({ op: 'reserve', clientKey, accountKey, now });
        if (answer === 'busy' || answer === 'reserved' || (typeof answer === 'number' && answer > 0)) return answer;
        throw new Error(`sign-in throttle: unexpected answer from the primary: ${JSON.stringify(answer)}`);
      },
      settle: async (clientKey, accountKey, outcome, now) => {
        await throttleRequest({ op: 'settle', clientKey, accountKey, outcome, now });
      },
      recalls: async (key, now) => {
        const answer = await throttleRequest({ op: 'recalls', key, now });
        if (typeof answer === 'boolean') return answer;
        throw new Error(`sign-in throttle: unexpected answer from the primary: ${JSON.stringify(answer)}`);
      },
      remember: async (key, now) => {
        await throttleRequest({ op: 'remember', key, now });
      },
    },
  };
}

/** In the primary: keeps the counters; `serve` answers one worker's requests (call it for each). */
export function keepSharedCounters(config: Pick<Config, 'rateLimits' | 'auth'>): { serve(worker: IpcLink): void } {
  const stores = new Map<string, MemoryStore>();
  const storeOf = (limiter: string, windowMs: number) => {
    let store = stores.get(limiter);
    if (!store) {
      store = new MemoryStore();
      store.init({ windowMs } as Options);
      stores.set(limiter, store);
    }
    return store;
  };
  const throttle = createMemoryThrottleBackend(signInThrottleLimits(config));

  /**
   * One operation at a time. MemoryStore's increment answers its live counter object, and the
   * requests that arrive together are handled together: the first would read its count only after
   * the next had incremented it, two requests would get the same count and one count none.
   */
  let previous: Promise<unknown> = Promise.resolve();
  const serially = <T>(step: () => Promise<T>): Promise<T> => {
    const next = previous.then(step);
    previous = next.catch(() => undefined);
    return next;
  };
  const count = (body: unknown): Promise<RateLimitAnswer> =>
    serially(async () => {
      const { op, limiter, windowMs, key } = body as RateLimitRequest;
      if (typeof limiter !== 'string' || typeof key !== 'string' || !(Number(windowMs) > 0)) throw new Error('malformed rate limit request');
      const store = storeOf(limiter, Number(windowMs));
      if (op === 'increment') {
        const { totalHits, resetTime } = await store.increment(key);
        return { totalHits, resetTime: resetTime?.getTime() };
      }
      if (op === 'get') {
        const count = await store.get(key);
        return count ? { totalHits: count.totalHits, resetTime: count.resetTime?.getTime() } : null;
      }
      if (op === 'decrement') await store.decrement(key);
      else if (op === 'resetKey') await store.resetKey(key);
      else throw new Error('unknown rate limit request');
      return null;
    });
  const signIn = async (body: unknown): Promise<unknown> => {
    const request = body as ThrottleRequest;
    // An attempt whose client address is not counted arrives without a client key (see ThrottleBackend).
    const clientKey = 'clientKey' in request && typeof request.clientKey === 'string' ? request.clientKey : undefined;
    if (request.op === 'reserve') return throttle.reserve(clientKey, String(request.accountKey), Number(request.now));
    if (request.op === 'settle' && ['succeeded', 'failed', 'abandoned'].includes(request.outcome)) {
      await throttle.settle(clientKey, String(request.accountKey), request.outcome, Number(request.now));
      return null;
    }
    if (request.op === 'recalls') return throttle.recalls(String(request.key), Number(request.now));
    if (request.op === 'remember') {
      await throttle.remember(String(request.key), Number(request.now));
      return null;
    }
    throw new Error('unknown sign-in throttle request');
  };
  return {
    serve: (worker) => {
      answerIpc(worker, RATE_LIMIT_CHANNEL, count);
      answerIpc(worker, SIGN_IN_CHANNEL, signIn);
    },
  };
}
