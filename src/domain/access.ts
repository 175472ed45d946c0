import type { User } from '../model';
import type { Session } from './sessions';

/** Who is asking: a signed-in user (with the session of their credential), or a configured API key acting for the whole fleet. */
export type Principal = { kind: 'user'; user: User; session?: Session } | { kind: 'service' };

/** The owner a principal is confined to; undefined when it reaches every agent (admins, API keys). */
export function ownerScope(principal: Principal): string | undefined {
  return principal.kind === 'user' && principal.user.role !== 'admin' ? principal.user.id : undefined;
}

/** The owner recorded on what a principal creates. */
export function ownerOf(principal: Principal): string | null {
  return principal.kind === 'user' ? principal.user.id : null;
}
