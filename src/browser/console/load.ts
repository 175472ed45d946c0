// Loading what a view shows. Events patch the shown data at once (no request); a fresh read then
// reconciles it, at most every RECONCILE_MS while events flow, so that a busy fleet costs one
// request per view every half minute and never exhausts the API's rate limit. A tab nobody looks at
// reads nothing: its reconcile waits until the tab is shown again.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from '../api';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  /** Changes the shown data (from an event) without a request. */
  patch: (change: (data: T) => T) => void;
  /** Reads again now (after a change made here, or when asked). */
  reload: () => void;
  /** Reads again within RECONCILE_MS: many calls make one read. */
  reconcile: () => void;
}

export const RECONCILE_MS = 30_000;

/**
 * `keep`: when `deps` change, the data read with the old ones stays shown (with `loading`) until the
 * new read answers, so that the controls which asked for it (a table's "Next") stay where they are.
 */
export function useLoad<T>(read: () => Promise<T>, deps: readonly unknown[], options: { keep?: boolean } = {}): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const lastRead = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** A reconcile came due while the tab was hidden: it reads once the tab is shown. */
  const stale = useRef(false);

  const reload = useCallback(() => {
    const mine = ++generation.current;
    stale.current = false;
    clearTimeout(timer.current);
    timer.current = undefined;
    lastRead.current = Date.now();
    setLoading(true);
    read().then(
      (value) => {
        if (mine !== generation.current) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (mine !== generation.current) return;
        setError(messageOf(failure, 'This could not be loaded. Please try again.'));
        setLoading(false);
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);

  const reconcile = useCallback(() => {
    if (timer.current !== undefined || stale.current) return;
    const wait = Math.max(1000, lastRead.current + RECONCILE_MS - Date.now());
    timer.current = setTimeout(() => {
      timer.current = undefined;
      if (document.visibilityState === 'hidden') stale.current = true;
      else reload();
    }, wait);
  }, [reload]);

  useEffect(() => {
    const shown = () => {
      if (document.visibilityState !== 'visible' || !stale.current) return;
      reload();
    };
    document.addEventListener('visibilitychange', shown);
    return () => document.removeEventListener('visibilitychange', shown);
  }, [reload]);

  const patch = useCallback((change: (current: T) => T) => setData((current) => (current === undefined ? current : change(current))), []);

  const keep = options.keep === true;
  useEffect(() => {
    if (!keep) setData(undefined);
    reload();
    return () => {
      generation.current += 1;
      clearTimeout(timer.current);
      timer.current = undefined;
    };
  }, [reload, keep]);

  return { data, error, loading, patch, reload, reconcile };
}

/**
 * `reload` as a timer calls it: at once while the tab is visible; a hidden tab reads nothing, and
 * reads once when it is shown again. `stop` ends the watch of the tab.
 */
function visibleReload(reload: () => void): { tick: () => void; stop: () => void } {
  let missed = false;
  const shown = () => {
    if (document.visibilityState !== 'visible' || !missed) return;
    missed = false;
    reload();
  };
  document.addEventListener('visibilitychange', shown);
  return {
    tick: () => {
      if (document.visibilityState === 'hidden') missed = true;
      else reload();
    },
    stop: () => document.removeEventListener('visibilitychange', shown),
  };
}

/**
 * Reads again every `ms` while the tab is visible, for figures that change without an event (a
 * worker's heartbeat, a lease nearing its expiry). A hidden tab reads nothing, as above: it reads
 * once when it is shown again.
 */
export function useEvery(ms: number, reload: () => void): void {
  useEffect(() => {
    const watch = visibleReload(reload);
    const timer = setInterval(watch.tick, ms);
    return () => {
      clearInterval(timer);
      watch.stop();
    };
  }, [ms, reload]);
}

/** Reads again once, `ms` from now (never when undefined), as `useEvery` does: a hidden tab reads when shown. */
export function useAfter(ms: number | undefined, reload: () => void): void {
  useEffect(() => {
    if (ms === undefined) return undefined;
    const watch = visibleReload(reload);
    const timer = setTimeout(watch.tick, ms);
    return () => {
      clearTimeout(timer);
      watch.stop();
    };
  }, [ms, reload]);
}
