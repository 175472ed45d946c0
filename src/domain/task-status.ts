import { stateConflict } from '../errors';
import type { TaskStatus } from '../model';

const transitions: Record<TaskStatus, readonly TaskStatus[]> = {
  queued: ['running', 'cancelled'],
  running: ['succeeded', 'failed', 'cancelled'],
  succeeded: [],
  failed: [],
  cancelled: [],
};

/** Every status a task can be in, in the order of its life. */
export const TASK_STATUSES = Object.keys(transitions) as readonly TaskStatus[];

export const isTerminal = (status: TaskStatus): boolean => transitions[status].length === 0;

export function assertTaskTransition(from: TaskStatus, to: TaskStatus): void {
  if (from === to) throw stateConflict(`Task is already ${from}`, { from, to });
  if (!transitions[from].includes(to)) {
    const why = isTerminal(from) ? ` (a ${from} task never changes)` : '';
    throw stateConflict(`Cannot change task status from ${from} to ${to}${why}`, { from, to });
  }
}
