// An action sent at one press (one that ends nothing, so it is not asked twice; see
// ConfirmAction for those): busy while it sends, the service's refusal told beside it.
import { useState } from 'preact/hooks';
import { Problem } from './ui';

interface PressButtonProps {
  /** The button, e.g. "Retry task". */
  label: string;
  /** While it sends, e.g. "Retrying…". */
  busyLabel: string;
  /** Says which thing the button acts on, for screen readers (e.g. the task's title). */
  subject: string;
  /** Does it; resolves with what to tell the person when it was refused. */
  onPress: () => Promise<string | undefined>;
}

export function PressButton({ label, busyLabel, subject, onPress }: PressButtonProps) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const press = async () => {
    if (busy) return;
    setBusy(true);
    setProblem(undefined);
    const refused = await onPress();
    setBusy(false);
    setProblem(refused);
  };
  return (
    <>
      {/* aria-disabled, not disabled: the button keeps the keyboard's focus while it sends. */}
      <button type="button" class="secondary" aria-disabled={busy ? 'true' : undefined} onClick={() => void press()} aria-label={`${label}: ${subject}`}>
        {busy ? busyLabel : label}
      </button>
      {problem && <Problem message={problem} />}
    </>
  );
}
