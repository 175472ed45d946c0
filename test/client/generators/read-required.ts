// Every read below is without optional chaining: under `tsc --strict` it compiles only where the
// generator typed the field as required. `./types` re-exports the generator's types (the test writes it).
import type { Agent, AgentKey, FleetEvent, Lease, Task, TaskSummary, User, Webhook } from './types';

export function lengthsOf(agent: Agent, task: Task, summary: TaskSummary, user: User, lease: Lease, event: FleetEvent, webhook: Webhook, key: AgentKey): number {
  const owner: string | null = agent.owner_id;
  const started: string | null = summary.started_at;
  const description: string | null = webhook.description;
  // A workspace's own events name no agent; the service's own changes no actor.
  const eventAgent: string | null = event.agent_id;
  const actor: { type: 'user' | 'agent_key' | 'service_key'; id: string } | null = event.actor;
  void [owner, started, description, task.progress, eventAgent];
  return (
    agent.id.length + agent.name.length + agent.type.length + agent.status.length + agent.created_at.length + agent.updated_at.length +
    task.id.length + task.agent_id.length + task.title.length + task.attempts + task.max_attempts + task.available_at.length +
    summary.id.length + summary.title.length + summary.priority + summary.status.length +
    user.id.length + user.email.length + user.name.length + user.role.length +
    lease.id.length + lease.task.title.length + lease.task_id.length + lease.ttl_seconds + lease.expires_at.length +
    event.id.length + event.type.length + event.occurred_at.length + event.workspace_id.length + (actor === null ? 0 : actor.type.length + actor.id.length) +
    webhook.id.length + webhook.url.length + String(webhook.enabled).length +
    key.id.length + key.prefix.length + key.scopes.length
  );
}
