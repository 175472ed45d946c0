// One task in the agent's list: what it is and where it stands, its outcome at a glance, and its
// details (description, input, result, error) on demand.
import { useRef, useState } from 'preact/hooks';
import { api, messageOf } from '../../../api';
import { JsonBlock, StatusBadge, Time } from '../../ui';
import { ConfirmAction } from '../../confirm-action';
import type { Task } from './task-list';

/** The first characters of a result, on one line: the details hold the whole of it. */
function previewOf(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

async function cancelTask(task: Task, onChanged: (task: Task) => void): Promise<string | undefined> {
  try {
    const { data, error, response } = await api.PATCH('/api/v1/agents/{agent_id}/tasks/{task_id}', {
      params: { path: { agent_id: task.agent_id, task_id: task.id } },
      body: { status: 'cancelled' },
    });
    if (!response.ok || !data) return messageOf(error, 'The task could not be cancelled. Please try again.');
    onChanged(data.data as Task);
    return undefined;
  } catch (failure) {
    return messageOf(failure, 'The task could not be cancelled. Please try again.');
  }
}

function Progress({ progress }: { progress: NonNullable<Task['progress']> }) {
  return (
    <div class="task-progress">
      {progress.percent !== undefined && (
        <>
          <progress max={100} value={progress.percent} aria-label="Progress" />
          <span>{progress.percent}%</span>
        </>
      )}
      {progress.message && <span class="task-progress-message">{progress.message}</span>}
    </div>
  );
}

export function TaskItem({ task, onChanged }: { task: Task; onChanged: (task: Task) => void }) {
  const [open, setOpen] = useState(false);
  const details = useRef<HTMLButtonElement>(null);
  // Once cancelled, the task's cancel buttons are gone: focus stays in the task, on its Details.
  const cancelled = (changed: Task) => {
    onChanged(changed);
    details.current?.focus();
  };
  const detailsId = `task-details-${task.id}`;
  const cancellable = task.status === 'queued' || task.status === 'running';
  return (
    <li class={`task task-${task.status}`}>
      <div class="task-head">
        <h3 class="task-title">{task.title}</h3>
        <StatusBadge status={task.status} />
      </div>
      <dl class="task-facts">
        <div>
          <dt>Priority</dt>
          <dd>{task.priority}</dd>
        </div>
        <div>
          <dt>Attempts</dt>
          <dd>
            {task.attempts} of {task.max_attempts}
          </dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>
            <Time at={task.created_at} />
          </dd>
        </div>
        {task.finished_at && (
          <div>
            <dt>Finished</dt>
            <dd>
              <Time at={task.finished_at} />
            </dd>
          </div>
        )}
      </dl>
      {task.progress && task.status === 'running' && <Progress progress={task.progress} />}
      {task.status === 'failed' && task.error && (
        <p class="task-error">
          <strong>Error:</strong> {task.error}
        </p>
      )}
      {task.status === 'succeeded' && (
        <p class="task-result">
          <strong>Result:</strong> <code>{previewOf(task.result)}</code>
        </p>
      )}
      <div class="task-actions">
        <button type="button" class="secondary" ref={details} aria-expanded={open} aria-controls={detailsId} onClick={() => setOpen(!open)} aria-label={`Details: ${task.title}`}>
          Details
        </button>
        {cancellable && <ConfirmAction label="Cancel task" confirmLabel="Confirm cancel" subject={task.title} onConfirm={() => cancelTask(task, cancelled)} />}
      </div>
      <div id={detailsId} class="task-details" hidden={!open}>
        {open && (
          <>
            <h4>Description</h4>
            {task.description ? <p class="task-description">{task.description}</p> : <p class="muted">No description.</p>}
            <h4>Input</h4>
            {task.input ? <JsonBlock value={task.input} label={`Input of ${task.title}`} /> : <p class="muted">No input.</p>}
            <h4>Result</h4>
            {task.status === 'succeeded' ? <JsonBlock value={task.result} label={`Result of ${task.title}`} /> : <p class="muted">No result{task.status === 'queued' || task.status === 'running' ? ' yet' : ''}.</p>}
            <h4>Error</h4>
            {task.error ? <p class="task-error-full">{task.error}</p> : <p class="muted">No error.</p>}
            <dl class="task-facts">
              <div>
                <dt>Started</dt>
                <dd>
                  <Time at={task.started_at} />
                </dd>
              </div>
              <div>
                <dt>Updated</dt>
                <dd>
                  <Time at={task.updated_at} />
                </dd>
              </div>
              {task.status === 'queued' && (
                <div>
                  <dt>Available</dt>
                  <dd>
                    <Time at={task.available_at} />
                  </dd>
                </div>
              )}
              <div>
                <dt>Task id</dt>
                <dd>
                  <code>{task.id}</code>
                </dd>
              </div>
            </dl>
          </>
        )}
      </div>
    </li>
  );
}
