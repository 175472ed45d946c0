import { createHash, randomBytes } from 'node:crypto';
import { isForeignKeyViolation } from '../data/database-errors';
import type { Store } from '../data/store';
import { newId } from '../data/ids';
import type { User } from '../model';
import type { Session, SessionEndReason, SessionMethod, SignedIn } from '../domain/sessions';
import { invalidCredentials, OAuthError, wrongPassword } from '../errors';
import type { IssuedToken, TokenService } from './tokens';

export interface SessionLifetimes {
  /** Seconds an access token (and the session cookie holding one) lives. */
  accessSeconds: number;
  /** Seconds a session that holds a refresh token lives at most, however often it is refreshed. */
  refreshSeconds: number;
}

export interface SessionTokens extends IssuedToken {
  refresh_token?: string;
}

export interface SessionService {
  /** A new session for the user and its first access token (and refresh token when asked for). */
  begin(user: User, method: SessionMethod, options?: { refreshable?: boolean }): Promise<SessionTokens & { session: Session }>;
  /** RFC 6749 section 6 with rotation: a spent refresh token presented again ends its whole session. */
  refresh(presented: string): Promise<SessionTokens>;
  /** The user and live session behind an access token, or undefined for any token that fails any check. */
  resolve(accessToken: string): Promise<SignedIn | undefined>;
  end(sessionId: string, reason: SessionEndReason): Promise<void>;
  /** Ends every live session of the user but `keep`. */
  endAll(userId: string, reason: SessionEndReason, keep?: string): Promise<number>;
}

const invalidRefreshToken = () => new OAuthError('invalid_grant', 'The refresh token is invalid, expired or revoked');

export function createSessionService(store: Store, tokens: TokenService, lifetimes: SessionLifetimes, clock: () => number = Date.now): SessionService {
  const at = (offsetSeconds = 0) => new Date(clock() + offsetSeconds * 1000).toISOString();

  const mintRefreshToken = async (target: Store, sessionId: string): Promise<string> => {
    const token = randomBytes(32).toString('base64url');
    await target.sessions.insertRefreshToken({ token_hash: digest(token), session_id: sessionId, created_at: at() });
    return token;
  };

  return {
    async begin(user, method, { refreshable = false } = {}) {
      const session: Session = {
        id: newId(),
        user_id: user.id,
        method,
        created_at: at(),
        expires_at: at(refreshable ? lifetimes.refreshSeconds : lifetimes.accessSeconds),
        revoked_at: null,
        revoked_reason: null,
      };
      const refreshToken = await store
        .transaction(async (tx) => {
          // Ended sessions are kept a day, so a reused refresh token is still recognised as one for a while.
          await tx.sessions.prune(user.id, at(-86_400));
          await tx.sessions.insert(session);
          return refreshable ? mintRefreshToken(tx, session.id) : undefined;
        })
        .catch((error: unknown) => {
          // The account was deleted after its credentials were checked: they no longer sign anyone in.
          throw isForeignKeyViolation(error) ? (method === 'password' ? wrongPassword() : invalidCredentials()) : error;
        });
      const issued = await tokens.issue({ userId: user.id, sessionId: session.id });
      return { ...issued, ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }), session };
    },

    async refresh(presented) {
      const rotated = await store.transaction(async (tx) => {
        const spent = await tx.sessions.spendRefreshToken(digest(presented), at());
        if (!spent) return undefined;
        const session = await tx.sessions.find(spent.sessionId);
        if (!session) return undefined;
        if (!spent.fresh) {
          await tx.sessions.end(session.id, at(), 'refresh_reuse');
          return 'reused' as const;
        }
        if (session.revoked_at !== null || Date.parse(session.expires_at) <= clock()) return undefined;
        return { session, refreshToken: await mintRefreshToken(tx, session.id) };
      });
      // The family ends in its own committed transaction, then the caller hears invalid_grant.
      if (rotated === undefined || rotated === 'reused') throw invalidRefreshToken();
      const issued = await tokens.issue({ userId: rotated.session.user_id, sessionId: rotated.session.id });
      return { ...issued, refresh_token: rotated.refreshToken };
    },

    async resolve(accessToken) {
      const claims = await tokens.verify(accessToken);
      return claims === undefined ? undefined : store.sessions.findLive(claims.sessionId, claims.userId, at());
    },

    async end(sessionId, reason) {
      await store.sessions.end(sessionId, at(), reason);
    },

    endAll(userId, reason, keep) {
      return store.sessions.endAllOf(userId, at(), reason, keep);
    },
  };
}

/** Refresh tokens are 256 random bits: a plain SHA-256 digest is all the storage they need. */
function digest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
