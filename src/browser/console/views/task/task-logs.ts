// A task's log, live: the typed client's stream of its lines (`taskLogs`, Server-Sent Events with
// the session cookie, as the page's event stream), which sends the lines the task keeps and then
// each new one, and resumes after the last line seen when a connection drops. The level and
// attempt filters are the service's: a new filter is a new stream.
import type { components } from '@agent-fleet/client';
import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from '../../../api';

export type LogLine = components['schemas']['LogLine'];
export type LogLevel = components['schemas']['LogLevel'];
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** The most lines the page holds (a task keeps up to 10,000): past them the oldest shown go. */
export const MAX_LINES = 2000;
/** Lines arriving together (a task's kept lines come at once) are shown in one render. */
const BATCH_MS = 50;

export interface LogFilter {
  /** Lines at this level or above; undefined for every level. */
  level: LogLevel | undefined;
  /** One attempt's lines; undefined for all. */
  attempt: number | undefined;
}

export interface TaskLog {
  lines: LogLine[];
  /** Lines received but no longer held (beyond MAX_LINES). */
  dropped: number;
  state: 'connecting' | 'live' | 'reconnecting' | 'stopped';
  problem: string | undefined;
}

const EMPTY: TaskLog = { lines: [], dropped: 0, state: 'connecting', problem: undefined };

export function useTaskLog(agentId: string, taskId: string, filter: LogFilter): TaskLog {
  const [log, setLog] = useState<TaskLog>(EMPTY);
  useEffect(() => {
    setLog(EMPTY);
    const controller = new AbortController();
    let arrived: LogLine[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const batch = arrived;
      arrived = [];
      setLog((current) => {
        const lines = current.lines.concat(batch);
        const over = Math.max(0, lines.length - MAX_LINES);
        return { ...current, lines: over > 0 ? lines.slice(over) : lines, dropped: current.dropped + over };
      });
    };
    const setState = (state: TaskLog['state']) => setLog((current) => (current.state === state ? current : { ...current, state }));
    void (async () => {
      try {
        const stream = api.taskLogs(agentId, taskId, {
          ...(filter.level === undefined ? {} : { level: filter.level }),
          ...(filter.attempt === undefined ? {} : { attempt: filter.attempt }),
          signal: controller.signal,
          onOpen: () => setState('live'),
          onReconnect: () => setState('reconnecting'),
        });
        for await (const line of stream) {
          arrived.push(line);
          timer ??= setTimeout(flush, BATCH_MS);
        }
      } catch (failure) {
        if (!controller.signal.aborted) setLog((current) => ({ ...current, problem: messageOf(failure, 'The log could not be followed. Reload the page to try again.') }));
      }
      if (!controller.signal.aborted) setState('stopped');
    })();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [agentId, taskId, filter.level, filter.attempt]);
  return log;
}
