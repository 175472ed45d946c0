// What can be done to the tasks chosen in the table at once, and what became of each. Cancelling
// is asked twice (ConfirmAction); retrying, which ends nothing, is one press. Either is one batch
// request for every chosen task; the service may refuse some (a task that finished meanwhile, one
// in a status the action does not take), so each chosen task's outcome is then listed.
import { useEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from '../../../api';
import { ConfirmAction } from '../../confirm-action';
import { PressButton } from '../../press-button';
import { isCancellable } from '../task/cancel-task';
import { isRetryable } from '../task/retry-task';
import { runTaskBatch, type BatchAction, type BatchOutcome } from './task-batch';
import type { TaskRow } from './task-list';

const ACTION_WORDS: Record<BatchAction, { changed: string; done: string }> = {
  cancel: { changed: 'Cancelled', done: 'cancelled' },
  retry: { changed: 'Retried', done: 'retried' },
};

interface Batch {
  action: BatchAction;
  outcomes: BatchOutcome[];
}

function Report({ batch, onDone }: { batch: Batch; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [batch]);
  const { outcomes } = batch;
  const words = ACTION_WORDS[batch.action];
  const changed = outcomes.filter((outcome) => outcome.result === 'changed').length;
  const refused = outcomes.length - changed;
  return (
    <section class="bulk-report" aria-labelledby="bulk-report-title">
      <h3 id="bulk-report-title" tabIndex={-1} ref={heading}>
        {changed} of {outcomes.length} {words.done}
        {refused > 0 ? `; ${refused} refused` : ''}
      </h3>
      <ul>
        {outcomes.map((outcome) => (
          <li class={`bulk-outcome bulk-${outcome.result}`}>
            <strong>{outcome.result === 'changed' ? words.changed : 'Refused'}:</strong> <span class="bulk-title">{outcome.task.title}</span>{' '}
            <span class="muted">({outcome.result === 'changed' ? `${outcome.was} → ${outcome.status ?? 'deleted'}` : outcome.message})</span>
          </li>
        ))}
      </ul>
      <button type="button" class="secondary" onClick={onDone}>
        Dismiss
      </button>
    </section>
  );
}

/** How many of the chosen each action takes, as the table shows their statuses. */
function countWords(chosen: readonly TaskRow[]): string {
  const cancellable = chosen.filter(isCancellable).length;
  const retryable = chosen.filter(isRetryable).length;
  const parts = [cancellable > 0 ? `${cancellable} can be cancelled` : '', retryable > 0 ? `${retryable} retried` : ''].filter(Boolean);
  return `${chosen.length} selected: ${parts.length > 0 ? parts.join(', ') : 'none can be cancelled or retried'}`;
}

/** What confirming a cancel says when some chosen tasks are past it. */
function cancelWarning(chosen: readonly TaskRow[]): string | undefined {
  const others = chosen.length - chosen.filter(isCancellable).length;
  if (others === 0) return undefined;
  return `${others} of them ${others === 1 ? 'is' : 'are'} not queued or running: the service will refuse ${others === 1 ? 'it' : 'them'}.`;
}

export function BulkActions({ agentId, chosen, onChanged }: { agentId: string; chosen: readonly TaskRow[]; onChanged: (changed: Array<Pick<TaskRow, 'id' | 'status'>>) => void }) {
  const [batch, setBatch] = useState<Batch | undefined>(undefined);
  /** Sends the batch; resolves with what to tell the person when the service refused it whole. */
  const send = async (action: BatchAction): Promise<string | undefined> => {
    try {
      const outcomes = await runTaskBatch(agentId, action, chosen);
      setBatch({ action, outcomes });
      onChanged(outcomes.flatMap((outcome) => (outcome.result === 'changed' && outcome.status !== null ? [{ id: outcome.task.id, status: outcome.status }] : [])));
      return undefined;
    } catch (failure) {
      return messageOf(failure, `The tasks could not be ${ACTION_WORDS[action].done}. Please try again.`);
    }
  };
  const subject = `${chosen.length} selected ${chosen.length === 1 ? 'task' : 'tasks'}`;
  return (
    <>
      {chosen.length > 0 && (
        <div class="bulk-actions" role="group" aria-label="Selected tasks">
          <span class="bulk-count" role="status">
            {countWords(chosen)}
          </span>
          <PressButton label="Retry selected" busyLabel="Retrying…" subject={subject} onPress={() => send('retry')} />
          <ConfirmAction label="Cancel selected" confirmLabel={`Confirm cancel of ${chosen.length}`} subject={subject} warning={cancelWarning(chosen)} onConfirm={() => send('cancel')} />
        </div>
      )}
      {batch && <Report batch={batch} onDone={() => setBatch(undefined)} />}
    </>
  );
}
