import * as client from 'openid-client';
import { usesPlainHttp, type OAuthProviderConfig } from '../../config/oauth-config';

export interface OAuthProvider {
  config: OAuthProviderConfig;
  /**
   * The openid-client configuration: built once (discovery, when the provider is configured by
   * issuer, happens on first use and is retried after a failure).
   */
  client(): Promise<client.Configuration>;
}

export interface ProviderRegistry {
  list(): OAuthProviderConfig[];
  find(id: string): OAuthProvider | undefined;
}

export interface RegistryOptions {
  /** Seconds before a request to a provider is abandoned. */
  timeoutSeconds?: number;
}

export function createProviderRegistry(configs: readonly OAuthProviderConfig[], options: RegistryOptions = {}): ProviderRegistry {
  const providers = new Map(configs.map((config) => [config.id, createProvider(config, options.timeoutSeconds ?? 10)]));
  return {
    list: () => configs.slice(),
    find: (id) => providers.get(id),
  };
}

function createProvider(config: OAuthProviderConfig, timeoutSeconds: number): OAuthProvider {
  let pending: Promise<client.Configuration> | undefined;
  return {
    config,
    client() {
      pending ??= buildConfiguration(config, timeoutSeconds).catch((error: unknown) => {
        pending = undefined;
        throw error;
      });
      return pending;
    },
  };
}

async function buildConfiguration(config: OAuthProviderConfig, timeoutSeconds: number): Promise<client.Configuration> {
  const insecure = usesPlainHttp(config);
  // Confidential clients send their secret in the token request body (the specification's code
  // exchange); public clients send none and rely on PKCE.
  const authentication = config.clientSecret ? client.ClientSecretPost(config.clientSecret) : client.None();
  const metadata: Partial<client.ClientMetadata> = config.clientSecret ? { client_secret: config.clientSecret } : {};
  const configuration = config.endpoints
    ? new client.Configuration(
        {
          issuer: config.issuer,
          authorization_endpoint: config.endpoints.authorizationUrl,
          token_endpoint: config.endpoints.tokenUrl,
          jwks_uri: config.endpoints.jwksUrl,
        },
        config.clientId,
        metadata,
        authentication,
      )
    : await client.discovery(new URL(config.issuer), config.clientId, metadata, authentication, {
        execute: insecure ? [client.allowInsecureRequests] : [],
        timeout: timeoutSeconds,
      });
  if (insecure) client.allowInsecureRequests(configuration);
  // openid-client trusts the TLS channel instead of the ID token's signature by default: check the
  // signature against the provider's JWKS as well.
  client.enableNonRepudiationChecks(configuration);
  configuration.timeout = timeoutSeconds;
  return configuration;
}
