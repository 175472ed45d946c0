import type { Store } from '../data/store';
import { purgeExpiredKeys } from '../domain/idempotency';
import type { Logger } from '../logger';

/** How often each process deletes expired Idempotency-Keys: an expired row still in the table is taken over by its next request anyway. */
export const IDEMPOTENCY_PURGE_INTERVAL_MS = 5 * 60_000;

export interface IdempotencyPurge {
  /** No purge starts from now on; resolves once the one under way (if any) has ended. */
  stop(): Promise<void>;
}

/**
 * Deletes expired Idempotency-Keys every `intervalMs`, in every process that serves: purges that
 * overlap across processes delete each row once (a delete of a row already gone deletes nothing).
 * A failed purge (the database is away) is logged and the next tries again.
 */
export function startIdempotencyPurge(store: Store, logger: Logger, intervalMs = IDEMPOTENCY_PURGE_INTERVAL_MS): IdempotencyPurge {
  let running: Promise<void> | undefined;
  const purge = () => {
    if (running) return;
    running = purgeExpiredKeys(store)
      .then((purged) => {
        if (purged > 0) logger.info({ purged }, 'expired idempotency keys purged');
      })
      .catch((error: unknown) => logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'idempotency key purge failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(purge, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
