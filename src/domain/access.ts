import { agentNotFound, notForAgentKeys } from '../errors';
import type { AgentKeyScope, User } from '../model';
import type { Session } from './sessions';

/**
 * Who is asking: a signed-in user (with the session of their credential), a configured API key
 * acting for the whole fleet, or an agent key (or a token of one) acting as its agent only,
 * within its scopes.
 */
export type Principal =
  | { kind: 'user'; user: User; session?: Session }
  /** `keyNumber`: which of the configured keys (1 for the first), never the key itself. */
  | { kind: 'service'; keyNumber: number }
  | { kind: 'agent'; agentId: string; keyId: string; scopes: readonly AgentKeyScope[] };

/** The owner a principal is confined to; undefined when it reaches every agent (admins, API keys). An agent key's reach is its agent, checked before the operation runs. */
export function ownerScope(principal: Principal): string | undefined {
  return principal.kind === 'user' && principal.user.role !== 'admin' ? principal.user.id : undefined;
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
