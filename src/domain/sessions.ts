import type { User } from './model';

/** How the person proved who they are when the session began. */
export type SessionMethod = 'password' | 'provider';

export type SessionEndReason = 'logout' | 'logout_all' | 'credentials_changed' | 'refresh_reuse';

/** One sign-in: every access token and refresh token belongs to exactly one. */
export interface Session {
  id: string;
  user_id: string;
  method: SessionMethod;
  /** When the person last proved who they are: refreshing keeps it. */
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  revoked_reason: SessionEndReason | null;
}

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
