// The console's small shared pieces: status badges (a word and a shape, never colour alone),
// loading, error and empty states, times, and a copy button.
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/** A status as a word with a mark: the colour repeats what the word and the mark already say. `label`: the word, when the status's own name does not read well (`timed_out`). */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return (
    <span class={`status status-${status}`}>
      <span class="status-mark" aria-hidden="true" />
      {label ?? status}
    </span>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status">
      Loading {what}…
    </p>
  );
}

export function Problem({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div class="problem" role="alert">
      <p>{message}</p>
      {onRetry && (
        <button type="button" class="secondary" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <div class="empty">{children}</div>;
}

const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export function Time({ at }: { at: string | null | undefined }) {
  if (!at) return <span class="muted">—</span>;
  const date = new Date(at);
  return <time dateTime={at}>{Number.isNaN(date.getTime()) ? at : DATE_TIME.format(date)}</time>;
}

const SHORT_DATE = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const CLOCK = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** How far `at` is from `now`, in a few characters: "now", "42 s ago", "5 min ago", "3 h ago", "in 40 s", else the date. */
export function relativeText(at: string, now: number = Date.now()): string {
  const date = new Date(at);
  const ms = date.getTime();
  if (Number.isNaN(ms)) return at;
  const seconds = Math.round((now - ms) / 1000);
  const span = Math.abs(seconds);
  const said = (amount: string) => (seconds >= 0 ? `${amount} ago` : `in ${amount}`);
  if (span < 5) return 'now';
  if (span < 60) return said(`${span} s`);
  if (span < 3600) return said(`${Math.round(span / 60)} min`);
  if (span < 86_400) return said(`${Math.round(span / 3600)} h`);
  return SHORT_DATE.format(date);
}

/** A time as a table shows it: compact ("5 min ago"), the full date and time on hover and for screen readers' `datetime`. */
export function Ago({ at, now }: { at: string | null | undefined; now?: number }) {
  if (!at) return <span class="muted">—</span>;
  const date = new Date(at);
  return (
    <time dateTime={at} title={Number.isNaN(date.getTime()) ? at : DATE_TIME.format(date)}>
      {relativeText(at, now)}
    </time>
  );
}

/** A clock time (14:05), for a chart's axis. */
export const clockText = (at: string | number): string => CLOCK.format(new Date(at));

/** Seconds for people: "850 ms", "4.2 s", "3 min 5 s", "2 h 10 min"; a dash when nothing was measured. */
export function durationText(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}

/** A span of whole seconds as it was most likely typed: "45 s", "5 min", "2 h" (the largest unit it is a whole number of). */
export function secondsText(seconds: number): string {
  if (seconds >= 3600 && seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

const COUNT = new Intl.NumberFormat(undefined);
export const countText = (value: number): string => COUNT.format(value);

/**
 * Dollars as a bill reads them: to the cent from a dollar up; below, to four decimals (a model
 * call costs fractions of a cent), and to the millionth the service keeps below a hundredth of a cent.
 */
export function costText(usd: number): string {
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  const digits = usd !== 0 && usd < 0.0001 ? 6 : 4;
  const text = usd.toFixed(digits).replace(/0+$/, '');
  // At least the cents: "$0.50", not "$0.5".
  return `$${text.length - text.indexOf('.') < 3 ? usd.toFixed(2) : text}`;
}

/** Refreshes the component every `ms` (times shown as "5 min ago" move on); answers the time of the last one. */
export function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/** The view's heading, focused when the view opens so that keyboard and screen-reader users land on it. */
export function ViewHeading({ children }: { children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (document.activeElement === document.body || document.activeElement?.closest('nav')) heading.current?.focus();
  }, []);
  return (
    <h1 tabIndex={-1} ref={heading}>
      {children}
    </h1>
  );
}

/** Copies `text`; says so (or that it could not) beside the button. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid('Copied.');
    } catch {
      setSaid('Copying is not allowed here: select the text and copy it.');
    }
  };
  return (
    <span class="copy">
      <button type="button" class="secondary" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" class="muted">
        {said}
      </span>
    </span>
  );
}

/** A progress report: a bar with its percent when there is one, and the worker's message. */
export function ProgressBar({ progress, label }: { progress: { percent?: number; message?: string }; label: string }) {
  const percent = progress.percent === undefined ? undefined : Math.min(100, Math.max(0, Math.round(progress.percent)));
  return (
    <div class="task-progress">
      {percent !== undefined && (
        <>
          <progress max={100} value={percent} aria-label={label} />
          <span>{percent}%</span>
        </>
      )}
      {progress.message && <span class="task-progress-message">{progress.message}</span>}
    </div>
  );
}

/**
 * Moves the focus to `on` or `off` as `shown` flips between them, once the person has flipped it
 * (never at the first render), so that a keyboard user is never left on nothing. Answers what to
 * call as they flip it.
 */
export function useFocusFollows(shown: boolean, on: { current: HTMLElement | null }, off: { current: HTMLElement | null }): () => void {
  const moved = useRef(false);
  // A layout effect: the focus lands as the swap is drawn, not a frame later.
  useLayoutEffect(() => {
    if (!moved.current) return;
    (shown ? on : off).current?.focus();
  }, [shown]);
  return () => {
    moved.current = true;
  };
}

/** What is wrong with one field (said by the form, or by the service's 400), under it; see `invalidProps`. */
export function FieldProblem({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} class="field-problem wide" role="alert">
      {message}
    </p>
  );
}

/** A field's attributes while `message` says it is wrong: marked invalid, and described by its FieldProblem. */
export function invalidProps(id: string, message: string | undefined): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  return message ? { 'aria-invalid': true, 'aria-describedby': id } : {};
}

/** JSON for people: indented, in a scrollable block that keeps the page from scrolling sideways. */
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  return (
    <pre class="json" aria-label={label} tabIndex={0}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}
