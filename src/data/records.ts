/** Rows the service stores but never sends as they are: the repositories read and write them, the row mapper builds them. */
import type { AttemptOutcome, FleetEvent, Invitation, Lease, LogLevel, TaskProgress, Webhook, WorkerKind } from '../model';

/** What a lease records as its task's attempt: who claimed it, how it went, what it used. */
export interface AttemptFields {
  /** Its place among its task's leases, from 1. */
  number: number;
  /** Who claimed it; null for leases made before claims were recorded. */
  worker_kind: WorkerKind | null;
  worker_id: string | null;
  outcome: AttemptOutcome | null;
  error: string | null;
  last_heartbeat_at: string | null;
  progress: TaskProgress | null;
  input_tokens: number;
  output_tokens: number;
  /** Whole millionths of a dollar. */
  cost_micro_usd: number;
  model: string | null;
  /** How long after its task's creation the lease began, in milliseconds (for a first lease, the task's wait). */
  wait_ms: number | null;
}

/** A lease as stored: without its task (read with it), with when it ended and what its attempt recorded. */
export type LeaseRecord = Omit<Lease, 'task'> & { ended_at: string | null } & AttemptFields;

/** Usage a worker reports, as stored: money in whole millionths of a dollar. */
export interface UsageDelta {
  input_tokens: number;
  output_tokens: number;
  cost_micro_usd: number;
  model: string | null;
}

/** A log line as stored. */
export interface LogLineRecord {
  id: string;
  agent_id: string;
  task_id: string;
  lease_id: string;
  attempt: number;
  level: LogLevel;
  message: string;
  data: unknown;
  at: string;
}

/** A user's account at a third-party provider (stored; never a response body). */
export interface Identity {
  id: string;
  user_id: string;
  provider: string;
  subject: string;
  email: string | null;
  created_at: string;
  updated_at: string;
}

/** A provider's tokens as stored: the token values are AES-256-GCM ciphertexts. */
export interface SealedTokens {
  access_token: string;
  refresh_token: string | null;
  token_type: string;
  scope: string | null;
  expires_at: string | null;
}

export interface ProviderTokenRecord extends SealedTokens {
  user_id: string;
  provider: string;
  version: number;
  refresh_lease_owner: string | null;
  refresh_lease_until: string | null;
  refreshed_at: string | null;
  refresh_failed_at: string | null;
  refresh_error: string | null;
  created_at: string;
  updated_at: string;
}

/** An event as stored: the Event that readers get, with the owner its agent had. */
export type EventRecord = FleetEvent & { owner_id: string | null };

/** An event the domain records; the store gives it its id when the transaction commits. */
export type NewEvent = Omit<EventRecord, 'id'>;

/** A webhook endpoint as stored: its secret sealed, and the last event committed before it existed. */
export type WebhookRecord = Webhook & { secret_sealed: string; after_event_id: number };

/** What a matching endpoint needs to know at fan-out: the workspace whose events it receives. */
export interface WebhookTarget {
  id: string;
  workspace_id: string;
  types: string[] | null;
  after_event_id: number;
}

/** A new delivery, as the fan-out writes it. */
export interface NewDelivery {
  webhook_id: string;
  event_id: number;
  event_type: string;
  payload: string;
}

/** A delivery claimed by one sender: what it needs to make one attempt. */
export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  event_id: number;
  payload: string;
  attempts: number;
  url: string;
  secret_sealed: string;
  claim_token: string;
}

/** How one attempt ended, and what the delivery becomes. */
export interface AttemptRecord {
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  /** When the attempt ended: the delivery's `updated_at`. */
  ended_at: string;
  delivery_status: 'pending' | 'succeeded' | 'failed';
  next_attempt_at: string | null;
}

/** The answer kept for an Idempotency-Key: what its retries get again. */
export interface KeptAnswer {
  status: number;
  content_type: string | null;
  location: string | null;
  etag: string | null;
  cache_control: string | null;
  /** The body as sent, or sealed (AES-256-GCM) when `sealed`. */
  body: string | null;
  sealed: boolean;
}

/** A create's Idempotency-Key: in flight while `answer` is null. */
export interface IdempotencyRecord {
  principal: string;
  key: string;
  fingerprint: string;
  /** The attempt that holds the row (a takeover gives it a new one). */
  owner: string;
  started_at: string;
  expires_at: string;
  answer: KeptAnswer | null;
}

/** An invitation as stored (without its token's digest): accepted or revoked ones are kept, and used no more. */
export type InvitationRecord = Invitation & { accepted_at: string | null; revoked_at: string | null };
