import type { User } from '../model';

export type { Session, SessionEndReason, SessionMethod } from '../data/sessions-repository';
import type { Session } from '../data/sessions-repository';

/** A signed-in request: the user and the session its credential belongs to. */
export interface SignedIn {
  user: User;
  session: Session;
}

/**
 * Whether the session began recently enough to stand in for the password (accounts that have
 * none, signed in through a provider, re-authenticate by signing in again).
 */
export function isRecentSignIn(session: Pick<Session, 'created_at'>, now: number, withinMs: number): boolean {
  return now - Date.parse(session.created_at) <= withinMs;
}
