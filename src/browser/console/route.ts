// The console's views live in the URL's fragment (`#/agents/{id}`): the paths of this origin are the
// API's own (`/agents` is the agent service), and a fragment never reaches the server.
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { view: 'fleet' }
  | { view: 'agent'; agentId: string }
  /** One task of an agent: its attempts, log and usage. */
  | { view: 'task'; agentId: string; taskId: string }
  | { view: 'events' }
  | { view: 'webhooks' }
  | { view: 'webhook'; webhookId: string }
  | { view: 'workspaces' }
  /** One workspace: its members and invitations. */
  | { view: 'workspace'; workspaceId: string }
  /** An invitation's link: the invited person joins here. */
  | { view: 'join'; token: string }
  | { view: 'missing'; hash: string };

export function routeOf(hash: string): Route {
  const path = hash.replace(/^#/, '') || '/';
  const parts = path.split('/').filter(Boolean).map((part) => decodeURIComponent(part));
  if (parts.length === 0) return { view: 'fleet' };
  if (parts[0] === 'agents' && parts.length === 2 && parts[1]) return { view: 'agent', agentId: parts[1] };
  if (parts[0] === 'agents' && parts.length === 4 && parts[1] && parts[2] === 'tasks' && parts[3]) return { view: 'task', agentId: parts[1], taskId: parts[3] };
  if (parts[0] === 'events' && parts.length === 1) return { view: 'events' };
  if (parts[0] === 'webhooks' && parts.length === 1) return { view: 'webhooks' };
  if (parts[0] === 'webhooks' && parts.length === 2 && parts[1]) return { view: 'webhook', webhookId: parts[1] };
  if (parts[0] === 'workspaces' && parts.length === 1) return { view: 'workspaces' };
  if (parts[0] === 'workspaces' && parts.length === 2 && parts[1]) return { view: 'workspace', workspaceId: parts[1] };
  if (parts[0] === 'join' && parts.length === 2 && parts[1]) return { view: 'join', token: parts[1] };
  return { view: 'missing', hash };
}

export const hrefOf = {
  fleet: () => '#/',
  agent: (agentId: string) => `#/agents/${encodeURIComponent(agentId)}`,
  task: (agentId: string, taskId: string) => `#/agents/${encodeURIComponent(agentId)}/tasks/${encodeURIComponent(taskId)}`,
  events: () => '#/events',
  webhooks: () => '#/webhooks',
  webhook: (webhookId: string) => `#/webhooks/${encodeURIComponent(webhookId)}`,
  workspaces: () => '#/workspaces',
  workspace: (workspaceId: string) => `#/workspaces/${encodeURIComponent(workspaceId)}`,
  join: (token: string) => `#/join/${encodeURIComponent(token)}`,
};

export function useRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(window.location.hash));
  useEffect(() => {
    const changed = () => setRoute(routeOf(window.location.hash));
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return route;
}
