import type { Knex } from 'knex';
import type { User } from '../model';
import { compileQuery, type CompiledQuery, type Executor } from './compiled-query';
import { isId } from './ids';
import { toIsoTimestamp, type RowMapper } from './row-mapper';

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

export interface SessionsRepository {
  insert(session: Session): Promise<void>;
  /** The session with its user, in one query: every authenticated request asks this. */
  findLive(sessionId: string, userId: string, at: string): Promise<{ session: Session; user: User } | undefined>;
  find(sessionId: string): Promise<Session | undefined>;
  end(sessionId: string, at: string, reason: SessionEndReason): Promise<void>;
  /** Ends every live session of the user but `keep`; answers how many ended. */
  endAllOf(userId: string, at: string, reason: SessionEndReason, keep?: string): Promise<number>;
  /** Forgets sessions that ended or expired before `before` (and their refresh tokens). */
  prune(userId: string, before: string): Promise<void>;
  insertRefreshToken(token: { token_hash: string; session_id: string; created_at: string }): Promise<void>;
  /**
   * Spends a refresh token. `fresh` is true for exactly one caller, however many present it at
   * once; a token already spent answers `fresh: false` (reuse).
   */
  spendRefreshToken(tokenHash: string, at: string): Promise<{ sessionId: string; fresh: boolean } | undefined>;
}

const SESSION_COLUMNS = ['id', 'user_id', 'method', 'created_at', 'expires_at', 'revoked_at', 'revoked_reason'];

/** The columns of a User (never the password hash): the compiler checks the list against User. */
const USER_COLUMNS = Object.keys({ id: true, name: true, email: true, age: true, role: true, created_at: true, updated_at: true } satisfies Record<keyof User, true>);

/** The query every authenticated request makes, compiled once per store. */
export interface SessionsQueries {
  findLive: CompiledQuery<'sessionId' | 'userId' | 'at', Record<string, unknown> | undefined>;
}

export function compileSessionsQueries(db: Knex): SessionsQueries {
  return {
    findLive: compileQuery(db, (parameters) =>
      db('sessions')
        .join('users', 'users.id', 'sessions.user_id')
        .where('sessions.id', parameters.value('sessionId'))
        .andWhere('sessions.user_id', parameters.value('userId'))
        .whereNull('sessions.revoked_at')
        .andWhere('sessions.expires_at', '>', parameters.value('at'))
        .first(
          ...SESSION_COLUMNS.map((column) => `sessions.${column} as session_${column}`),
          ...USER_COLUMNS.map((column) => `users.${column}`),
        ),
    ),
  };
}

export function createSessionsRepository(db: Executor, mapper: RowMapper, queries: SessionsQueries): SessionsRepository {
  return {
    async insert(session) {
      await db('sessions').insert(session);
    },
    async findLive(sessionId, userId, at) {
      if (!isId(sessionId) || !isId(userId)) return undefined;
      const row = await queries.findLive.run(db, { sessionId, userId, at });
      if (!row) return undefined;
      return { session: toSession(row, 'session_'), user: mapper.toUser(row) };
    },
    async find(sessionId) {
      if (!isId(sessionId)) return undefined;
      const row = await db('sessions').where({ id: sessionId }).first();
      return row ? toSession(row, '') : undefined;
    },
    async end(sessionId, at, reason) {
      await db('sessions').where({ id: sessionId }).whereNull('revoked_at').update({ revoked_at: at, revoked_reason: reason });
    },
    async endAllOf(userId, at, reason, keep) {
      const query = db('sessions').where({ user_id: userId }).whereNull('revoked_at').andWhere('expires_at', '>', at);
      if (keep !== undefined) query.andWhereNot({ id: keep });
      return query.update({ revoked_at: at, revoked_reason: reason });
    },
    async prune(userId, before) {
      await db('sessions')
        .where({ user_id: userId })
        .andWhere((ended) => ended.where('expires_at', '<', before).orWhere('revoked_at', '<', before))
        .delete();
    },
    async insertRefreshToken(token) {
      await db('refresh_tokens').insert(token);
    },
    async spendRefreshToken(tokenHash, at) {
      const row = await db('refresh_tokens').where({ token_hash: tokenHash }).first('session_id');
      if (!row) return undefined;
      const spent = await db('refresh_tokens').where({ token_hash: tokenHash }).whereNull('used_at').update({ used_at: at });
      return { sessionId: String(row.session_id), fresh: spent === 1 };
    },
  };
}

function toSession(row: Record<string, unknown>, prefix: string): Session {
  const value = (column: string) => row[`${prefix}${column}`];
  return {
    id: String(value('id')),
    user_id: String(value('user_id')),
    method: value('method') as Session['method'],
    created_at: toIsoTimestamp(value('created_at')),
    expires_at: toIsoTimestamp(value('expires_at')),
    revoked_at: value('revoked_at') === null || value('revoked_at') === undefined ? null : toIsoTimestamp(value('revoked_at')),
    revoked_reason: (value('revoked_reason') ?? null) as Session['revoked_reason'],
  };
}
