import type { Logger } from '../logger';

export interface PeriodicJob {
  /** No run starts from now on; resolves once the one under way (if any) has ended. */
  stop(): Promise<void>;
}

export interface PeriodicWork {
  intervalMs: number;
  /** One run; answers how many things it handled (logged when more than none). */
  run: () => Promise<number>;
  /** The log message of a run that handled something, e.g. `expired leases ended`. */
  done: string;
  /** The log message of a run that failed. */
  failed: string;
}

/**
 * Runs maintenance every `intervalMs` in every process that serves (each instance, each cluster
 * worker): work that must be safe when processes overlap (sweeping leases, pruning events,
 * purging idempotency keys). A run never overlaps the previous one of its own process; a failed
 * one (the database is away) is logged and the next tries again.
 */
export function startPeriodicJob(work: PeriodicWork, logger: Logger): PeriodicJob {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = work
      .run()
      .then((count) => {
        if (count > 0) logger.info({ count }, work.done);
      })
      .catch((error: unknown) => logger.warn({ err: error instanceof Error ? error.message : String(error) }, work.failed))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, work.intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
