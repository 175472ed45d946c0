import type { Router } from 'express';
import { createFlowCookieSealer } from '../auth/oauth/flow-cookie';
import { createProviderTokenVault, type ProviderTokenVault } from '../auth/oauth/provider-tokens';
import { createProviderRegistry } from '../auth/oauth/providers';
import { createTokenCipher } from '../auth/oauth/token-cipher';
import type { SessionService } from '../auth/sessions';
import type { Config } from '../config';
import type { Store } from '../data/store';
import type { Logger } from '../logger';
import { createOAuthTelemetry } from './oauth-telemetry';
import type { Metrics } from './observability';
import { createPagesRouter } from './pages/pages';
import { oauthRoutes } from './routes/oauth';

export interface SignInRouters {
  /** /login, / and their assets: mounted before the API validator, like the docs pages. */
  pages: Router;
  /** The OAuth start and callback and /api/v1/me/connections: mounted after it (api.yaml). */
  routes: Router;
  /** A valid provider access token for a user (refreshed once when it expires within 5 minutes), for features that call a provider's API. */
  providerTokens: ProviderTokenVault;
}

/** Third-party sign-in and the sign-in pages, wired from configuration. */
export function createSignIn(deps: { config: Config; store: Store; sessions: SessionService; logger: Logger; metrics: Metrics }): SignInRouters {
  const { config, store, sessions, logger, metrics } = deps;
  const providers = createProviderRegistry(config.oauth.providers);
  const cipher = createTokenCipher(config.tokenEncryptionKey);
  const telemetry = createOAuthTelemetry(logger, metrics);
  const routes = oauthRoutes({
    store,
    sessions,
    cookieName: config.auth.sessionCookieName,
    providers,
    logger,
    sealer: createFlowCookieSealer(config.tokenEncryptionKey),
    cipher,
    telemetry,
    publicUrl: config.publicUrl,
  });
  const pages = createPagesRouter({ store, sessions, cookieName: config.auth.sessionCookieName, providers: config.oauth.providers, publicUrl: config.publicUrl });
  const providerTokens = createProviderTokenVault({ store, providers, cipher, onRefreshFailure: telemetry.refreshFailed });
  return { pages, routes, providerTokens };
}
