import type { Logger } from '../logger';

/** Shared counters (REDIS_URL), and how fast the service stops waiting for them. */
export interface RedisConfig {
  url: string;
  /** Each command's deadline (REDIS_COMMAND_TIMEOUT_MS): the most a slow or dead Redis adds to a request. */
  commandTimeoutMs: number;
  /** Consecutive failures that open the circuit: Redis is then skipped (REDIS_BREAKER_FAILURES). */
  breakerFailures: number;
  /** While the circuit is open, a background PING this often (REDIS_BREAKER_PROBE_MS). */
  probeIntervalMs: number;
}

/** Why a command did not get Redis's answer. */
export type RedisFailure = 'timeout' | 'error' | 'circuit_open';

/** Redis could not answer in time: callers fail open (rate limits and sign-in counting fall back). */
export class RedisUnavailableError extends Error {
  constructor(readonly reason: RedisFailure, cause?: unknown) {
    super(reason === 'circuit_open' ? 'Redis is unavailable (circuit open)' : `Redis command failed (${reason})`, { cause });
    this.name = 'RedisUnavailableError';
  }
}

/** What the service learns about Redis: one call per failed command, one per change of state. */
export interface RedisObserver {
  failure(reason: RedisFailure): void;
  availability(available: boolean): void;
}

export interface RedisConnection {
  /** One raw command, answered within the deadline or rejected with RedisUnavailableError. */
  sendCommand(args: string[]): Promise<unknown>;
  /** Whether the circuit is closed: commands are being sent. */
  available(): boolean;
  /** A PING through the circuit (false at once while it is open). */
  ping(): Promise<boolean>;
  /**
   * Calls `listener` on each message of `channel`, heard on a connection of its own (reconnected,
   * and subscribed again, by node-redis); answers how to unsubscribe. Resolves at once: while Redis
   * is away nothing is heard.
   */
  subscribe(channel: string, listener: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

class DeadlineError extends Error {}

/**
 * The deadline measures Redis, not this process's own stalls (a long synchronous task, such as
 * building the app while its rate limiters load their scripts). node-redis writes a command in a
 * setImmediate of its own: the clock starts in the next one, once the command is on the socket,
 * so a stall before the write does not count. Timers run before I/O in each turn of the event
 * loop: after a stall during the wait, a reply that arrived in time would lose to its own
 * deadline, so the deadline too waits for a setImmediate and lets the pending I/O be read first.
 */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let settled = false;
  const deadline = new Promise<never>((_resolve, reject) => {
    setImmediate(() => {
      if (!settled) timer = setTimeout(() => setImmediate(() => reject(new DeadlineError(`no answer within ${ms} ms`))), ms);
    });
  });
  return Promise.race([work, deadline]).finally(() => {
    settled = true;
    clearTimeout(timer);
  });
}

/** Commands that may be waiting on a frozen Redis at once; beyond it node-redis refuses at once. */
const MAX_QUEUED_COMMANDS = 10_000;

/**
 * Connects to Redis behind a deadline and a circuit breaker. Every command gets `commandTimeoutMs`;
 * after `breakerFailures` failures in a row the circuit opens and commands fail at once (the
 * callers fail open), while a background PING every `probeIntervalMs` closes it again when Redis
 * answers. A Redis that is down at start is the same as one that goes down later: the service
 * starts with the circuit open.
 *
 * It resolves once the first connection is established or has failed, or at the connect deadline
 * (then as failed), whichever comes first: a service awaits it before it listens, so its first
 * answer already knows whether Redis is up, and it starts in time whatever Redis does. A first
 * connection still under way at the deadline goes on, and the circuit closes the moment it is
 * established (not at the next probe).
 */
export async function connectRedis(config: RedisConfig, logger: Pick<Logger, 'info' | 'warn' | 'debug'>, observer?: RedisObserver): Promise<RedisConnection> {
  // node-redis is some 20 MB of modules: loaded only by a service that uses Redis.
  const { createClient, ErrorReply } = await import('redis');
  const connectDeadlineMs = Math.max(1000, config.commandTimeoutMs * 10);
  const client = createClient({
    url: config.url,
    // Queued commands would wait for a reconnection: refused at once instead, and counted.
    disableOfflineQueue: true,
    commandsQueueMaxLength: MAX_QUEUED_COMMANDS,
    socket: {
      connectTimeout: connectDeadlineMs,
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000),
    },
  });
  let lastError = '';
  // Without a listener node-redis would crash the process; reconnection attempts are not news
  // (the circuit's changes of state are logged instead).
  client.on('error', (error: Error) => {
    lastError = error.message;
    logger.debug({ err: error.message }, 'redis connection problem');
  });

  // Closed only once the first connection is established: until then there is nothing to send to.
  let open = true;
  let settled = false;
  let failures = 0;
  let closed = false;
  let probe: NodeJS.Timeout | undefined;

  const openCircuit = (reason: RedisFailure) => {
    if (open || closed) return;
    open = true;
    logger.warn(
      { reason, failures, err: lastError || undefined },
      'redis unavailable: circuit open, rate limits and sign-in throttling count per instance or not at all until it answers again',
    );
    observer?.availability(false);
    scheduleProbe();
  };
  const closeCircuit = () => {
    if (!open || closed) return;
    open = false;
    failures = 0;
    clearTimeout(probe);
    logger.info('redis available again: circuit closed, shared counting resumed');
    observer?.availability(true);
  };
  const scheduleProbe = () => {
    clearTimeout(probe);
    probe = setTimeout(async () => {
      const answered = await withDeadline(client.sendCommand(['PING']), config.commandTimeoutMs).then(
        () => true,
        () => false,
      );
      if (closed || !open) return;
      if (answered) closeCircuit();
      else scheduleProbe();
    }, config.probeIntervalMs);
    probe.unref();
  };

  const sendCommand = async (args: string[]): Promise<unknown> => {
    if (open) {
      observer?.failure('circuit_open');
      throw new RedisUnavailableError('circuit_open');
    }
    try {
      const reply = await withDeadline(client.sendCommand(args), config.commandTimeoutMs);
      failures = 0;
      return reply;
    } catch (error) {
      // Redis answered, with an error of its own (NOSCRIPT, WRONGTYPE): it is up, the caller decides.
      if (error instanceof ErrorReply) throw error;
      const reason: RedisFailure = error instanceof DeadlineError ? 'timeout' : 'error';
      observer?.failure(reason);
      failures += 1;
      if (failures >= config.breakerFailures) openCircuit(reason);
      throw new RedisUnavailableError(reason, error);
    }
  };

  let settle: (established: boolean) => void = () => undefined;
  const firstConnection = new Promise<void>((resolve) => {
    settle = (established: boolean) => {
      if (settled || closed) return resolve();
      settled = true;
      // Out of its initial state: closed, or opened the way failures open it (a warning, a probe).
      open = false;
      if (established) observer?.availability(true);
      else {
        failures = config.breakerFailures;
        openCircuit('error');
      }
      resolve();
    };
    client.once('error', () => settle(false));
    // Each (re)connection that completes its handshake: Redis answers again, whatever the circuit said.
    client.on('ready', () => (settled ? closeCircuit() : settle(true)));
  });
  // A Redis that is down at start: the client keeps reconnecting in the background.
  client.connect().catch(() => undefined);
  // At the deadline the first attempt counts as failed: the service starts degraded, and the
  // connection, if it is made later, closes the circuit then.
  await withDeadline(firstConnection, connectDeadlineMs).catch(() => settle(false));

  return {
    sendCommand,
    available: () => !open,
    ping: () => sendCommand(['PING']).then(
      () => true,
      () => false,
    ),
    subscribe: async (channel, listener) => {
      const subscriber = client.duplicate();
      subscriber.on('error', (error: Error) => logger.debug({ err: error.message }, 'redis subscriber connection problem'));
      // Each (re)connection may have missed messages: the listener reads for itself.
      subscriber.on('ready', () => listener());
      subscriber.connect().then(
        () => subscriber.subscribe(channel, () => listener()),
        () => undefined,
      ).catch(() => undefined);
      return async () => {
        await withDeadline(subscriber.close(), 1000).catch(() => {
          try {
            subscriber.destroy();
          } catch {
            // never connected: nothing to destroy
          }
        });
      };
    },
    close: async () => {
      closed = true;
      clearTimeout(probe);
      // A frozen Redis would never acknowledge a graceful QUIT.
      await withDeadline(client.close(), 1000).catch(() => client.destroy());
    },
  };
}
