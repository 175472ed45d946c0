// The console's small shared pieces: status badges (a word and a shape, never colour alone),
// loading, error and empty states, times, and a copy button.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/** A status as a word with a mark: the colour repeats what the word and the mark already say. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span class={`status status-${status}`}>
      <span class="status-mark" aria-hidden="true" />
      {status}
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

/** JSON for people: indented, in a scrollable block that keeps the page from scrolling sideways. */
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  return (
    <pre class="json" aria-label={label} tabIndex={0}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}
