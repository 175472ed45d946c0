import * as client from 'openid-client';
import { SignInError, type SignInFailureReason } from '../../errors';

export interface FailureDescription {
  reason: SignInFailureReason;
  /** The error text for the log: never a token, code, verifier or secret. */
  message: string;
  /** The provider answered something unusable (an alert signal of its own). */
  invalidProviderResponse: boolean;
}

const ID_TOKEN_CODES = new Set([
  'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
  'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
  'OAUTH_KEY_SELECTION_FAILED',
]);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET']);
const TOKEN_ENDPOINT_ERRORS: Record<string, SignInFailureReason> = {
  invalid_grant: 'invalid_grant',
  invalid_client: 'invalid_client',
  unauthorized_client: 'invalid_client',
};

/** Sorts what openid-client, the network or this service threw into the reasons logs and metrics use. */
export function describeFailure(error: unknown): FailureDescription {
  if (error instanceof SignInError) return { reason: error.reason, message: error.message, invalidProviderResponse: false };
  if (error instanceof client.ResponseBodyError) {
    const message = `${error.error}${error.error_description ? `: ${error.error_description}` : ''} (HTTP ${error.status})`;
    return { reason: TOKEN_ENDPOINT_ERRORS[error.error] ?? 'token_error', message, invalidProviderResponse: false };
  }
  if (error instanceof client.AuthorizationResponseError) {
    return { reason: 'provider_error', message: `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`, invalidProviderResponse: false };
  }
  if (isUnreachable(error)) {
    return { reason: 'provider_unreachable', message: networkMessage(error), invalidProviderResponse: false };
  }
  if (error instanceof client.ClientError) {
    const code = error.code ?? 'unknown';
    const cause = (error as { cause?: { message?: unknown } }).cause;
    const detail = typeof cause?.message === 'string' && cause.message !== error.message ? `: ${cause.message}` : '';
    const idToken = ID_TOKEN_CODES.has(code) || /JWT|ID Token/i.test(detail);
    return { reason: idToken ? 'invalid_id_token' : 'invalid_response', message: `${error.message}${detail} (${code})`, invalidProviderResponse: true };
  }
  return { reason: 'internal_error', message: error instanceof Error ? error.message : String(error), invalidProviderResponse: false };
}

/** A network failure or time-out anywhere in the cause chain (openid-client wraps fetch's errors). */
function isUnreachable(error: unknown): boolean {
  return causes(error).some((item) => {
    const { name, code, message } = item as { name?: unknown; code?: unknown; message?: unknown };
    if (name === 'TimeoutError' || name === 'AbortError') return true;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    return item instanceof TypeError && message === 'fetch failed';
  });
}

function networkMessage(error: unknown): string {
  return causes(error)
    .map((item) => {
      const { code, message } = item as { code?: unknown; message?: unknown };
      return typeof code === 'string' && !String(message).includes(code) ? `${String(message)} (${code})` : String(message);
    })
    .join(': ');
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let item = error; item !== null && typeof item === 'object' && chain.length < 5; item = (item as { cause?: unknown }).cause) chain.push(item);
  return chain;
}
