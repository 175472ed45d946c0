import { createFlowCookieSealer } from '../auth/oauth/flow-cookie';
import { createProviderTokenVault, type ProviderTokenVault } from '../auth/oauth/provider-tokens';
import { createProviderRegistry } from '../auth/oauth/providers';
import { createTokenCipher } from '../auth/oauth/token-cipher';
import type { SessionService } from '../auth/sessions';
import type { Config } from '../config/config';
import type { Store } from '../data/store';
import type { Logger } from '../logger';
import type { BrowserAssets } from './browser-assets';
import { createOAuthTelemetry } from './oauth-telemetry';
import type { Metrics } from './observability';
import type { PathTo } from './operations';
import { pageHandlers } from './pages/pages';
import { oauthHandlers } from './routes/oauth';

export interface SignIn {
  /** The sign-in and home pages with their assets, the OAuth start and callback, and the caller's connections. */
  handlers: ReturnType<typeof pageHandlers> & ReturnType<typeof oauthHandlers>;
  /** A valid provider access token for a user (refreshed once when it expires within 5 minutes), for features that call a provider's API. */
  providerTokens: ProviderTokenVault;
}

/** Third-party sign-in and the sign-in pages, wired from configuration. */
export function createSignIn(deps: { config: Config; store: Store; sessions: SessionService; logger: Logger; metrics: Metrics; pathTo: PathTo; assets: BrowserAssets }): SignIn {
  const { config, store, sessions, logger, metrics, pathTo, assets } = deps;
  const providers = createProviderRegistry(config.oauth.providers);
  const cipher = createTokenCipher(config.tokenEncryptionKey);
  const telemetry = createOAuthTelemetry(logger, metrics);
  const routes = oauthHandlers({
    store,
    sessions,
    cookieName: config.auth.sessionCookieName,
    providers,
    logger,
    sealer: createFlowCookieSealer(config.tokenEncryptionKey),
    cipher,
    telemetry,
    publicUrl: config.publicUrl,
    pathTo,
  });
  const pages = pageHandlers({ store, sessions, cookieName: config.auth.sessionCookieName, providers: config.oauth.providers, publicUrl: config.publicUrl, pathTo, assets });
  const providerTokens = createProviderTokenVault({ store, providers, cipher, onRefreshFailure: telemetry.refreshFailed });
  return { handlers: { ...pages, ...routes }, providerTokens };
}
