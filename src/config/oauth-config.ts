import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathOf, shippedRouteTable } from '../contract/route-table';

/** One third-party OpenID provider, as configured in OAUTH_PROVIDERS (validated). */
export interface OAuthProviderConfig {
  /** Path segment of /api/auth/oauth/{id}: lower-case letters, digits and hyphens. */
  id: string;
  /** Shown on the sign-in button. */
  name: string;
  /** Expected `iss` of ID tokens; also the discovery base when `endpoints` is absent. */
  issuer: string;
  /** Explicit endpoints; absent means OpenID Connect discovery from `issuer`. */
  endpoints?: { authorizationUrl: string; tokenUrl: string; jwksUrl: string };
  clientId: string;
  /** Present for confidential clients only; public clients authenticate with PKCE alone. */
  clientSecret?: string;
  scopes: string[];
  /** PUBLIC_URL + /api/auth/oauth/{id}/callback, exactly as registered at the provider. */
  redirectUri: string;
}

type Env = Record<string, string | undefined>;

const FIELDS = ['id', 'name', 'issuer', 'authorizationUrl', 'tokenUrl', 'jwksUrl', 'clientId', 'clientSecret', 'scopes'];
const ENDPOINT_FIELDS = ['authorizationUrl', 'tokenUrl', 'jwksUrl'] as const;
const PROVIDER_ID = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;
const DEFAULT_SCOPES = ['openid', 'email', 'profile'];
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const KEY_BYTES = 32;

/** Where a provider sends the browser back: api.yaml's sign-in callback for the provider. */
export const callbackPath = (providerId: string): string => pathOf(shippedRouteTable(), 'completeOAuthSignIn', { provider: providerId });

/**
 * OAUTH_PROVIDERS: a JSON array, or the path of a file holding one. Problems are appended to
 * `problems`; messages name the field and never repeat a secret.
 */
export function parseOAuthProviders(env: Env, publicUrl: string, cwd: string, problems: string[]): OAuthProviderConfig[] {
  const raw = env.OAUTH_PROVIDERS?.trim();
  if (!raw) return [];
  const document = readProvidersDocument(raw, cwd, problems);
  if (document === undefined) return [];
  if (!Array.isArray(document)) {
    problems.push('OAUTH_PROVIDERS must be a JSON array of providers');
    return [];
  }
  const providers: OAuthProviderConfig[] = [];
  const seen = new Set<string>();
  document.forEach((entry: unknown, index) => {
    const provider = parseProvider(entry, `OAUTH_PROVIDERS[${index}]`, publicUrl, problems);
    if (!provider) return;
    if (seen.has(provider.id)) problems.push(`OAUTH_PROVIDERS[${index}].id "${provider.id}" is used by another provider`);
    seen.add(provider.id);
    providers.push(provider);
  });
  return providers;
}

function readProvidersDocument(raw: string, cwd: string, problems: string[]): unknown {
  let text = raw;
  if (!raw.startsWith('[') && !raw.startsWith('{')) {
    const file = path.resolve(cwd, raw);
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      problems.push(`OAUTH_PROVIDERS names the file ${file}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      return undefined;
    }
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // JSON.parse quotes the input around the fault, and the input holds client secrets: keep only the position.
    const position = /position (\d+)/.exec(String((error as Error).message))?.[1];
    problems.push(`OAUTH_PROVIDERS is not valid JSON${position ? ` (near character ${position})` : ''}`);
    return undefined;
  }
}

function parseProvider(entry: unknown, where: string, publicUrl: string, problems: string[]): OAuthProviderConfig | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    problems.push(`${where} must be an object`);
    return undefined;
  }
  const fields = entry as Record<string, unknown>;
  const before = problems.length;
  for (const key of Object.keys(fields)) {
    if (!FIELDS.includes(key)) problems.push(`${where} has an unknown field "${key}" (known: ${FIELDS.join(', ')})`);
  }
  const text = (key: string, required: boolean): string | undefined => {
    const value = fields[key];
    if (value === undefined && !required) return undefined;
    if (typeof value !== 'string' || value.trim() === '') {
      problems.push(`${where}.${key} must be a non-empty string`);
      return undefined;
    }
    return value.trim();
  };
  const url = (key: string): string | undefined => {
    const value = text(key, true);
    return value === undefined ? undefined : checkProviderUrl(value, `${where}.${key}`, problems);
  };

  const id = text('id', true);
  if (id !== undefined && !PROVIDER_ID.test(id)) {
    problems.push(`${where}.id must be 1 to 32 lower-case letters, digits or hyphens (got "${id}")`);
  }
  const name = text('name', true);
  const clientId = text('clientId', true);
  const clientSecret = text('clientSecret', false);
  const issuer = url('issuer');
  const given = ENDPOINT_FIELDS.filter((key) => fields[key] !== undefined);
  let endpoints: OAuthProviderConfig['endpoints'];
  if (given.length > 0 && given.length < ENDPOINT_FIELDS.length) {
    problems.push(`${where} needs all of authorizationUrl, tokenUrl and jwksUrl, or none of them (discovery from issuer)`);
  } else if (given.length === ENDPOINT_FIELDS.length) {
    const [authorizationUrl, tokenUrl, jwksUrl] = ENDPOINT_FIELDS.map(url);
    if (authorizationUrl && tokenUrl && jwksUrl) endpoints = { authorizationUrl, tokenUrl, jwksUrl };
  }
  const scopes = parseScopes(fields.scopes, `${where}.scopes`, problems);
  if (problems.length > before || !id || !name || !clientId || !issuer) return undefined;
  return {
    id,
    name,
    issuer,
    ...(endpoints ? { endpoints } : {}),
    clientId,
    ...(clientSecret ? { clientSecret } : {}),
    scopes,
    redirectUri: publicUrl + callbackPath(id),
  };
}

/** https only, except on loopback hosts (a provider on the developer's machine or in tests). */
function checkProviderUrl(value: string, where: string, problems: string[]): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push(`${where} must be an absolute URL (got "${value}")`);
    return undefined;
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    problems.push(`${where} must use https (plain http only on localhost) (got "${value}")`);
    return undefined;
  }
  if (url.username || url.password) {
    problems.push(`${where} must not carry credentials in the URL`);
    return undefined;
  }
  return value;
}

function parseScopes(value: unknown, where: string, problems: string[]): string[] {
  if (value === undefined) return DEFAULT_SCOPES;
  const scopes = typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : value;
  if (!Array.isArray(scopes) || scopes.length === 0 || !scopes.every((scope) => typeof scope === 'string' && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope))) {
    problems.push(`${where} must be a space-separated string or an array of scope names`);
    return DEFAULT_SCOPES;
  }
  if (!scopes.includes('openid')) problems.push(`${where} must include "openid": sign-in needs an ID token`);
  return scopes as string[];
}

/** True when a provider URL is plain http (allowed on loopback only, see checkProviderUrl). */
export function usesPlainHttp(provider: OAuthProviderConfig): boolean {
  const urls = [provider.issuer, ...Object.values(provider.endpoints ?? {})];
  return urls.some((value) => value.startsWith('http:'));
}

/**
 * TOKEN_ENCRYPTION_KEY: 32 bytes, base64. Required in production once a provider is configured
 * (there is nothing to encrypt without one); otherwise an ephemeral key, with a warning when a
 * provider needs it.
 */
export function parseTokenEncryptionKey(
  env: Env,
  nodeEnv: 'development' | 'production' | 'test',
  providerCount: number,
  problems: string[],
  warnings: string[],
): Buffer {
  const raw = env.TOKEN_ENCRYPTION_KEY?.trim() ?? '';
  if (raw === '') {
    if (nodeEnv === 'production' && providerCount > 0) {
      problems.push('TOKEN_ENCRYPTION_KEY is required in production when OAUTH_PROVIDERS is set (32 bytes, base64: `openssl rand -base64 32`)');
    } else if (providerCount > 0) {
      warnings.push('TOKEN_ENCRYPTION_KEY is not set: using an ephemeral key; stored provider tokens will not survive a restart');
    }
    return randomBytes(KEY_BYTES);
  }
  const key = Buffer.from(raw, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(raw) || key.length !== KEY_BYTES) {
    problems.push(`TOKEN_ENCRYPTION_KEY must be ${KEY_BYTES} bytes, base64-encoded (\`openssl rand -base64 32\`)`);
    return randomBytes(KEY_BYTES);
  }
  return key;
}
