// One event stream for the whole page: every view subscribes to what it shows and refreshes when
// something it shows changes. The typed client reconnects by itself and resumes after the last
// event with Last-Event-ID, so nothing is missed across a drop.
import type { FleetEvent } from '@agent-fleet/client';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';

export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'stopped' | 'signed-out';
type Listener = (event: FleetEvent) => void;

const listeners = new Set<Listener>();
const stateListeners = new Set<(state: LiveState) => void>();
let state: LiveState = 'connecting';

function setState(next: LiveState): void {
  // Only a new page signs in again.
  if (next === state || state === 'signed-out') return;
  state = next;
  for (const listener of stateListeners) listener(state);
}

/** What an event says changed (its `data` without `previous_status`), to lay over what is shown. */
export function changesOf<T>(event: FleetEvent): Partial<T> {
  const { previous_status: _previous, ...fields } = event.data as Record<string, unknown>;
  return fields as Partial<T>;
}

/** Opens the page's stream; called once at start. */
export async function followEvents(signal: AbortSignal): Promise<void> {
  try {
    for await (const event of api.events({ signal, onOpen: () => setState('live'), onReconnect: () => setState('reconnecting') })) {
      for (const listener of listeners) listener(event);
    }
  } catch {
    // Refused for good (a 401 has said so already): the views still show what they last read.
  }
  setState('stopped');
}

/** The session is over: the bar says so and offers to sign in again. */
export function markSignedOut(): void {
  setState('signed-out');
}

/** Calls `listener` for each event while the component is mounted. */
export function useEvents(listener: Listener, deps: readonly unknown[]): void {
  useEffect(() => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
}

export function useLiveState(): LiveState {
  const [current, setCurrent] = useState(state);
  useEffect(() => {
    stateListeners.add(setCurrent);
    setCurrent(state);
    return () => void stateListeners.delete(setCurrent);
  }, []);
  return current;
}
