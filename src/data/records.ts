/** Rows the service stores but never sends as they are: the repositories read and write them, the row mapper builds them. */
import type { Lease } from '../model';

/** A lease as stored: without its task (read with it), with when it ended. */
export type LeaseRecord = Omit<Lease, 'task'> & { ended_at: string | null };

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
