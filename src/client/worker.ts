import type { components } from '../../generated/api.js';
import { AgentFleetError } from './errors.js';
import { randomKey } from './random-key.js';
import type { Method } from './types.js';
import { backoff, isKeyInUseBody, retryAfterMs } from './transport.js';

export type Task = components['schemas']['Task'];
export type Lease = components['schemas']['Lease'];
export type TaskProgress = components['schemas']['TaskProgress'];
export type UsageIncrement = components['schemas']['UsageIncrement'];
export type LogLevel = components['schemas']['LogLevel'];
type LogLine = components['schemas']['LogLineCreate'];

/** Log lines for the task's attempt: kept with the task on the service, sent in batches, never blocking. */
export type TaskLogger = Record<LogLevel, (message: string, data?: unknown) => void>;
type LeaseUpdate = components['schemas']['LeaseUpdate'];

/**
 * Why a lease was lost: the service's `details.reason` (`expired`, `cancelled`, `completed`,
 * `released`), `expired` too when no heartbeat succeeded before the lease's TTL ran out, or
 * `refused` when the service refused the lease's calls otherwise (403, 404, 409 `CONFLICT`).
 */
export type LeaseLostReason = components['schemas']['ApiLeaseLostError']['error']['details']['reason'] | 'refused';

/** The abort reason of a handler's signal when its lease is lost: another worker may hold the task now. */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
  constructor(readonly reason: LeaseLostReason) {
    super(`The lease was lost (${reason}): stop working on its task`);
  }
}

/**
 * Thrown by a handler, fails the task for good (`retry: false`). Any thrown value with a `retry`
 * property that is `false` does the same; every other error fails the attempt with `retry: true`.
 */
export class PermanentError extends Error {
  override readonly name: string = 'PermanentError';
  readonly retry = false;
}

export interface TaskContext {
  /** Aborts when the lease is lost (reason: a `LeaseLostError`) or the worker stops without waiting (an `AbortError`). */
  signal: AbortSignal;
  /** The lease as the service last answered it. */
  lease: Lease;
  /** Records progress on the task (with a heartbeat, sent now). Never rejects: what could not be sent goes with the next heartbeat. */
  progress(progress: TaskProgress): Promise<void>;
  /**
   * Logs a line on the task. Lines are sent in batches (every `logs.flushMs`, or at 100); a call
   * never waits and never throws. While the service is slow, lines past `logs.maxBuffered` are
   * dropped and counted (a `logs-dropped` event, and a `warn` line saying how many), not the task.
   */
  log: TaskLogger;
  /** Reports tokens and money used since the last report: sent with the next heartbeat or the outcome. */
  usage(increment: UsageIncrement): void;
}

/** Works one task: its resolved value is the task's `result`; what it throws fails the attempt. */
export type TaskHandler = (task: Task, context: TaskContext) => unknown;

export type WorkerOperation = 'claim' | 'heartbeat' | 'report' | 'release';

/** What the worker did, for logs and metrics. */
export type WorkerEvent =
  | { type: 'claimed'; lease: Lease }
  | { type: 'succeeded'; lease: Lease }
  | { type: 'failed'; lease: Lease; error: string; retry: boolean }
  | { type: 'lost'; lease: Lease; reason: LeaseLostReason }
  | { type: 'released'; lease: Lease }
  /** Log lines that were not sent (the buffer was full, or the service refused or did not answer). */
  | { type: 'logs-dropped'; lease: Lease; count: number }
  /** A call failed; `retryInMs` is set when the worker tries again after that long. */
  | { type: 'error'; operation: WorkerOperation; error: unknown; lease?: Lease; retryInMs?: number };

export interface WorkerOptions {
  /** The agent whose tasks this worker takes. */
  agentId: string;
  handler: TaskHandler;
  /** Tasks worked at once (default 1): this many claim loops, each running one handler at a time. */
  concurrency?: number;
  /** The lease's TTL (default 60, 5 to 3600); heartbeats extend it every third of it. */
  ttlSeconds?: number;
  /** How long one claim waits for a task (default 20, the most the service allows): the back-off of an empty queue. */
  waitSeconds?: number;
  /** Back-off after failed calls: exponential from `initialMs` (1 000) to `maxMs` (30 000), with jitter. */
  backoff?: { initialMs?: number; maxMs?: number };
  /** Called for everything the worker does; what it throws is ignored. */
  onEvent?: (event: WorkerEvent) => void;
  /** How log lines are batched: sent every `flushMs` (default 1 000), at most `maxBuffered` waiting (default 1 000). */
  logs?: { flushMs?: number; maxBuffered?: number };
}

export interface StopOptions {
  /** Let running handlers finish and report (default true); `false` is `timeoutMs: 0`. */
  graceful?: boolean;
  /** How long running handlers may take; then their signals abort and their leases are released (default: no limit). */
  timeoutMs?: number;
}

export interface Worker {
  /** Starts the claim loops; returns the worker. */
  start(): Worker;
  /** Stops claiming (a claim in flight is aborted) and ends once every lease has ended. */
  stop(options?: StopOptions): Promise<void>;
  /**
   * Resolves when the worker has stopped: no claim in flight and every lease reported, released
   * or lost. Rejects with the `AgentFleetError` of a claim the service refused for good (400, 401,
   * 403, 404), after which the worker stopped by itself.
   */
  readonly done: Promise<void>;
}

/** What a worker uses of the client (`createAgentFleetClient`'s answer has it). */
type WorkerClient = { POST: Method<'post'>; PATCH: Method<'patch'>; DELETE: Method<'delete'> };
/** What the service takes in one batch, and the longest line it keeps. */
const LOG_BATCH = 100;
const LOG_LINE_CHARS = 8192;
/** The longest an outcome waits for its attempt's last log lines. */
const FINAL_LOG_FLUSH_MS = 5000;
type Result = { data?: unknown; error?: unknown; response: Response };
type Answer =
  | { kind: 'ok'; status: number; data: unknown; replayed: boolean }
  | { kind: 'lost'; reason: LeaseLostReason; error: AgentFleetError }
  | { kind: 'transient'; error: unknown; retryAfterMs?: number }
  | { kind: 'refused'; error: AgentFleetError };
type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };
/** The `Idempotency-Key` of one claim, and when it was first sent. */
type ClaimKey = { value: string; sentAt: number };

const MAX_ERROR_CHARS = 10_000;

/**
 * A worker for one agent: claims its tasks under leases, runs `handler` on each with a signal
 * that aborts when the lease is lost or the worker stops, heartbeats at a third of the TTL, and
 * reports the outcome. Call `start()`, then `stop()` to end it.
 */
export function createWorker(client: WorkerClient, options: WorkerOptions): Worker {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  const ttlSeconds = options.ttlSeconds ?? 60;
  const waitSeconds = options.waitSeconds ?? 20;
  const initialMs = options.backoff?.initialMs ?? 1000;
  const maxMs = options.backoff?.maxMs ?? 30_000;
  const agentPath = { agent_id: options.agentId };
  const logFlushMs = options.logs?.flushMs ?? 1000;
  const maxBufferedLogs = Math.max(1, options.logs?.maxBuffered ?? 1000);
  const stopping = new AbortController();
  const runs = new Set<LeaseRun>();
  let claiming = 0;
  let started = false;
  let fatal: { error: unknown } | undefined;
  let settle: () => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    settle = () => {
      if (!stopping.signal.aborted || claiming > 0 || runs.size > 0) return;
      if (fatal === undefined) resolve();
      else reject(fatal.error);
    };
  });
  // Whoever awaits `done` sees a rejection; nobody awaiting it must not crash the process.
  done.catch(() => undefined);

  const emit = (event: WorkerEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // A listener's failure is not the worker's.
    }
  };
  const delayFor = (failures: number): number => backoff(initialMs, maxMs, failures);

  class LeaseRun {
    readonly handlerSignal = new AbortController();
    /** Aborts heartbeats in flight once the lease is no longer worked. */
    readonly beats = new AbortController();
    phase: 'working' | 'reporting' | 'releasing' | 'ended' = 'working';
    lease: Lease;
    deadline: number;
    readonly abandoned: Promise<'abandoned'>;
    #markAbandoned: () => void = () => undefined;
    #beatTimer: ReturnType<typeof setTimeout> | undefined;
    #deadlineTimer: ReturnType<typeof setTimeout> | undefined;
    #chain: Promise<void> = Promise.resolve();
    #pendingProgress: TaskProgress | undefined;
    #pendingUsage: UsageIncrement | undefined;
    #beatFailures = 0;
    #logs: LogLine[] = [];
    #droppedLogs = 0;
    #logTimer: ReturnType<typeof setTimeout> | undefined;
    #flushing: Promise<void> | undefined;

    constructor(lease: Lease, sentAt: number) {
      this.lease = lease;
      // The service counts the TTL from when it took the claim, after we sent it: ours ends first.
      this.deadline = sentAt + lease.ttl_seconds * 1000;
      this.abandoned = new Promise((resolve) => (this.#markAbandoned = () => resolve('abandoned')));
      runs.add(this);
      this.#armDeadline();
      this.#scheduleBeat(this.#intervalMs());
    }

    get path(): { agent_id: string; lease_id: string } {
      return { ...agentPath, lease_id: this.lease.id };
    }

    progress(progress: TaskProgress): Promise<void> {
      if (this.phase !== 'working') return Promise.resolve();
      this.#pendingProgress = progress;
      return this.#beat(true);
    }

    log(level: LogLevel, message: string, data?: unknown): void {
      if (this.phase !== 'working') return;
      if (this.#logs.length >= maxBufferedLogs) {
        this.#droppedLogs += 1;
        return;
      }
      const text = String(message);
      this.#logs.push({ level, message: text.length <= LOG_LINE_CHARS ? text : `${text.slice(0, LOG_LINE_CHARS - 1)}…`, at: new Date().toISOString(), ...optional('data', data) });
      if (this.#logs.length >= LOG_BATCH) void this.flushLogs();
      else this.#logTimer ??= setTimeout(() => void this.flushLogs(), logFlushMs);
    }

    usage(increment: UsageIncrement): void {
      if (this.phase !== 'working') return;
      this.#pendingUsage = addUsage(this.#pendingUsage, increment);
    }

    /** What usage waits to be sent, taken: it goes with the call about to be made. */
    takeUsage(): UsageIncrement | undefined {
      const usage = this.#pendingUsage;
      this.#pendingUsage = undefined;
      return usage;
    }

    /** Sends the waiting lines, a batch at a time, one call at a time; lines a call could not deliver are dropped and counted. */
    flushLogs(): Promise<void> {
      clearTimeout(this.#logTimer);
      this.#logTimer = undefined;
      this.#flushing ??= (async () => {
        while (this.phase === 'working' && (this.#logs.length > 0 || this.#droppedLogs > 0)) {
          if (this.#droppedLogs > 0) {
            emit({ type: 'logs-dropped', lease: this.lease, count: this.#droppedLogs });
            this.#logs.push({ level: 'warn', message: `${this.#droppedLogs} log lines were dropped: the service did not take them in time`, at: new Date().toISOString() });
            this.#droppedLogs = 0;
          }
          const batch = this.#logs.splice(0, LOG_BATCH);
          const answer = await call(
            () => client.POST('/api/v1/agents/{agent_id}/leases/{lease_id}/logs', { params: { path: this.path }, body: { lines: batch }, signal: this.beats.signal }),
            this.beats.signal,
          );
          if (answer?.kind === 'ok') continue;
          // Not taken (refused, lost, slow past the end of the attempt): counted, and said in the next batch.
          this.#droppedLogs += batch.length;
          break;
        }
      })().finally(() => {
        this.#flushing = undefined;
        if (this.phase !== 'working') this.#discardLogs();
      });
      return this.#flushing;
    }

    /** The attempt is over: what was never sent is counted as dropped. */
    #discardLogs(): void {
      const count = this.#logs.length + this.#droppedLogs;
      this.#logs = [];
      this.#droppedLogs = 0;
      if (count > 0) emit({ type: 'logs-dropped', lease: this.lease, count });
    }

    /** The lease is gone: abort the handler and write nothing more. */
    lose(reason: LeaseLostReason): void {
      if (this.phase !== 'working') return;
      this.#quiet();
      this.handlerSignal.abort(new LeaseLostError(reason));
      emit({ type: 'lost', lease: this.lease, reason });
      this.end();
    }

    /** Stops heartbeats: the outcome is being reported. */
    beginReport(): void {
      this.#quiet();
      this.phase = 'reporting';
    }

    /** The worker stops without waiting: abort the handler and give the task back. */
    async abandon(): Promise<void> {
      if (this.phase !== 'working') return;
      this.#quiet();
      this.phase = 'releasing';
      this.handlerSignal.abort(new DOMException('The worker stopped before the task finished', 'AbortError'));
      await release(this);
      this.end();
      this.#markAbandoned();
    }

    end(): void {
      this.#quiet();
      this.phase = 'ended';
      runs.delete(this);
      settle();
    }

    #intervalMs(): number {
      return (ttlSeconds * 1000) / 3;
    }

    #quiet(): void {
      clearTimeout(this.#logTimer);
      clearTimeout(this.#beatTimer);
      clearTimeout(this.#deadlineTimer);
      this.beats.abort();
      // A flush under way counts what it could not send once its call has ended.
      if (this.#flushing === undefined) queueMicrotask(() => this.#discardLogs());
    }

    #armDeadline(): void {
      clearTimeout(this.#deadlineTimer);
      this.#deadlineTimer = setTimeout(() => this.lose('expired'), Math.max(0, this.deadline - Date.now()));
    }

    #scheduleBeat(delayMs: number): void {
      clearTimeout(this.#beatTimer);
      this.#beatTimer = setTimeout(() => void this.#beat(false), delayMs);
    }

    /** One PATCH at a time; a progress beat with nothing left to send (a later one took it) is skipped. */
    #beat(forProgress: boolean): Promise<void> {
      const next = this.#chain.then(() => this.#sendBeat(forProgress));
      this.#chain = next;
      return next;
    }

    async #sendBeat(forProgress: boolean): Promise<void> {
      if (this.phase !== 'working' || (forProgress && this.#pendingProgress === undefined)) return;
      const progress = this.#pendingProgress;
      this.#pendingProgress = undefined;
      const usage = this.takeUsage();
      const sentAt = Date.now();
      const answer = await call(
        () =>
          client.PATCH('/api/v1/agents/{agent_id}/leases/{lease_id}', {
            params: { path: this.path },
            body: { ttl_seconds: ttlSeconds, ...optional('progress', progress), ...optional('usage', usage) },
            signal: this.beats.signal,
          }),
        this.beats.signal,
      );
      if (answer === undefined || this.phase !== 'working') return;
      if (answer.kind === 'ok') {
        this.#beatFailures = 0;
        this.lease = leaseOf(answer.data) ?? this.lease;
        this.deadline = sentAt + ttlSeconds * 1000;
        this.#armDeadline();
        this.#scheduleBeat(this.#intervalMs());
      } else if (answer.kind === 'transient') {
        this.#pendingProgress ??= progress;
        // Not known to have landed: sent again with the next heartbeat (the service may count it twice; it never loses it).
        if (usage !== undefined) this.#pendingUsage = addUsage(this.#pendingUsage, usage);
        const retryInMs = Math.min(Math.max(answer.retryAfterMs ?? 0, delayFor(this.#beatFailures)), Math.max(0, this.deadline - Date.now()));
        this.#beatFailures += 1;
        emit({ type: 'error', operation: 'heartbeat', error: answer.error, lease: this.lease, retryInMs });
        this.#scheduleBeat(retryInMs);
      } else {
        if (answer.kind === 'refused') emit({ type: 'error', operation: 'heartbeat', error: answer.error, lease: this.lease });
        this.lose(answer.kind === 'lost' ? answer.reason : 'refused');
      }
    }
  }

  /** Sends a lease call; `undefined` when `signal` aborted it. */
  async function call(send: () => Promise<unknown>, signal?: AbortSignal): Promise<Answer | undefined> {
    try {
      return answerOf((await send()) as Result);
    } catch (error) {
      if (signal?.aborted === true) return undefined;
      if (error instanceof AgentFleetError) return answerOf({ error: error.body, response: error.response });
      return { kind: 'transient', error };
    }
  }

  /** Tries `send` until it answers something other than a transient failure, or until the lease's deadline. */
  async function untilDeadline(run: LeaseRun, operation: WorkerOperation, send: () => Promise<unknown>): Promise<{ answer: Answer; attempts: number }> {
    for (let attempts = 1; ; attempts += 1) {
      const answer = (await call(send)) as Answer;
      if (answer.kind !== 'transient' || Date.now() >= run.deadline) return { answer, attempts };
      const retryInMs = Math.min(Math.max(answer.retryAfterMs ?? 0, delayFor(attempts - 1)), Math.max(0, run.deadline - Date.now()));
      emit({ type: 'error', operation, error: answer.error, lease: run.lease, retryInMs });
      await sleep(retryInMs);
    }
  }

  async function release(run: LeaseRun): Promise<void> {
    const { answer } = await untilDeadline(run, 'release', () => client.DELETE('/api/v1/agents/{agent_id}/leases/{lease_id}', { params: { path: run.path } }));
    if (answer.kind === 'ok') emit({ type: 'released', lease: run.lease });
    else if (answer.kind === 'lost') emit({ type: 'lost', lease: run.lease, reason: answer.reason });
    else emit({ type: 'error', operation: 'release', error: answer.error, lease: run.lease });
  }

  /**
   * Reports the outcome, retrying transient failures until the lease's deadline. A report whose
   * answer was lost may have landed: when a later attempt hears `LEASE_LOST` with reason
   * `completed`, the lease was completed by this worker's own earlier attempt (nobody else can
   * complete it), so the outcome counts as reported.
   */
  async function report(run: LeaseRun, settled: Settled, usage: UsageIncrement | undefined): Promise<void> {
    let body = { ...outcomeOf(settled), ...optional('usage', usage) };
    for (;;) {
      const outcome = body;
      const { answer, attempts } = await untilDeadline(run, 'report', () =>
        client.PATCH('/api/v1/agents/{agent_id}/leases/{lease_id}', { params: { path: run.path }, body: outcome }),
      );
      if (answer.kind === 'ok' || (answer.kind === 'lost' && answer.reason === 'completed' && attempts > 1)) {
        if (answer.kind === 'ok') run.lease = leaseOf(answer.data) ?? run.lease;
        emit(outcome.status === 'succeeded' ? { type: 'succeeded', lease: run.lease } : { type: 'failed', lease: run.lease, error: outcome.error, retry: outcome.retry === true });
        return;
      }
      if (answer.kind === 'lost') return emit({ type: 'lost', lease: run.lease, reason: answer.reason });
      if (answer.kind === 'transient') return emit({ type: 'lost', lease: run.lease, reason: 'expired' });
      emit({ type: 'error', operation: 'report', error: answer.error, lease: run.lease });
      // A result the service refuses (too large, not storable) fails the task instead of leaving it to expire and run again.
      if (outcome.status !== 'succeeded' || (answer.error.status !== 400 && answer.error.status !== 413)) return;
      body = { status: 'failed', error: truncate(`The service refused the result: ${answer.error.message}`), retry: false };
    }
  }

  async function work(lease: Lease, sentAt: number): Promise<void> {
    const run = new LeaseRun(lease, sentAt);
    emit({ type: 'claimed', lease });
    // Claimed as the worker was told to stop: it has not started, so it goes back at once.
    if (stopping.signal.aborted) return run.abandon();
    const context: TaskContext = {
      signal: run.handlerSignal.signal,
      get lease() {
        return run.lease;
      },
      progress: (progress) => run.progress(progress),
      log: {
        debug: (message, data) => run.log('debug', message, data),
        info: (message, data) => run.log('info', message, data),
        warn: (message, data) => run.log('warn', message, data),
        error: (message, data) => run.log('error', message, data),
      },
      usage: (increment) => run.usage(increment),
    };
    const settled = Promise.resolve()
      .then(() => options.handler(lease.task, context))
      .then(
        (value): Settled => ({ ok: true, value }),
        (error: unknown): Settled => ({ ok: false, error }),
      );
    const first = await Promise.race([settled, run.abandoned]);
    // Lost (the outcome is not the worker's to report any more) or being released.
    if (first === 'abandoned' || run.phase !== 'working') return;
    // The attempt's last lines go before its outcome (after it, the lease takes no more), for a
    // few seconds at most, and never past half the time the lease has left.
    await Promise.race([run.flushLogs(), sleep(Math.min(FINAL_LOG_FLUSH_MS, Math.max(0, run.deadline - Date.now()) / 2))]);
    run.beginReport();
    await report(run, first, run.takeUsage());
    run.end();
  }

  /**
   * Claims a lease with `key` as its `Idempotency-Key`: sent again after a transient failure, the
   * claim is answered with the lease the first one took, if it took one, and never takes a second.
   */
  async function claim(key: ClaimKey): Promise<{ kind: 'lease'; lease: Lease; sentAt: number } | { kind: 'empty' } | { kind: 'stopped' } | Exclude<Answer, { kind: 'ok' }>> {
    const sentAt = Date.now();
    const answer = await call(
      () =>
        client.POST('/api/v1/agents/{agent_id}/leases', {
          params: { path: agentPath },
          body: { ttl_seconds: ttlSeconds, wait_seconds: waitSeconds },
          headers: { 'Idempotency-Key': key.value },
          signal: stopping.signal,
        }),
      stopping.signal,
    );
    if (answer === undefined) return { kind: 'stopped' };
    if (answer.kind !== 'ok') return answer;
    const lease = leaseOf(answer.data);
    // A replayed lease was taken by an earlier claim with this key: its TTL may run from the first.
    return answer.status === 201 && lease !== undefined ? { kind: 'lease', lease, sentAt: answer.replayed ? key.sentAt : sentAt } : { kind: 'empty' };
  }

  async function loop(): Promise<void> {
    let failures = 0;
    let key: ClaimKey | undefined;
    while (!stopping.signal.aborted) {
      claiming += 1;
      key ??= { value: randomKey(), sentAt: Date.now() };
      const outcome = await claim(key);
      // Only a claim that may not have been answered is sent again as itself; the service keeps every other answer.
      if (outcome.kind !== 'transient') key = undefined;
      if (outcome.kind === 'transient' || (outcome.kind === 'refused' && outcome.error.status === 409)) {
        // 409 to a claim: the agent is paused or errored; it may be resumed.
        const retryInMs = Math.max(outcome.kind === 'transient' ? (outcome.retryAfterMs ?? 0) : 0, delayFor(failures));
        failures += 1;
        emit({ type: 'error', operation: 'claim', error: outcome.error, retryInMs });
        await sleep(retryInMs, stopping.signal);
      } else if (outcome.kind === 'refused' || outcome.kind === 'lost') {
        fatal ??= { error: outcome.error };
        emit({ type: 'error', operation: 'claim', error: outcome.error });
        stopping.abort();
      } else if (outcome.kind === 'empty') {
        failures = 0;
        if (waitSeconds <= 0) await sleep(initialMs, stopping.signal);
      } else {
        failures = 0;
      }
      claiming -= 1;
      if (outcome.kind === 'lease') await work(outcome.lease, outcome.sentAt);
    }
    settle();
  }

  const worker: Worker = {
    start() {
      if (stopping.signal.aborted) throw new Error('A stopped worker does not start again: create another');
      if (!started) {
        started = true;
        for (let slot = 0; slot < concurrency; slot += 1) void loop();
      }
      return worker;
    },
    stop({ graceful = true, timeoutMs }: StopOptions = {}) {
      stopping.abort();
      const limitMs = graceful ? timeoutMs : 0;
      if (limitMs !== undefined) {
        const timer = setTimeout(() => {
          for (const run of runs) void run.abandon();
        }, limitMs);
        void done.catch(() => undefined).finally(() => clearTimeout(timer));
      }
      settle();
      return done.catch(() => undefined);
    },
    done,
  };
  return worker;
}

function answerOf(result: Result): Answer {
  const { status } = result.response;
  if (result.response.ok) return { kind: 'ok', status, data: result.data, replayed: result.response.headers.get('Idempotent-Replayed') === 'true' };
  const error = new AgentFleetError(result.response, result.error);
  // 409 IDEMPOTENCY_KEY_IN_USE: the same claim, sent earlier, is still running; its answer comes to this one later.
  if (status === 408 || status === 429 || status >= 500 || (status === 409 && isKeyInUseBody(result.error))) {
    return { kind: 'transient', error, ...optional('retryAfterMs', retryAfterMs(result.response.headers.get('Retry-After'))) };
  }
  const body = result.error as { error?: { code?: unknown; details?: { reason?: LeaseLostReason } } } | undefined;
  if (status === 409 && body?.error?.code === 'LEASE_LOST') return { kind: 'lost', reason: body.error.details?.reason ?? 'refused', error };
  return { kind: 'refused', error };
}

/** Two usage reports as one: counts and cost added, the later model named. */
function addUsage(pending: UsageIncrement | undefined, more: UsageIncrement): UsageIncrement {
  if (pending === undefined) return { ...more };
  const sum = (a: number | undefined, b: number | undefined) => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));
  return {
    ...optional('input_tokens', sum(pending.input_tokens, more.input_tokens)),
    ...optional('output_tokens', sum(pending.output_tokens, more.output_tokens)),
    ...optional('cost_usd', sum(pending.cost_usd, more.cost_usd)),
    ...optional('model', more.model ?? pending.model),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function leaseOf(data: unknown): Lease | undefined {
  return typeof data === 'object' && data !== null && 'data' in data ? (data as { data: Lease }).data : undefined;
}

function outcomeOf(settled: Settled): Extract<LeaseUpdate, { status: string }> {
  if (settled.ok) {
    if (settled.value === undefined) return { status: 'succeeded' };
    try {
      JSON.stringify(settled.value);
    } catch (error) {
      return { status: 'failed', error: truncate(`The handler's result is not JSON: ${messageOf(error)}`), retry: false };
    }
    return { status: 'succeeded', result: settled.value };
  }
  const { error } = settled;
  const permanent = typeof error === 'object' && error !== null && (error as { retry?: unknown }).retry === false;
  return { status: 'failed', error: truncate(messageOf(error)), retry: !permanent };
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text === '' ? 'The handler failed' : text;
}

function truncate(text: string): string {
  return text.length <= MAX_ERROR_CHARS ? text : `${text.slice(0, MAX_ERROR_CHARS - 1)}…`;
}

/** Waits `ms`, or less when `signal` aborts (it resolves either way). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const timer = setTimeout(finish, ms);
    function finish(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', finish);
      resolve();
    }
    signal?.addEventListener('abort', finish, { once: true });
  });
}
