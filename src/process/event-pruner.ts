import { pruneEvents } from '../domain/events';
import type { Store } from '../data/store';
import type { Logger } from '../logger';

export interface EventPruner {
  /** No prune starts from now on; resolves once the one under way (if any) has ended. */
  stop(): Promise<void>;
}

/** How often each process prunes the event log. */
export const PRUNE_INTERVAL_MS = 60_000;

/**
 * Deletes events older than the retention every minute, in every process that serves: prunes that
 * overlap across processes delete the same rows at worst. A failed one is logged and the next
 * tries again.
 */
export function startEventPruner(store: Store, retentionHours: number, logger: Logger, intervalMs = PRUNE_INTERVAL_MS): EventPruner {
  let running: Promise<void> | undefined;
  const prune = () => {
    if (running) return;
    running = pruneEvents(store, retentionHours)
      .then((pruned) => {
        if (pruned > 0) logger.info({ pruned }, 'old events pruned');
      })
      .catch((error: unknown) => logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'event pruning failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(prune, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
