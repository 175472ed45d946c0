import { sweepExpiredLeases, type WorkQueue } from '../domain/leases';
import type { Logger } from '../logger';

export interface LeaseSweeper {
  /** No sweep starts from now on; resolves once the one under way (if any) has ended. */
  stop(): Promise<void>;
}

/**
 * Ends expired leases every `intervalMs`, in every process that serves (each instance, each
 * cluster worker): sweeps that overlap across processes never handle a lease twice (see
 * sweepExpiredLeases). A sweep never overlaps the previous one of its own process; a failed one
 * (the database is away) is logged and the next tries again.
 */
export function startLeaseSweeper(queue: WorkQueue, intervalMs: number, logger: Logger): LeaseSweeper {
  let running: Promise<void> | undefined;
  const sweep = () => {
    if (running) return;
    running = sweepExpiredLeases(queue)
      .then((ended) => {
        if (ended > 0) logger.info({ ended }, 'expired leases ended');
      })
      .catch((error: unknown) => logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'lease sweep failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
