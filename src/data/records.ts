/** Rows the service stores but never sends as they are: the repositories read and write them, the row mapper builds them. */
import type { FleetEvent, Lease } from '../model';

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

/** An event as stored: the Event that readers get, with the owner its agent had (who may read it). */
export type EventRecord = FleetEvent & { owner_id: string | null };

/** An event the domain records; the store gives it its id when the transaction commits. */
export type NewEvent = Omit<EventRecord, 'id'>;
