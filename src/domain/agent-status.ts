import { stateConflict } from '../errors';
import type { AgentStatus } from '../model';

/** What an operator may ask for, from each status; `running` is never asked for, only reached. */
const operatorTransitions: Record<AgentStatus, readonly AgentStatus[]> = {
  idle: ['paused', 'error'],
  running: ['paused', 'error'],
  paused: ['idle'],
  error: ['paused', 'idle'],
};

/**
 * The status an agent takes when an operator asks for `requested`. Resuming an agent whose
 * tasks are still running makes it `running`: its status follows its tasks.
 */
export function resolveOperatorStatus(current: AgentStatus, requested: AgentStatus, runningTasks: number): AgentStatus {
  if (requested === current) return current;
  if (!operatorTransitions[current].includes(requested)) {
    throw stateConflict(`Cannot change agent status from ${current} to ${requested}`, { from: current, to: requested });
  }
  return requested === 'idle' && runningTasks > 0 ? 'running' : requested;
}

/** Tasks start only on an agent that is working or waiting for work. */
export function canStartTasks(status: AgentStatus): boolean {
  return status === 'idle' || status === 'running';
}

export function canAcceptTasks(status: AgentStatus): boolean {
  return status !== 'paused';
}

/** The agent's status once a task has started on it. */
export const statusAfterTaskStart = (status: AgentStatus): AgentStatus => (status === 'idle' ? 'running' : status);

/** The agent's status once one of its tasks stopped running and `stillRunning` others remain. */
export const statusAfterTaskStop = (status: AgentStatus, stillRunning: number): AgentStatus =>
  status === 'running' && stillRunning === 0 ? 'idle' : status;
