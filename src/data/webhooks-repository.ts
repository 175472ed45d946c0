import type { Knex } from 'knex';
import type { ListQuery, ListResult } from './list-query';
import type { Webhook, WebhookDelivery, WorkspaceRole } from '../model';
import { runListQuery } from './collection-query';
import type { Executor } from './compiled-query';
import { isId, newId } from './ids';
import type { AttemptRecord, ClaimedDelivery, EventRecord, NewDelivery, WebhookRecord, WebhookTarget } from './records';
import type { RowMapper } from './row-mapper';
import { compileWorkspacePages, confineTo, withMemberRole, type Reached, type WorkspaceReach, type WorkspacePages } from './workspace-scope';

/** The columns a Webhook is read from (the compiler checks the list against Webhook: never the secret). */
const COLUMNS = Object.keys({
  id: true,
  owner_id: true,
  workspace_id: true,
  url: true,
  types: true,
  description: true,
  enabled: true,
  created_at: true,
  updated_at: true,
} satisfies Record<keyof Omit<Webhook, 'secret'>, true>);

const DELIVERY_COLUMNS = Object.keys({
  id: true,
  webhook_id: true,
  event_id: true,
  event_type: true,
  status: true,
  attempts: true,
  last_status_code: true,
  last_error: true,
  next_attempt_at: true,
  created_at: true,
  updated_at: true,
} satisfies Record<keyof Omit<WebhookDelivery, 'attempt_log'>, true>);

/** What a change of an endpoint may write. */
export type WebhookChanges = Partial<Pick<Webhook, 'url' | 'types' | 'description' | 'enabled'>> & { updated_at: string };

export interface WebhooksRepository {
  insert(webhook: WebhookRecord): Promise<void>;
  /** One endpoint with the member's role in its workspace; with `memberId`, one outside the member's workspaces reads as missing. */
  find(webhookId: string, memberId?: string): Promise<Reached<WebhookRecord> | undefined>;
  list(query: ListQuery, reach: WorkspaceReach): Promise<ListResult<Webhook>>;
  update(webhookId: string, changes: WebhookChanges): Promise<void>;
  /** Deletes it with its deliveries and their attempts; false when there was none. */
  remove(webhookId: string): Promise<boolean>;
  /** The newest event's id (0 when there is none): an endpoint created now receives only later ones. */
  newestEventId(): Promise<number>;
  /** An endpoint's deliveries, newest first, each with its attempts (oldest first). */
  listDeliveries(webhookId: string, query: ListQuery): Promise<ListResult<WebhookDelivery>>;
  /** One delivery of the endpoint, with its attempts (oldest first). */
  findDelivery(webhookId: string, deliveryId: string): Promise<WebhookDelivery | undefined>;
  /**
   * Makes one delivery of the endpoint `pending` and due at `at`, whatever its status, in one
   * atomic UPDATE that also drops an expired claim (its sender's late record is then refused):
   * `claimed` when a sender holds a live claim of it (nothing is written), `missing` when the
   * endpoint has no such delivery.
   */
  makeDue(webhookId: string, deliveryId: string, at: string): Promise<'due' | 'claimed' | 'missing'>;

  /**
   * In a transaction: the fan-out mark, locked until the transaction ends; undefined when another
   * process holds it (PostgreSQL's SKIP LOCKED; on SQLite the transaction's write lock serialises).
   */
  lockFanoutMark(): Promise<number | undefined>;
  /** The fan-out mark as it is, without a lock: to tell whether there is anything to do. */
  fanoutMark(): Promise<number>;
  setFanoutMark(eventId: number): Promise<void>;
  /** Events after `eventId`, oldest first, at most `limit`. */
  eventsAfter(eventId: number, limit: number): Promise<EventRecord[]>;
  /** The enabled endpoints, with the workspace whose events each receives. */
  enabledTargets(): Promise<WebhookTarget[]>;
  /** Inserts pending deliveries due at `at`; one that exists already (same endpoint and event) is left as it is. */
  insertDeliveries(deliveries: NewDelivery[], at: string): Promise<void>;

  /**
   * Takes the lease of one due delivery of an enabled endpoint (pending, `next_attempt_at` passed,
   * no live lease) until `lockedUntil`, in one atomic UPDATE: of processes racing, one gets it.
   */
  claimDue(at: string, lockedUntil: string): Promise<ClaimedDelivery | undefined>;
  /**
   * Records an attempt of a claimed delivery, and ends the claim, unless the lease was lost (it
   * expired and another sender took it, or the endpoint was deleted): then nothing is written
   * and false is answered.
   */
  recordAttempt(claim: ClaimedDelivery, attempt: AttemptRecord): Promise<boolean>;
}

export interface WebhooksQueries {
  pages: WorkspacePages;
}

export function compileWebhooksQueries(db: Knex): WebhooksQueries {
  return { pages: compileWorkspacePages(db, 'webhooks', COLUMNS) };
}

export function createWebhooksRepository(db: Executor, mapper: RowMapper, postgres: boolean, queries: WebhooksQueries): WebhooksRepository {
  const toPublic = (row: Record<string, unknown>): Webhook => {
    const { secret_sealed: _secret, after_event_id: _after, ...webhook } = mapper.toWebhook({ ...row, secret_sealed: '', after_event_id: 0 });
    return webhook;
  };
  /** Deliveries' rows with their attempts, oldest first, read in one query. */
  const withAttempts = async (rows: Array<Record<string, unknown>>): Promise<WebhookDelivery[]> => {
    const ids = rows.map((row) => String(row.id));
    const attempts: Array<Record<string, unknown>> = ids.length === 0 ? [] : await db('webhook_attempts').select('*').whereIn('delivery_id', ids).orderBy('id', 'asc');
    const byDelivery = new Map<string, Array<Record<string, unknown>>>();
    for (const attempt of attempts) {
      const key = String(attempt.delivery_id);
      byDelivery.set(key, [...(byDelivery.get(key) ?? []), attempt]);
    }
    return rows.map((row) => ({ ...mapper.toWebhookDelivery(row), attempt_log: (byDelivery.get(String(row.id)) ?? []).map(mapper.toWebhookAttempt) }));
  };
  return {
    async insert(webhook) {
      await db('webhooks').insert({ ...webhook, types: webhook.types === null ? null : webhook.types.join(' ') });
    },
    async find(webhookId, memberId) {
      if (!isId(webhookId)) return undefined;
      const query = db('webhooks')
        .select([...COLUMNS, 'secret_sealed', 'after_event_id'].map((column) => `webhooks.${column}`))
        .where('webhooks.id', webhookId);
      if (memberId !== undefined) withMemberRole(query, 'webhooks.workspace_id', memberId);
      const row = await query.first();
      return row ? { item: mapper.toWebhook(row), role: memberId === undefined ? null : (row.member_role as WorkspaceRole) } : undefined;
    },
    async list(query, reach) {
      const result = (await queries.pages.run(db, query, reach)) ?? (await runListQuery(confineTo(db('webhooks').select(COLUMNS), db, reach), query, { created_at: 'time' }));
      return { ...result, items: result.items.map(toPublic) };
    },
    async update(webhookId, changes) {
      const { types, ...rest } = changes;
      await db('webhooks')
        .where({ id: webhookId })
        .update({ ...rest, ...(types === undefined ? {} : { types: types === null ? null : types.join(' ') }) });
    },
    async remove(webhookId) {
      if (!isId(webhookId)) return false;
      // SQLite enforces the cascade only with foreign keys on; both databases are told plainly.
      const deliveries = db('webhook_deliveries').select('id').where({ webhook_id: webhookId });
      await db('webhook_attempts').whereIn('delivery_id', deliveries).delete();
      await db('webhook_deliveries').where({ webhook_id: webhookId }).delete();
      return (await db('webhooks').where({ id: webhookId }).delete()) > 0;
    },
    async newestEventId() {
      const row = await db('events').max({ id: 'id' }).first();
      return Number(row?.id ?? 0);
    },
    async listDeliveries(webhookId, query) {
      const result = await runListQuery(db('webhook_deliveries').select(DELIVERY_COLUMNS).where({ webhook_id: webhookId }), query, { created_at: 'time' });
      return { ...result, items: await withAttempts(result.items) };
    },
    async findDelivery(webhookId, deliveryId) {
      if (!isId(deliveryId)) return undefined;
      const row: Record<string, unknown> | undefined = await db('webhook_deliveries').select(DELIVERY_COLUMNS).where({ id: deliveryId, webhook_id: webhookId }).first();
      return row ? (await withAttempts([row]))[0] : undefined;
    },
    async makeDue(webhookId, deliveryId, at) {
      if (!isId(deliveryId)) return 'missing';
      const updated = await db('webhook_deliveries')
        .where({ id: deliveryId, webhook_id: webhookId })
        .andWhere((free) => free.whereNull('locked_until').orWhere('locked_until', '<=', at))
        .update({ status: 'pending', next_attempt_at: at, locked_until: null, claim_token: null, updated_at: at });
      if (Number(updated) > 0) return 'due';
      const row = await db('webhook_deliveries').select('id').where({ id: deliveryId, webhook_id: webhookId }).first();
      return row ? 'claimed' : 'missing';
    },

    async lockFanoutMark() {
      const query = db('webhook_fanout').select('last_event_id').where({ id: 1 });
      const row = await (postgres ? query.forUpdate().skipLocked() : query).first();
      return row ? Number(row.last_event_id) : undefined;
    },
    async fanoutMark() {
      const row = await db('webhook_fanout').select('last_event_id').where({ id: 1 }).first();
      return Number(row?.last_event_id ?? 0);
    },
    async setFanoutMark(eventId) {
      await db('webhook_fanout').where({ id: 1 }).update({ last_event_id: eventId });
    },
    async eventsAfter(eventId, limit) {
      const rows: Array<Record<string, unknown>> = await db('events').select('*').where('id', '>', eventId).orderBy('id', 'asc').limit(limit);
      return rows.map(mapper.toEvent);
    },
    async enabledTargets() {
      const rows: Array<Record<string, unknown>> = await db('webhooks').select('id', 'workspace_id', 'types', 'after_event_id').where('enabled', true);
      return rows.map((row) => ({
        id: String(row.id),
        workspace_id: String(row.workspace_id),
        types: row.types === null || row.types === undefined ? null : String(row.types).split(' ').filter(Boolean),
        after_event_id: Number(row.after_event_id),
      }));
    },
    async insertDeliveries(deliveries, at) {
      if (deliveries.length === 0) return;
      const rows = deliveries.map((delivery) => ({
        ...delivery,
        id: newId(),
        status: 'pending',
        attempts: 0,
        next_attempt_at: at,
        created_at: at,
        updated_at: at,
      }));
      // Bounded batches: SQLite allows a limited number of bound values per statement.
      for (let start = 0; start < rows.length; start += 50) {
        await db('webhook_deliveries').insert(rows.slice(start, start + 50)).onConflict(['webhook_id', 'event_id']).ignore();
      }
    },

    async claimDue(at, lockedUntil) {
      const token = newId();
      const due = db('webhook_deliveries as d')
        .join('webhooks as w', 'w.id', 'd.webhook_id')
        .select('d.id')
        .where('d.status', 'pending')
        .andWhere('d.next_attempt_at', '<=', at)
        .andWhere((free) => free.whereNull('d.locked_until').orWhere('d.locked_until', '<=', at))
        .andWhere('w.enabled', true)
        .orderBy([{ column: 'd.next_attempt_at' }, { column: 'd.id' }])
        .limit(1);
      if (postgres) due.forUpdate('d').skipLocked();
      // The conditions are repeated outside the subquery: PostgreSQL re-checks them on the row it
      // waited for, so two claimers that picked the same row never both take it.
      const claimed = await db('webhook_deliveries')
        .where('id', '=', due)
        .andWhere('status', 'pending')
        .andWhere((free) => free.whereNull('locked_until').orWhere('locked_until', '<=', at))
        .update({ locked_until: lockedUntil, claim_token: token });
      if (Number(claimed) === 0) return undefined;
      const row = await db('webhook_deliveries as d')
        .join('webhooks as w', 'w.id', 'd.webhook_id')
        .select('d.id', 'd.webhook_id', 'd.event_id', 'd.payload', 'd.attempts', 'w.url', 'w.secret_sealed')
        .where({ 'd.claim_token': token })
        .first();
      if (!row) return undefined;
      return {
        id: String(row.id),
        webhook_id: String(row.webhook_id),
        event_id: Number(row.event_id),
        payload: String(row.payload),
        attempts: Number(row.attempts),
        url: String(row.url),
        secret_sealed: String(row.secret_sealed),
        claim_token: token,
      };
    },
    async recordAttempt(claim, attempt) {
      const updated = await db('webhook_deliveries')
        .where({ id: claim.id, claim_token: claim.claim_token })
        .update({
          status: attempt.delivery_status,
          attempts: claim.attempts + 1,
          last_status_code: attempt.status_code,
          last_error: attempt.error,
          next_attempt_at: attempt.next_attempt_at,
          locked_until: null,
          claim_token: null,
          updated_at: attempt.ended_at,
        });
      if (Number(updated) === 0) return false;
      await db('webhook_attempts').insert({
        id: newId(),
        delivery_id: claim.id,
        attempted_at: attempt.attempted_at,
        status_code: attempt.status_code,
        error: attempt.error,
        duration_ms: attempt.duration_ms,
      });
      return true;
    },
  };
}
