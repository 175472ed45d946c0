// How many of the agent's tasks may run at once (`max_concurrency`: a number, or no limit), shown
// among the agent's facts and changed in place: "Change" opens a small form (empty for no limit),
// "Save" sends the agent's PATCH, and the focus goes back to "Change" once done.
import type { components } from '@agent-fleet/client';
import { useRef, useState } from 'preact/hooks';
import { api } from '../../../api';
import { useSubmission } from '../../submit';
import { FieldProblem, invalidProps, Problem, useFocusFollows } from '../../ui';
import { useViewRights } from '../../workspaces';

type Agent = components['schemas']['AgentResource'];

const PROBLEM_ID = 'concurrency-problem';

export const concurrencyText = (limit: number | null | undefined): string => (limit === null || limit === undefined ? 'no limit' : `at most ${limit} at once`);

export function ConcurrencyFact({ agent, onChanged }: { agent: Agent; onChanged: (agent: Agent) => void }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const { busy, problem, fields, refuse, run } = useSubmission('The limit could not be changed. Please try again.');
  const input = useRef<HTMLInputElement>(null);
  const change = useRef<HTMLButtonElement>(null);
  const flipped = useFocusFollows(editing, input, change);
  const { operate } = useViewRights();

  const edit = (on: boolean) => {
    flipped();
    refuse(undefined);
    if (on) setValue(agent.max_concurrency === null || agent.max_concurrency === undefined ? '' : String(agent.max_concurrency));
    setEditing(on);
  };
  const submit = (event: Event) => {
    event.preventDefault();
    const limit = value.trim() === '' ? null : Number(value);
    return run(async () => {
      const { data, error, response } = await api.PATCH('/api/v1/agents/{agent_id}', { params: { path: { agent_id: agent.id } }, body: { max_concurrency: limit } });
      if (!response.ok || !data) throw error;
      onChanged(data.data as Agent);
      flipped();
      setEditing(false);
    });
  };
  const fieldProblem = fields['max_concurrency'];

  return (
    <div class="concurrency">
      <dt>Max concurrency</dt>
      <dd>
        {editing ? (
          <form
            class="concurrency-form"
            onSubmit={(event) => void submit(event)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') edit(false);
            }}
          >
            <label>
              Tasks at once <span class="muted">(1–1,000; empty: no limit)</span>
              <input ref={input} type="number" min={1} max={1000} step={1} value={value} onInput={(event) => setValue(event.currentTarget.value)} {...invalidProps(PROBLEM_ID, fieldProblem)} />
            </label>
            <button type="submit" disabled={busy}>
              Save
            </button>
            <button type="button" class="secondary" onClick={() => edit(false)}>
              Keep as it was
            </button>
            <FieldProblem id={PROBLEM_ID} message={fieldProblem} />
            {problem && !fieldProblem && <Problem message={problem} />}
          </form>
        ) : (
          <>
            <span class="concurrency-value">{concurrencyText(agent.max_concurrency)}</span>{' '}
            {operate && (
              <button type="button" class="secondary" ref={change} onClick={() => edit(true)} aria-label="Change max concurrency">
                Change
              </button>
            )}
          </>
        )}
      </dd>
    </div>
  );
}
