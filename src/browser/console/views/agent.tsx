import { ViewHeading } from '../ui';

export function AgentView({ agentId }: { agentId: string }) {
  return <ViewHeading>Agent {agentId}</ViewHeading>;
}
