import type { EventRecord, IdempotencyRecord, Identity, InvitationRecord, LeaseRecord, LogLineRecord, ProviderTokenRecord, WebhookRecord } from './records';
import type {
  Agent,
  AgentKey,
  AgentKeyScope,
  EventActor,
  EventType,
  Post,
  PostSummary,
  Schedule,
  Task,
  TaskSummary,
  User,
  WebhookAttempt,
  WebhookDelivery,
  Workspace,
  WorkspaceMember,
  WorkspaceRole,
} from '../model';

/**
 * The one place that knows how SQLite and PostgreSQL return values differently: timestamps
 * (ISO text on SQLite, Date on pg) and JSON (text on SQLite, parsed on pg).
 */
export interface RowMapper {
  toAgent(row: Record<string, unknown>): Agent;
  toTask(row: Record<string, unknown>): Task;
  toTaskSummary(row: Record<string, unknown>): TaskSummary;
  toLease(row: Record<string, unknown>): LeaseRecord;
  toLogLine(row: Record<string, unknown>): LogLineRecord;
  /** Never copies the password hash. */
  toUser(row: Record<string, unknown>): User;
  toPost(row: Record<string, unknown>): Post;
  toPostSummary(row: Record<string, unknown>): PostSummary;
  toIdentity(row: Record<string, unknown>): Identity;
  toProviderToken(row: Record<string, unknown>): ProviderTokenRecord;
  /** Never copies the secret's digest. */
  toAgentKey(row: Record<string, unknown>): AgentKey;
  /** The id as a string (PostgreSQL's bigint already is one; SQLite's is a number). */
  /** With the sealed secret: the repository leaves it out of what it answers to reads. */
  toWebhook(row: Record<string, unknown>): WebhookRecord;
  /** Without its attempts: the repository adds them. */
  toWebhookDelivery(row: Record<string, unknown>): Omit<WebhookDelivery, 'attempt_log'>;
  toWebhookAttempt(row: Record<string, unknown>): WebhookAttempt;
  toEvent(row: Record<string, unknown>): EventRecord;
  toIdempotencyRecord(row: Record<string, unknown>): IdempotencyRecord;
  toSchedule(row: Record<string, unknown>): Schedule;
  /** With the caller's role, read from `member_role` (null when absent). */
  toWorkspace(row: Record<string, unknown>): Workspace;
  /** A membership joined with its user's name and e-mail. */
  toWorkspaceMember(row: Record<string, unknown>): WorkspaceMember;
  /** Never copies the token's digest. */
  toInvitation(row: Record<string, unknown>): InvitationRecord;
}

export function createRowMapper(dialect: 'sqlite' | 'pg'): RowMapper {
  const json = (value: unknown): unknown => {
    if (value === null || value === undefined) return null;
    return dialect === 'sqlite' && typeof value === 'string' ? JSON.parse(value) : value;
  };
  return {
    toWorkspace: (row) => ({
      id: String(row.id),
      name: String(row.name),
      kind: row.kind as Workspace['kind'],
      role: (nullableText(row.member_role) as WorkspaceRole | null) ?? null,
      created_at: toIsoTimestamp(row.created_at),
      updated_at: toIsoTimestamp(row.updated_at),
    }),
    toWorkspaceMember: (row) => ({
      user_id: String(row.user_id),
      name: String(row.name),
      email: String(row.email),
      role: row.role as WorkspaceRole,
      created_at: toIsoTimestamp(row.created_at),
      updated_at: toIsoTimestamp(row.updated_at),
    }),
    toInvitation: (row) => ({
      id: String(row.id),
      workspace_id: String(row.workspace_id),
      email: String(row.email),
      role: row.role as WorkspaceRole,
      invited_by: nullableText(row.invited_by),
      created_at: toIsoTimestamp(row.created_at),
      expires_at: toIsoTimestamp(row.expires_at),
      accepted_at: toNullableIsoTimestamp(row.accepted_at),
      revoked_at: toNullableIsoTimestamp(row.revoked_at),
    }),
    toEvent: (row) => ({
      id: String(row.id),
      type: row.type as EventRecord['type'],
      occurred_at: toIsoTimestamp(row.occurred_at),
      agent_id: nullableText(row.agent_id),
      owner_id: nullableText(row.owner_id),
      workspace_id: String(row.workspace_id),
      actor: row.actor_type === null || row.actor_type === undefined ? null : { type: row.actor_type as EventActor['type'], id: String(row.actor_id) },
      task_id: nullableText(row.task_id),
      data: (json(row.data) ?? {}) as EventRecord['data'],
    }),
    toIdempotencyRecord: (row) => ({
      principal: String(row.principal),
      key: String(row.key),
      fingerprint: String(row.fingerprint),
      owner: String(row.owner),
      started_at: toIsoTimestamp(row.started_at),
      expires_at: toIsoTimestamp(row.expires_at),
      answer:
        row.status === null || row.status === undefined
          ? null
          : {
              status: Number(row.status),
              content_type: nullableText(row.content_type),
              location: nullableText(row.location),
              etag: nullableText(row.etag),
              cache_control: nullableText(row.cache_control),
              body: nullableText(row.body),
              // SQLite hands booleans back as 0 and 1.
              sealed: row.sealed === true || row.sealed === 1,
            },
    }),
    toUser: (row) => ({
      id: String(row.id),
      name: String(row.name),
      email: String(row.email),
      age: row.age === null || row.age === undefined ? null : Number(row.age),
      role: row.role as User['role'],
      created_at: toIsoTimestamp(row.created_at),
      updated_at: toIsoTimestamp(row.updated_at),
    }),
    toPost: (row) => ({
      id: String(row.id),
      user_id: String(row.user_id),
      title: String(row.title),
      body: String(row.body),
      created_at: toIsoTimestamp(row.created_at),
      updated_at: toIsoTimestamp(row.updated_at),
    }),
    toPostSummary: (row) => ({
      id: String(row.id),
      title: String(row.title),
      created_at: toIsoTimestamp(row.created_at),
      updated_at: toIsoTimestamp(row.updated_at),
    }),
    toAgent: (row) => ({
      id: String(row.id),
      owner_id: row.owner_id === null || row.owner_id === undefined ? null : String(row.owner_id),
      workspace_id: String(row.workspace_id),
      name: String(row.name),
      type: row.type as Agent['type'],
      status: row.status as Agent['status'],
      created_at: toIsoTimestamp(row.created_at),
      updated_at: toIsoTimestamp(row.updated_at),
      max_concurrency: row.max_concurrency === null || row.max_concurrency === undefined ? null : Number(row.max_concurrency),
    }),
    toTask: (row) => ({
      id: String(row.id),
      agent_id: String(row.agent_id),
      title: String(row.title),
      description: row.description === null || row.description === undefined ? null : String(row.description),
      input: json(row.input) as Task['input'],
      priority: Number(row.priority),
      status: row.status as Task['status'],
      result: json(row.result),
      error: row.error === null || row.error === undefined ? null : String(row.error),
      created_at: toIsoTimestamp(row.created_at),
      updated_at: toIsoTimestamp(row.updated_at),
      started_at: toNullableIsoTimestamp(row.started_at),
      finished_at: toNullableIsoTimestamp(row.finished_at),
      attempts: Number(row.attempts),
      max_attempts: Number(row.max_attempts),
      available_at: toIsoTimestamp(row.available_at),
      progress: json(row.progress) as Task['progress'],
      lease_id: nullableText(row.lease_id),
      last_error: nullableText(row.last_error),
      usage: usageOf(row),
      run_at: toNullableIsoTimestamp(row.run_at),
      timeout_seconds: row.timeout_seconds === null || row.timeout_seconds === undefined ? null : Number(row.timeout_seconds),
      deadline_at: toNullableIsoTimestamp(row.deadline_at),
      schedule_id: nullableText(row.schedule_id),
    }),
    toLease: (row) => ({
      id: String(row.id),
      agent_id: String(row.agent_id),
      task_id: String(row.task_id),
      status: row.status as LeaseRecord['status'],
      ttl_seconds: Number(row.ttl_seconds),
      expires_at: toIsoTimestamp(row.expires_at),
      created_at: toIsoTimestamp(row.created_at),
      ended_at: toNullableIsoTimestamp(row.ended_at),
      number: Number(row.number),
      worker_kind: nullableText(row.worker_kind) as LeaseRecord['worker_kind'],
      worker_id: nullableText(row.worker_id),
      outcome: nullableText(row.outcome) as LeaseRecord['outcome'],
      error: nullableText(row.error),
      last_heartbeat_at: toNullableIsoTimestamp(row.last_heartbeat_at),
      progress: json(row.progress) as LeaseRecord['progress'],
      input_tokens: Number(row.input_tokens),
      output_tokens: Number(row.output_tokens),
      cost_micro_usd: Number(row.cost_micro_usd),
      model: nullableText(row.model),
      wait_ms: row.wait_ms === null || row.wait_ms === undefined ? null : Number(row.wait_ms),
    }),
    toLogLine: (row) => ({
      id: String(row.id),
      agent_id: String(row.agent_id),
      task_id: String(row.task_id),
      lease_id: String(row.lease_id),
      attempt: Number(row.attempt),
      level: row.level as LogLineRecord['level'],
      message: String(row.message),
      data: row.data === null || row.data === undefined ? null : JSON.parse(String(row.data)),
      at: toIsoTimestamp(row.at),
    }),
    toTaskSummary: (row) => ({
      id: String(row.id),
      title: String(row.title),
      status: row.status as Task['status'],
      priority: Number(row.priority),
      created_at: toIsoTimestamp(row.created_at),
      updated_at: toIsoTimestamp(row.updated_at),
      started_at: toNullableIsoTimestamp(row.started_at),
      finished_at: toNullableIsoTimestamp(row.finished_at),
    }),
    toIdentity: (row) => ({
      id: String(row.id),
      user_id: String(row.user_id),
      provider: String(row.provider),
      subject: String(row.subject),
      email: nullableText(row.email),
      created_at: toIsoTimestamp(row.created_at),
      updated_at: toIsoTimestamp(row.updated_at),
    }),
    toProviderToken: (row) => ({
      user_id: String(row.user_id),
      provider: String(row.provider),
      access_token: String(row.access_token),
      refresh_token: nullableText(row.refresh_token),
      token_type: String(row.token_type),
      scope: nullableText(row.scope),
      expires_at: toNullableIsoTimestamp(row.expires_at),
      version: Number(row.version),
      refresh_lease_owner: nullableText(row.refresh_lease_owner),
      refresh_lease_until: toNullableIsoTimestamp(row.refresh_lease_until),
      refreshed_at: toNullableIsoTimestamp(row.refreshed_at),
      refresh_failed_at: toNullableIsoTimestamp(row.refresh_failed_at),
      refresh_error: nullableText(row.refresh_error),
      created_at: toIsoTimestamp(row.created_at),
      updated_at: toIsoTimestamp(row.updated_at),
    }),
    toAgentKey: (row) => ({
      id: String(row.id),
      agent_id: String(row.agent_id),
      name: String(row.name),
      prefix: String(row.prefix),
      scopes: String(row.scopes).split(' ').filter(Boolean) as AgentKeyScope[],
      created_at: toIsoTimestamp(row.created_at),
      expires_at: toNullableIsoTimestamp(row.expires_at),
      last_used_at: toNullableIsoTimestamp(row.last_used_at),
      revoked_at: toNullableIsoTimestamp(row.revoked_at),
    }),
    toWebhook: (row) => ({
      id: String(row.id),
      owner_id: nullableText(row.owner_id),
      workspace_id: String(row.workspace_id),
      url: String(row.url),
      types: row.types === null || row.types === undefined ? null : (String(row.types).split(' ').filter(Boolean) as EventType[]),
      description: nullableText(row.description),
      enabled: Boolean(row.enabled),
      created_at: toIsoTimestamp(row.created_at),
      updated_at: toIsoTimestamp(row.updated_at),
      secret_sealed: String(row.secret_sealed),
      after_event_id: Number(row.after_event_id),
    }),
    toWebhookDelivery: (row) => ({
      id: String(row.id),
      webhook_id: String(row.webhook_id),
      event_id: String(row.event_id),
      event_type: row.event_type as EventType,
      status: row.status as WebhookDelivery['status'],
      attempts: Number(row.attempts),
      last_status_code: row.last_status_code === null || row.last_status_code === undefined ? null : Number(row.last_status_code),
      last_error: nullableText(row.last_error),
      next_attempt_at: toNullableIsoTimestamp(row.next_attempt_at),
      created_at: toIsoTimestamp(row.created_at),
      updated_at: toIsoTimestamp(row.updated_at),
    }),
    toSchedule: (row) => ({
      id: String(row.id),
      agent_id: String(row.agent_id),
      name: nullableText(row.name),
      cron: nullableText(row.cron),
      timezone: String(row.timezone),
      interval_seconds: row.interval_seconds === null || row.interval_seconds === undefined ? null : Number(row.interval_seconds),
      template: json(row.template) as Schedule['template'],
      // SQLite hands booleans back as 0 and 1.
      paused: row.paused === true || row.paused === 1,
      overlap: row.overlap as Schedule['overlap'],
      next_run_at: toNullableIsoTimestamp(row.next_run_at),
      last_run_at: toNullableIsoTimestamp(row.last_run_at),
      last_task_id: nullableText(row.last_task_id),
      last_error: nullableText(row.last_error),
      created_at: toIsoTimestamp(row.created_at),
      updated_at: toIsoTimestamp(row.updated_at),
    }),
    toWebhookAttempt: (row) => ({
      attempted_at: toIsoTimestamp(row.attempted_at),
      status_code: row.status_code === null || row.status_code === undefined ? null : Number(row.status_code),
      error: nullableText(row.error),
      duration_ms: Number(row.duration_ms),
    }),
  };
}

const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Values are written as ISO 8601 UTC text; both databases hand them back in their own way. */
export function toIsoTimestamp(value: unknown): string {
  // SQLite returns exactly what was written: no Date round trip on every row of every page.
  if (typeof value === 'string' && ISO_UTC_MS.test(value)) return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number') return new Date(value).toISOString();
  if (typeof value === 'string') return new Date(value).toISOString();
  throw new TypeError(`Unexpected timestamp value of type ${typeof value}`);
}

/** Money is stored as whole millionths of a dollar (bigint: a string on pg) and read as dollars. */
export const dollarsOf = (microUsd: unknown): number => Number(microUsd ?? 0) / 1_000_000;

/** The usage summed on a row (a task's, a lease's). */
export function usageOf(row: Record<string, unknown>): { input_tokens: number; output_tokens: number; cost_usd: number } {
  return { input_tokens: Number(row.input_tokens ?? 0), output_tokens: Number(row.output_tokens ?? 0), cost_usd: dollarsOf(row.cost_micro_usd) };
}

function nullableText(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

function toNullableIsoTimestamp(value: unknown): string | null {
  return value === null || value === undefined ? null : toIsoTimestamp(value);
}

/** JSON columns are written as text on both databases (pg would turn a JS array into an SQL array). */
export function toJsonColumn(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
