import type { Knex } from 'knex';
import type { RowMapper } from './row-mapper';
import type { ProviderTokenRecord, SealedTokens } from './records';

export interface ProviderTokensRepository {
  /** Stores a sign-in's tokens, replacing any earlier ones and any refresh in flight. */
  save(userId: string, provider: string, tokens: SealedTokens, at: string): Promise<void>;
  find(userId: string, provider: string): Promise<ProviderTokenRecord | undefined>;
  listByUser(userId: string): Promise<ProviderTokenRecord[]>;
  /**
   * Compare-and-swap: takes the refresh lease only while the row still has `version` and no live
   * lease. True for exactly one of any number of concurrent callers, across instances.
   */
  claimRefresh(userId: string, provider: string, claim: { version: number; owner: string; until: string; now: string }): Promise<boolean>;
  /** Stores refreshed tokens, bumps the version and releases the lease: only for the lease owner. */
  completeRefresh(userId: string, provider: string, owner: string, tokens: SealedTokens, at: string): Promise<boolean>;
  /** Records a failed refresh, bumps the version and releases the lease (the stored tokens stay as they were). */
  failRefresh(userId: string, provider: string, owner: string, error: string, at: string): Promise<boolean>;
  remove(userId: string, provider: string): Promise<boolean>;
}

export function createProviderTokensRepository(db: Knex | Knex.Transaction, mapper: RowMapper): ProviderTokensRepository {
  const row = (userId: string, provider: string) => db('provider_tokens').where({ user_id: userId, provider });
  return {
    async save(userId, provider, tokens, at) {
      await db('provider_tokens')
        .insert({
          user_id: userId,
          provider,
          ...tokens,
          version: 1,
          refresh_lease_owner: null,
          refresh_lease_until: null,
          refreshed_at: null,
          refresh_failed_at: null,
          refresh_error: null,
          created_at: at,
          updated_at: at,
        })
        .onConflict(['user_id', 'provider'])
        .merge({
          ...tokens,
          version: db.raw('?? + 1', ['provider_tokens.version']),
          refresh_lease_owner: null,
          refresh_lease_until: null,
          refresh_failed_at: null,
          refresh_error: null,
          updated_at: at,
        });
    },
    async find(userId, provider) {
      const found = await row(userId, provider).first();
      return found ? mapper.toProviderToken(found) : undefined;
    },
    async listByUser(userId) {
      return (await db('provider_tokens').where({ user_id: userId })).map(mapper.toProviderToken);
    },
    async claimRefresh(userId, provider, { version, owner, until, now }) {
      const updated = await row(userId, provider)
        .where({ version })
        .where((free) => free.whereNull('refresh_lease_owner').orWhere('refresh_lease_until', '<', now))
        .update({ refresh_lease_owner: owner, refresh_lease_until: until });
      return updated === 1;
    },
    async completeRefresh(userId, provider, owner, tokens, at) {
      const updated = await row(userId, provider)
        .where({ refresh_lease_owner: owner })
        .update({
          ...tokens,
          version: db.raw('?? + 1', ['version']),
          refresh_lease_owner: null,
          refresh_lease_until: null,
          refreshed_at: at,
          refresh_failed_at: null,
          refresh_error: null,
          updated_at: at,
        });
      return updated === 1;
    },
    async failRefresh(userId, provider, owner, error, at) {
      const updated = await row(userId, provider)
        .where({ refresh_lease_owner: owner })
        .update({
          // A new version too: callers that waited for this refresh see that it ended, and do not retry it.
          version: db.raw('?? + 1', ['version']),
          refresh_lease_owner: null,
          refresh_lease_until: null,
          refresh_failed_at: at,
          refresh_error: error,
          updated_at: at,
        });
      return updated === 1;
    },
    async remove(userId, provider) {
      return (await row(userId, provider).delete()) > 0;
    },
  };
}
