// What can be done to the tasks chosen in the table at once, and what became of each. Cancelling is
// asked twice (ConfirmAction); each chosen task's outcome is then listed, since the service may
// refuse some (a task that finished meanwhile) and others cannot be cancelled at all.
//
// Retrying several failed tasks at once waits for the API's batch operation: it belongs in the
// group beside "Cancel selected", with its outcomes in the same report.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ConfirmAction } from '../../confirm-action';
import { cancelTasks, isCancellable, type CancelOutcome } from '../task/cancel-task';
import type { Task, TaskRow } from './task-list';

const OUTCOME_WORDS: Record<CancelOutcome['result'], string> = { cancelled: 'Cancelled', refused: 'Refused', skipped: 'Not cancelled' };

function Report({ outcomes, onDone }: { outcomes: CancelOutcome[]; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [outcomes]);
  const count = (result: CancelOutcome['result']) => outcomes.filter((outcome) => outcome.result === result).length;
  const cancelled = count('cancelled');
  const notCancelled = outcomes.length - cancelled;
  return (
    <section class="bulk-report" aria-labelledby="bulk-report-title">
      <h3 id="bulk-report-title" tabIndex={-1} ref={heading}>
        {cancelled} of {outcomes.length} cancelled{notCancelled > 0 ? `; ${notCancelled} not` : ''}
      </h3>
      <ul>
        {outcomes.map((outcome) => (
          <li class={`bulk-outcome bulk-${outcome.result}`}>
            <strong>{OUTCOME_WORDS[outcome.result]}:</strong> <span class="bulk-title">{outcome.task.title}</span> <span class="muted">({outcome.message})</span>
          </li>
        ))}
      </ul>
      <button type="button" class="secondary" onClick={onDone}>
        Dismiss
      </button>
    </section>
  );
}

export function BulkActions({ chosen, onChanged }: { chosen: readonly TaskRow[]; onChanged: (changed: Task[]) => void }) {
  const [outcomes, setOutcomes] = useState<CancelOutcome[] | undefined>(undefined);
  const cancellable = chosen.filter(isCancellable).length;
  const cancel = async (): Promise<string | undefined> => {
    const done = await cancelTasks(chosen);
    setOutcomes(done);
    onChanged(done.flatMap((outcome) => (outcome.changed ? [outcome.changed] : [])));
    return undefined;
  };
  const subject = `${chosen.length} selected ${chosen.length === 1 ? 'task' : 'tasks'}`;
  return (
    <>
      {chosen.length > 0 && (
        <div class="bulk-actions" role="group" aria-label="Selected tasks">
          <span class="bulk-count" role="status">
            {chosen.length} selected{cancellable < chosen.length ? ` (${cancellable} can be cancelled)` : ''}
          </span>
          <ConfirmAction
            label="Cancel selected"
            confirmLabel={`Confirm cancel of ${cancellable}`}
            subject={subject}
            warning={cancellable === 0 ? 'None of them is queued or running: nothing will be sent.' : undefined}
            onConfirm={cancel}
          />
        </div>
      )}
      {outcomes && <Report outcomes={outcomes} onDone={() => setOutcomes(undefined)} />}
    </>
  );
}
