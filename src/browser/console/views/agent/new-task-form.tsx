// Queues a task on the agent, now or at a time (`run_at`), with a timeout if asked. The input is
// JSON typed by a person: it is parsed here first, so that a typo is explained next to the field
// and nothing is sent. A field the service refuses (a time too far ahead) is explained beside it.
import { useRef, useState } from 'preact/hooks';
import { api } from '../../../api';
import { useSubmission } from '../../submit';
import { FieldProblem, invalidProps, Problem } from '../../ui';
import type { Task } from './task-list';

type Parsed = { ok: true; value: Record<string, unknown> | undefined } | { ok: false; message: string };

/** The Input field's text as the API takes it: empty for none, else a JSON object. */
export function parseTaskInput(text: string): Parsed {
  if (text.trim() === '') return { ok: true, value: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (failure) {
    return { ok: false, message: `Input is not valid JSON (${failure instanceof Error ? failure.message : 'it could not be read'}). Nothing was sent.` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: 'Input must be a JSON object, such as {"url": "https://example.com"}. Nothing was sent.' };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/**
 * A `datetime-local` field's value (the person's own clock, no zone) as the API takes a time: ISO
 * 8601 in UTC. Undefined for an empty field or one the browser could not read.
 */
export function localTimeToIso(value: string): string | undefined {
  if (value.trim() === '') return undefined;
  // A date and time without a zone is read as local time.
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The fields whose refusal by the service shows beside them (the others' the browser checks before sending). */
const PLACED_FIELDS: readonly string[] = ['run_at', 'timeout_seconds'];

export function NewTaskForm({ agentId, onCreated }: { agentId: string; onCreated: (task: Task) => void }) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [input, setInput] = useState('');
  const [priority, setPriority] = useState('5');
  const [maxAttempts, setMaxAttempts] = useState('3');
  const [runAt, setRunAt] = useState('');
  const [timeoutSeconds, setTimeoutSeconds] = useState('');
  const [inputProblem, setInputProblem] = useState<string | undefined>(undefined);
  const { busy, problem, fields, refuse, run } = useSubmission('The task could not be created. Please try again.');
  const inputField = useRef<HTMLTextAreaElement>(null);

  const submit = (event: Event) => {
    event.preventDefault();
    refuse(undefined);
    const parsed = parseTaskInput(input);
    if (!parsed.ok) {
      setInputProblem(parsed.message);
      inputField.current?.focus();
      return;
    }
    setInputProblem(undefined);
    const runAtIso = localTimeToIso(runAt);
    return run(async () => {
      const { data, error, response } = await api.POST('/api/v1/agents/{agent_id}/tasks', {
        params: { path: { agent_id: agentId } },
        body: {
          title,
          ...(description.trim() ? { description } : {}),
          ...(parsed.value ? { input: parsed.value } : {}),
          priority: Number(priority),
          max_attempts: Number(maxAttempts),
          ...(runAtIso ? { run_at: runAtIso } : {}),
          ...(timeoutSeconds.trim() ? { timeout_seconds: Number(timeoutSeconds) } : {}),
        },
      });
      if (!response.ok || !data) throw error;
      setTitle('');
      setDescription('');
      setInput('');
      setPriority('5');
      setMaxAttempts('3');
      setRunAt('');
      setTimeoutSeconds('');
      onCreated(data.data as Task);
    });
  };

  return (
    <form class="inline-form task-form" onSubmit={(event) => void submit(event)} aria-labelledby="new-task-title">
      <h2 id="new-task-title">Add a task</h2>
      <label class="wide">
        Title
        <input value={title} onInput={(event) => setTitle(event.currentTarget.value)} required maxLength={200} />
      </label>
      <label class="wide">
        Description <span class="muted">(optional)</span>
        <textarea value={description} onInput={(event) => setDescription(event.currentTarget.value)} maxLength={10000} rows={2} />
      </label>
      <label class="wide">
        Input <span class="muted">(optional JSON object, given to the worker as the task's input)</span>
        <textarea
          ref={inputField}
          class="json-input"
          value={input}
          onInput={(event) => {
            setInput(event.currentTarget.value);
            setInputProblem(undefined);
          }}
          rows={4}
          spellcheck={false}
          placeholder='{"url": "https://example.com"}'
          aria-invalid={inputProblem ? true : undefined}
          aria-describedby={inputProblem ? 'new-task-input-problem' : undefined}
        />
      </label>
      {inputProblem && (
        <p id="new-task-input-problem" class="field-problem wide" role="alert">
          {inputProblem}
        </p>
      )}
      <label>
        Priority <span class="muted">(0–10, highest first)</span>
        <input type="number" min={0} max={10} step={1} value={priority} onInput={(event) => setPriority(event.currentTarget.value)} required />
      </label>
      <label>
        Max attempts <span class="muted">(1–20)</span>
        <input type="number" min={1} max={20} step={1} value={maxAttempts} onInput={(event) => setMaxAttempts(event.currentTarget.value)} required />
      </label>
      <label>
        Run at <span class="muted">(optional, your time; empty: now)</span>
        <input type="datetime-local" value={runAt} onInput={(event) => setRunAt(event.currentTarget.value)} {...invalidProps('new-task-run-at-problem', fields['run_at'])} />
      </label>
      <FieldProblem id="new-task-run-at-problem" message={fields['run_at']} />
      <label>
        Timeout (s) <span class="muted">(optional, 1–604,800, from its first lease)</span>
        <input
          type="number"
          min={1}
          max={604800}
          step={1}
          value={timeoutSeconds}
          onInput={(event) => setTimeoutSeconds(event.currentTarget.value)}
          {...invalidProps('new-task-timeout-problem', fields['timeout_seconds'])}
        />
      </label>
      <FieldProblem id="new-task-timeout-problem" message={fields['timeout_seconds']} />
      <button type="submit" disabled={busy}>
        Add task
      </button>
      {problem && (Object.keys(fields).length === 0 || Object.keys(fields).some((field) => !PLACED_FIELDS.includes(field))) && <Problem message={problem} />}
    </form>
  );
}
