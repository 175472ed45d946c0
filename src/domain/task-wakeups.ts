/**
 * Wakes the claims of this process that wait for an agent's next task (a long poll) when one is
 * queued here. Claims waiting on other instances find it by looking again on their own (see
 * RECHECK_MS in leases.ts): nothing about waiting is shared between processes.
 */
export interface TaskWakeups {
  /** A task of the agent was queued (created, released, or queued again): every claim waiting on it looks now. */
  notify(agentId: string): void;
  /** Resolves after `ms`, or sooner when the agent's task is queued, `signal` aborts, or the wakeups close. */
  wait(agentId: string, ms: number, signal?: AbortSignal): Promise<void>;
  /** The process drains: every wait ends now, and later ones at once. */
  close(): void;
  readonly closed: boolean;
}

export function createTaskWakeups(): TaskWakeups {
  const waiting = new Map<string, Set<() => void>>();
  let closed = false;
  const wakeAll = (agentId: string) => {
    const wakers = waiting.get(agentId);
    if (!wakers) return;
    waiting.delete(agentId);
    for (const wake of wakers) wake();
  };
  return {
    notify: wakeAll,
    wait(agentId, ms, signal) {
      if (closed || signal?.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', wake);
          waiting.get(agentId)?.delete(wake);
          if (waiting.get(agentId)?.size === 0) waiting.delete(agentId);
          resolve();
        };
        const timer = setTimeout(wake, ms);
        signal?.addEventListener('abort', wake, { once: true });
        let wakers = waiting.get(agentId);
        if (!wakers) waiting.set(agentId, (wakers = new Set()));
        wakers.add(wake);
      });
    },
    close() {
      closed = true;
      for (const agentId of [...waiting.keys()]) wakeAll(agentId);
    },
    get closed() {
      return closed;
    },
  };
}
