// One agent: who it is, its status and how many of its tasks may run at once (changed in place),
// how it is doing (queue, throughput, wait and run times), its workers and their leases, its tasks
// as a table (live) with a form to queue one, its schedules, its usage, and its keys. An id that names no agent of the signed-in person (none, deleted, or someone else's) shows
// "no such agent".
import type { components, FleetEvent } from '@agent-fleet/client';
import { AgentFleetError } from '@agent-fleet/client';
import { api } from '../../api';
import { changesOf, useEvents } from '../live';
import { useLoad } from '../load';
import { hrefOf } from '../route';
import { CopyButton, Empty, Loading, Problem, StatusBadge, ViewHeading } from '../ui';
import { ConcurrencyFact } from './agent/concurrency';
import { KeysSection } from './agent/keys';
import { OverviewSection, UsageSection, WorkersSection } from './agent/overview';
import { SchedulesSection } from './agent/schedules';
import { TasksSection } from './agent/tasks';
import { RightsContext, useRights } from '../workspaces';

type Agent = components['schemas']['AgentResource'];

/** The agent, or null when the service knows no such agent for this person (404). */
export async function readAgent(agentId: string): Promise<Agent | null> {
  const { data, error, response } = await api.GET('/api/v1/agents/{agent_id}', { params: { path: { agent_id: agentId } } });
  if (response.status === 404) return null;
  if (!response.ok || !data) throw new AgentFleetError(response, error);
  return data.data as Agent;
}

/** The agent after one event: its changed fields, or null once it is deleted. */
export function applyAgentEvent(agent: Agent | null, event: FleetEvent): Agent | null {
  if (agent === null || event.agent_id !== agent.id) return agent;
  if (event.type === 'agent.deleted') return null;
  if (event.type !== 'agent.updated') return agent;
  return { ...agent, ...changesOf<Agent>(event), id: agent.id };
}

function NoSuchAgent() {
  return (
    <section class="agent-view">
      <ViewHeading>No such agent</ViewHeading>
      <Empty>
        <p>There is no agent of yours with this id: it may have been deleted, or the link may be mistyped.</p>
        <p>
          <a href={hrefOf.fleet()}>Go to your fleet</a> to see the agents you have.
        </p>
      </Empty>
    </section>
  );
}

export function AgentView({ agentId }: { agentId: string }) {
  const agent = useLoad(() => readAgent(agentId), [agentId]);
  const rights = useRights(agent.data?.workspace_id);
  useEvents(
    (event) => {
      if (event.agent_id !== agentId || !event.type.startsWith('agent.')) return;
      agent.patch((current) => applyAgentEvent(current, event));
      agent.reconcile();
    },
    [agentId, agent.patch, agent.reconcile],
  );

  if (agent.data === null) return <NoSuchAgent />;
  const shown = agent.data;
  const back = (
    <p class="back">
      <a href={hrefOf.fleet()}>
        <span aria-hidden="true">← </span>Your fleet
      </a>
    </p>
  );
  if (shown === undefined) {
    return (
      <section class="agent-view">
        {back}
        {agent.error ? (
          <>
            <ViewHeading>This agent could not be loaded</ViewHeading>
            <Problem message={agent.error} onRetry={agent.reload} />
          </>
        ) : (
          <Loading what="the agent" />
        )}
      </section>
    );
  }
  return (
    <RightsContext.Provider value={rights}>
      <section class="agent-view">
        {back}
        <header class="agent-header">
          <ViewHeading>{shown.name}</ViewHeading>
          <StatusBadge status={shown.status} />
        </header>
        <dl class="agent-facts">
          <div>
            <dt>Type</dt>
            <dd>{shown.type}</dd>
          </div>
          <div>
            <dt>Agent id</dt>
            <dd>
              <code>{shown.id}</code> <CopyButton text={shown.id} label="Copy agent id" />
            </dd>
          </div>
          <ConcurrencyFact agent={shown} onChanged={(changed) => agent.patch((current) => (current ? { ...current, ...changed, id: current.id } : current))} />
        </dl>
        {agent.error && <Problem message={agent.error} onRetry={agent.reload} />}
        <OverviewSection agentId={agentId} />
        <WorkersSection agentId={agentId} />
        <TasksSection agentId={agentId} />
        <SchedulesSection agentId={agentId} />
        <UsageSection agentId={agentId} />
        <KeysSection agentId={agentId} />
      </section>
    </RightsContext.Provider>
  );
}
