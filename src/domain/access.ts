import type { AgentKeyScope, User } from '../model';
import type { Session } from './sessions';

/**
 * Who is asking: a signed-in user (with the session of their credential), a configured API key
 * acting for the whole fleet, or an agent key (or a token of one) acting as its agent only,
 * within its scopes.
 */
export type Principal =
  | { kind: 'user'; user: User; session?: Session }
  | { kind: 'service' }
  | { kind: 'agent'; agentId: string; keyId: string; scopes: readonly AgentKeyScope[] };

/** The owner a principal is confined to; undefined when it reaches every agent (admins, API keys). An agent key's reach is its agent, checked before the operation runs. */
export function ownerScope(principal: Principal): string | undefined {
  return principal.kind === 'user' && principal.user.role !== 'admin' ? principal.user.id : undefined;
}

/** The owner recorded on what a principal creates. */
export function ownerOf(principal: Principal): string | null {
  return principal.kind === 'user' ? principal.user.id : null;
}
