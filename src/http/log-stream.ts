import type { Request, Response } from 'express';
import type { Store } from '../data/store';
import { readLogs, type LogFilter } from '../domain/fleet-health';
import type { LogLine } from '../model';
import { STREAM_HEADERS } from './event-stream';

export interface LogStreamSettings {
  /** How often the stream reads the task's new lines (appends on any instance are seen within it). */
  pollMs: number;
  /** A comment line this often, and the credential checked again. */
  heartbeatMs: number;
  retryMs?: number;
  /** Whether the process drains: the stream ends, and its client reconnects elsewhere. */
  draining: () => boolean;
}

/** Lines read per look while the stream catches up. */
const PAGE = 500;
/** A finished task gets lines only if it runs again: its stream looks this many times less often. */
const FINISHED_SLOWDOWN = 10;
const FINISHED: ReadonlySet<string> = new Set(['succeeded', 'failed', 'cancelled']);

const frameLine = (line: LogLine) => `id: ${line.id}\nevent: log\ndata: ${JSON.stringify(line)}\n\n`;

/**
 * Follows a task's log as Server-Sent Events: the kept lines after the cursor first, then each new
 * one as it is read (every `pollMs`; ten times less often while the task is finished), until the client leaves, the process drains or the
 * credential stops working. The reader's task has been found (the reader may see it).
 */
export async function followLogs(
  req: Pick<Request, 'method' | 'socket'>,
  res: Response,
  store: Store,
  task: { agent_id: string; id: string },
  filter: LogFilter,
  settings: LogStreamSettings,
  stillAuthenticated: () => Promise<boolean>,
): Promise<void> {
  const retryMs = settings.retryMs ?? 3000;
  res.status(200).set(STREAM_HEADERS);
  if (req.method === 'HEAD') return void res.end();
  if (settings.draining()) return void res.end(`retry: ${retryMs}\n\n`);
  res.flushHeaders();
  req.socket.setNoDelay(true);
  res.write(`retry: ${retryMs}\n\n`);
  let ended = false;
  let wake: (() => void) | undefined;
  const finish = () => {
    ended = true;
    wake?.();
  };
  res.once('close', finish);
  const heartbeat = setInterval(() => {
    res.write(': keep-alive\n\n');
    stillAuthenticated().then(
      (valid) => {
        if (!valid) finish();
      },
      () => undefined,
    );
  }, settings.heartbeatMs);
  heartbeat.unref();
  let after = filter.after;
  let finished = false;
  let quiet = 0;
  try {
    while (!ended && !settings.draining()) {
      const page = await readLogs(store, task.id, { ...filter, after }, PAGE);
      for (const line of page.items) res.write(frameLine(line));
      after = page.items.at(-1)?.id ?? after;
      if (page.hasMore) continue;
      quiet = page.items.length > 0 ? 0 : quiet + 1;
      // Whether the task still runs is read again now and then, not at every look.
      if (quiet % FINISHED_SLOWDOWN === 1) finished = FINISHED.has((await store.tasks.find(task.agent_id, task.id))?.status ?? 'cancelled');
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, finished ? settings.pollMs * FINISHED_SLOWDOWN : settings.pollMs).unref();
      });
      wake = undefined;
    }
  } finally {
    clearInterval(heartbeat);
    res.off('close', finish);
    if (!res.writableEnded) res.end();
  }
}
