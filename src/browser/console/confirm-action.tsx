// A destructive action asked twice, inline: the first button turns into "Confirm …" and "Keep", so
// that a stray click or Enter changes nothing, and no browser dialog is needed.
import { useRef, useState } from 'preact/hooks';
import { Problem, useFocusFollows } from './ui';

interface ConfirmActionProps {
  /** The first button, e.g. "Cancel task". */
  label: string;
  /** The second, e.g. "Confirm cancel". */
  confirmLabel: string;
  /** Says which thing the buttons act on, for screen readers (e.g. the task's title). */
  subject: string;
  /** Does it; resolves with what to tell the person when it was refused. */
  onConfirm: () => Promise<string | undefined>;
  /** What confirming does, said while asking (e.g. what else goes with it). */
  warning?: string;
}

export function ConfirmAction({ label, confirmLabel, subject, onConfirm, warning }: ConfirmActionProps) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const start = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const flipped = useFocusFollows(asking, confirm, start);

  const ask = (value: boolean) => {
    flipped();
    setAsking(value);
  };
  const go = async () => {
    setBusy(true);
    setProblem(undefined);
    const refused = await onConfirm();
    setBusy(false);
    if (refused !== undefined) setProblem(refused);
    ask(false);
  };

  return (
    <div class="confirm-action">
      {asking ? (
        <>
          {warning && <p class="confirm-warning">{warning}</p>}
          <button type="button" class="secondary danger" ref={confirm} disabled={busy} onClick={() => void go()} aria-label={`${confirmLabel}: ${subject}`}>
            {confirmLabel}
          </button>
          <button type="button" class="secondary" disabled={busy} onClick={() => ask(false)} aria-label={`Keep: ${subject}`}>
            Keep
          </button>
        </>
      ) : (
        <button type="button" class="secondary" ref={start} onClick={() => ask(true)} aria-label={`${label}: ${subject}`}>
          {label}
        </button>
      )}
      {problem && <Problem message={problem} />}
    </div>
  );
}
