import type { FailureDescription } from '../auth/oauth/failures';
import type { RefreshFailure } from '../auth/oauth/provider-tokens';
import type { Logger } from '../logger';
import type { Metrics } from './observability';

export interface SignInFailureContext {
  provider: string;
  stage: 'start' | 'callback';
  requestId: string;
  clientIp: string | undefined;
}

export interface OAuthTelemetry {
  signInFailed(context: SignInFailureContext, failure: FailureDescription): void;
  refreshFailed(failure: RefreshFailure): void;
}

/**
 * Logs every sign-in and refresh failure (error text, client IP, provider: never a token, code,
 * verifier or secret) and counts the specification's alert signals.
 */
export function createOAuthTelemetry(logger: Logger, metrics: Metrics): OAuthTelemetry {
  return {
    signInFailed({ provider, stage, requestId, clientIp }, { reason, message, invalidProviderResponse }) {
      if (stage === 'callback') metrics.authCallbackFailures.inc({ provider, reason });
      if (reason === 'invalid_state') metrics.authStateValidationFailures.inc({ provider });
      if (invalidProviderResponse) metrics.authInvalidProviderResponses.inc({ provider });
      const level = reason === 'internal_error' ? 'error' : reason === 'access_denied' ? 'info' : 'warn';
      logger[level]({ reqId: requestId, provider, stage, reason, clientIp, error: message }, `third-party sign-in ${reason === 'access_denied' ? 'cancelled' : 'failed'}`);
    },
    refreshFailed({ provider, userId, reason, message, invalidProviderResponse }) {
      metrics.authTokenRefreshFailures.inc({ provider });
      if (invalidProviderResponse) metrics.authInvalidProviderResponses.inc({ provider });
      logger.warn({ provider, userId, reason, error: message }, 'provider token refresh failed');
    },
  };
}
