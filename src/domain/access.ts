import { agentNotFound, notForAgentKeys, roleTooLow } from '../errors';
import type { AgentKeyScope, EventActor, User, WorkspaceRole } from '../model';
import type { Session } from './sessions';

/**
 * Who is asking: a signed-in user (with the session of their credential), a configured API key
 * acting for the whole fleet, or an agent key (or a token of one) acting as its agent only,
 * within its scopes.
 */
export type Principal =
  /**
   * `needs`: the least role in a workspace that the operation under way names
   * (`x-workspace-role`), set by the dispatcher; without it, only owners pass (see assertRole).
   */
  | { kind: 'user'; user: User; session?: Session; needs?: WorkspaceRole }
  /** `keyNumber`: which of the configured keys (1 for the first), never the key itself. */
  | { kind: 'service'; keyNumber: number }
  | { kind: 'agent'; agentId: string; keyId: string; scopes: readonly AgentKeyScope[] };

/** The roles of a workspace's members, least first: each has the rights of those before it. The compiler checks the list against api.yaml's WorkspaceRole. */
export const WORKSPACE_ROLES = Object.keys({ viewer: true, operator: true, admin: true, owner: true } satisfies Record<WorkspaceRole, true>) as readonly WorkspaceRole[];

export const rankOf = (role: WorkspaceRole): number => WORKSPACE_ROLES.indexOf(role);

/**
 * The user whose workspaces a principal is confined to; undefined when it reaches every workspace
 * (platform admins, service keys). An agent key's reach is its agent, checked before the operation runs.
 */
export function memberScope(principal: Principal): string | undefined {
  return principal.kind === 'user' && principal.user.role !== 'admin' ? principal.user.id : undefined;
}

/**
 * Refuses (403) a member whose role in the workspace is below the operation's least role. `role`
 * is the member's as read with the workspace's data; null when the principal reaches every
 * workspace. An operation that names no role (domain code run outside a request) admits owners only.
 */
export function assertRole(principal: Principal, role: WorkspaceRole | null): void {
  if (role === null || principal.kind !== 'user') return;
  const needs = principal.needs ?? 'owner';
  if (rankOf(role) < rankOf(needs)) throw roleTooLow(needs, role);
}

/** Whether the principal may act as a workspace's `role` there: platform admins and service keys may everywhere. */
export function actsAs(principal: Principal, role: WorkspaceRole | null, atLeast: WorkspaceRole): boolean {
  return role === null || principal.kind !== 'user' || rankOf(role) >= rankOf(atLeast);
}

/** Who the principal is in the audit trail: a user, an agent key, or a service key by its position (never the key). */
export function actorOf(principal: Principal): EventActor {
  switch (principal.kind) {
    case 'user':
      return { type: 'user', id: principal.user.id };
    case 'agent':
      return { type: 'agent_key', id: principal.keyId };
    case 'service':
      return { type: 'service_key', id: String(principal.keyNumber) };
  }
}

/** The owner recorded on what a principal creates. */
export function ownerOf(principal: Principal): string | null {
  return principal.kind === 'user' ? principal.user.id : null;
}

/**
 * An agent key reaches its own agent only: any other reads as missing (404), as another user's
 * agent does. The authentication gate has checked this before an operation runs; domain code that
 * names an agent checks it again, so that no path forgets it.
 */
export function assertReaches(principal: Principal, agentId: string): void {
  if (principal.kind === 'agent' && principal.agentId !== agentId) throw agentNotFound();
}

/** What only people and service keys may do (manage agents, users, keys): an agent key is refused (403). */
export function assertNotAgentKey(principal: Principal): asserts principal is Exclude<Principal, { kind: 'agent' }> {
  if (principal.kind === 'agent') throw notForAgentKeys();
}
