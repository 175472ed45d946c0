import type { Executor } from './compiled-query';
import type { IdempotencyRecord, KeptAnswer } from './records';
import type { RowMapper } from './row-mapper';

/** A key's row when an attempt begins: no answer yet. */
export type NewIdempotencyKey = Omit<IdempotencyRecord, 'answer'>;

export interface IdempotencyKeysRepository {
  /** Inserts the row unless (principal, key) has one: true for exactly one of any number of racing inserts. */
  insert(row: NewIdempotencyKey): Promise<boolean>;
  find(principal: string, key: string): Promise<IdempotencyRecord | undefined>;
  /**
   * Compare-and-swap on `owner`: the row becomes `row`'s attempt (no answer) while `previousOwner`
   * still holds it. False when another attempt took it first.
   */
  takeOver(previousOwner: string, row: NewIdempotencyKey): Promise<boolean>;
  /** Keeps the answer of `owner`'s attempt; false when the row is no longer its own. */
  complete(principal: string, key: string, owner: string, answer: KeptAnswer): Promise<boolean>;
  /** Forgets `owner`'s attempt, so that the key can be sent again. */
  release(principal: string, key: string, owner: string): Promise<void>;
  /** Deletes up to `limit` rows that expired by `at`; answers how many. */
  purgeExpired(at: string, limit: number): Promise<number>;
}

const ANSWER_CLEARED = { status: null, content_type: null, location: null, etag: null, cache_control: null, body: null, sealed: false };

export function createIdempotencyKeysRepository(db: Executor, mapper: RowMapper): IdempotencyKeysRepository {
  return {
    async insert(row) {
      const inserted = await db('idempotency_keys').insert(row).onConflict(['principal', 'key']).ignore().returning('owner');
      return inserted.length === 1;
    },
    async find(principal, key) {
      const row = await db('idempotency_keys').where({ principal, key }).first();
      return row ? mapper.toIdempotencyRecord(row) : undefined;
    },
    async takeOver(previousOwner, row) {
      const changed = await db('idempotency_keys')
        .where({ principal: row.principal, key: row.key, owner: previousOwner })
        .update({ ...ANSWER_CLEARED, fingerprint: row.fingerprint, owner: row.owner, started_at: row.started_at, expires_at: row.expires_at });
      return changed === 1;
    },
    async complete(principal, key, owner, answer) {
      const changed = await db('idempotency_keys').where({ principal, key, owner }).whereNull('status').update(answer);
      return changed === 1;
    },
    async release(principal, key, owner) {
      await db('idempotency_keys').where({ principal, key, owner }).whereNull('status').delete();
    },
    async purgeExpired(at, limit) {
      // One bounded batch per call: a backlog is purged over several runs rather than in one long lock.
      const doomed = db('idempotency_keys').select('principal', 'key').where('expires_at', '<=', at).limit(limit);
      return db('idempotency_keys').whereIn(['principal', 'key'], doomed).delete();
    },
  };
}
