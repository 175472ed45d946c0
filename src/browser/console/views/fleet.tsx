// The fleet: every agent of the signed-in person with its status and its tasks counted by status,
// kept current by the event stream; and a form to add an agent.
import type { components, FleetEvent } from '@agent-fleet/client';
import { useState } from 'preact/hooks';
import { api } from '../../api';
import { changesOf, useEvents } from '../live';
import { useLoad } from '../load';
import { useSubmission } from '../submit';
import { hrefOf } from '../route';
import { Empty, Loading, Problem, StatusBadge, ViewHeading } from '../ui';
import { useWorkspaces, workspaceLabel } from '../workspaces';

type Agent = components['schemas']['AgentResource'];
type TaskCounts = components['schemas']['TaskCounts'];
type TaskStatus = components['schemas']['TaskStatus'];
type AgentType = components['schemas']['AgentType'];

export const TASK_STATUSES: readonly TaskStatus[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];
const AGENT_TYPES: readonly AgentType[] = ['type_a', 'type_b', 'type_c'];
/** The most agents the view lists; beyond them it says how many it left out. */
const MAX_AGENTS = 1000;
const NO_TASKS: TaskCounts = { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };

async function readFleet(workspaceId: string | undefined): Promise<Agent[]> {
  const agents: Agent[] = [];
  const query = { include: 'task_counts' as const, limit: 100, sort: 'name' as const, ...(workspaceId ? { workspace_id: workspaceId } : {}) };
  for await (const agent of api.paginate('/api/v1/agents', { params: { query } })) {
    agents.push(agent as Agent);
    if (agents.length >= MAX_AGENTS) break;
  }
  return agents;
}

const isTaskStatus = (value: unknown): value is TaskStatus => typeof value === 'string' && (TASK_STATUSES as readonly string[]).includes(value);

/** The fleet after one event: agents added, changed or gone, and task counts moved between statuses. */
export function applyFleetEvent(agents: Agent[], event: FleetEvent): Agent[] {
  const data = event.data as Record<string, unknown>;
  if (event.type === 'agent.created') {
    if (agents.some((agent) => agent.id === event.agent_id)) return agents;
    return [...agents, { ...(data as unknown as Agent), task_counts: { ...NO_TASKS } }];
  }
  if (event.type === 'agent.deleted') return agents.filter((agent) => agent.id !== event.agent_id);
  return agents.map((agent) => {
    if (agent.id !== event.agent_id) return agent;
    if (event.type === 'agent.updated') return { ...agent, ...changesOf<Agent>(event), id: agent.id };
    const counts = { ...(agent.task_counts ?? NO_TASKS) };
    const from = event.type === 'task.created' ? undefined : event.type === 'task.deleted' ? data['status'] : data['previous_status'];
    const to = event.type === 'task.deleted' ? undefined : data['status'];
    if (from === to) return agent;
    if (isTaskStatus(from)) counts[from] = Math.max(0, counts[from] - 1);
    if (isTaskStatus(to)) counts[to] += 1;
    return { ...agent, task_counts: counts };
  });
}

function NewAgentForm({ workspaceId, onCreated }: { workspaceId: string | undefined; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [type, setType] = useState<AgentType>('type_a');
  const { busy, problem, run } = useSubmission('The agent could not be created. Please try again.');
  const submit = (event: Event) => {
    event.preventDefault();
    return run(async () => {
      const { error, response } = await api.POST('/api/v1/agents', { body: { name, type, ...(workspaceId ? { workspace_id: workspaceId } : {}) } });
      if (!response.ok) throw error;
      setName('');
      onCreated();
    });
  };
  return (
    <form class="inline-form" onSubmit={(event) => void submit(event)} aria-labelledby="new-agent-title">
      <h2 id="new-agent-title">Add an agent</h2>
      <label>
        Name
        <input value={name} onInput={(event) => setName(event.currentTarget.value)} required maxLength={100} />
      </label>
      <label>
        Type
        <select value={type} onChange={(event) => setType(event.currentTarget.value as AgentType)}>
          {AGENT_TYPES.map((value) => (
            <option value={value}>{value}</option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={busy}>
        Add agent
      </button>
      {problem && <Problem message={problem} />}
    </form>
  );
}

function Counts({ counts }: { counts: TaskCounts }) {
  return (
    <ul class="counts" aria-label="Tasks by status">
      {TASK_STATUSES.map((status) => (
        <li class={`count count-${status}${counts[status] === 0 ? ' count-zero' : ''}`}>
          <span class="count-number">{counts[status]}</span> <span class="count-label">{status}</span>
        </li>
      ))}
    </ul>
  );
}

export function FleetView() {
  const { current, createIn, may } = useWorkspaces();
  const fleet = useLoad(() => readFleet(current?.id), [current?.id]);
  useEvents(
    (event) => {
      if (current !== undefined && event.workspace_id !== current.id) return;
      fleet.patch((agents) => applyFleetEvent(agents, event));
      fleet.reconcile();
    },
    [fleet.patch, fleet.reconcile, current?.id],
  );
  const agents = fleet.data;
  const mayAdd = may(createIn, 'operator');
  return (
    <section class="fleet" aria-labelledby="fleet-title">
      <ViewHeading>{current ? workspaceLabel(current) : 'Your fleet'}</ViewHeading>
      {agents === undefined && fleet.loading && <Loading what="your agents" />}
      {fleet.error && <Problem message={fleet.error} onRetry={fleet.reload} />}
      {agents !== undefined && agents.length === 0 && (
        <Empty>
          <p>
            {current ? 'This workspace has no agents yet.' : 'You have no agents yet.'}
            {mayAdd ? ' Add one below, then give it a key so that it can sign in and take tasks.' : ''}
          </p>
        </Empty>
      )}
      {agents !== undefined && agents.length > 0 && (
        <>
          <p class="summary">
            {agents.length} {agents.length === 1 ? 'agent' : 'agents'}
            {agents.length >= MAX_AGENTS ? ` (the first ${MAX_AGENTS} by name)` : ''}:{' '}
            {(['running', 'idle', 'paused', 'error'] as const)
              .map((status) => [status, agents.filter((agent) => agent.status === status).length] as const)
              .filter(([, count]) => count > 0)
              .map(([status, count]) => `${count} ${status}`)
              .join(', ')}
          </p>
          <ul class="agents">
            {agents.map((agent) => (
              <li class="agent-card" key={agent.id}>
                <div class="agent-head">
                  <a href={hrefOf.agent(agent.id)} class="agent-name">
                    {agent.name}
                  </a>
                  <StatusBadge status={agent.status} />
                </div>
                <p class="muted">{agent.type}</p>
                <Counts counts={agent.task_counts ?? NO_TASKS} />
              </li>
            ))}
          </ul>
        </>
      )}
      {mayAdd && <NewAgentForm workspaceId={createIn} onCreated={fleet.reload} />}
    </section>
  );
}
