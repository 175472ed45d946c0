import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/config';

const BASE = { NODE_ENV: 'test', JWT_SECRET: 'a-test-secret-that-is-long-enough-for-hs256', PUBLIC_URL: 'https://fleet.example.com' };
const KEY = Buffer.alloc(32, 7).toString('base64');

const discovery = { id: 'corp', name: 'Corp SSO', issuer: 'https://sso.example.com', clientId: 'fleet', clientSecret: 's3cr3t-value' };
const explicit = {
  id: 'github-like',
  name: 'Explicit',
  issuer: 'https://id.example.org',
  authorizationUrl: 'https://id.example.org/oauth/authorize',
  tokenUrl: 'https://id.example.org/oauth/token',
  jwksUrl: 'https://id.example.org/.well-known/jwks.json',
  clientId: 'public-client',
  scopes: 'openid email',
};

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig({ ...BASE, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('OAUTH_PROVIDERS, PUBLIC_URL and TOKEN_ENCRYPTION_KEY', () => {
  it('when providers are given as JSON, then each gets its exact redirect URI and the default scopes', () => {
    const config = loadConfig({ ...BASE, OAUTH_PROVIDERS: JSON.stringify([discovery, explicit]), TOKEN_ENCRYPTION_KEY: KEY });
    expect(config.oauth.providers).toEqual([
      { ...discovery, scopes: ['openid', 'email', 'profile'], redirectUri: 'https://fleet.example.com/api/auth/oauth/corp/callback' },
      {
        id: 'github-like',
        name: 'Explicit',
        issuer: 'https://id.example.org',
        endpoints: { authorizationUrl: explicit.authorizationUrl, tokenUrl: explicit.tokenUrl, jwksUrl: explicit.jwksUrl },
        clientId: 'public-client',
        scopes: ['openid', 'email'],
        redirectUri: 'https://fleet.example.com/api/auth/oauth/github-like/callback',
      },
    ]);
    expect(config.tokenEncryptionKey).toEqual(Buffer.alloc(32, 7));
  });

  it('when OAUTH_PROVIDERS names a JSON file, then the providers are read from it', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'providers-'));
    try {
      writeFileSync(path.join(dir, 'providers.json'), JSON.stringify([discovery]));
      const config = loadConfig({ ...BASE, OAUTH_PROVIDERS: 'providers.json', TOKEN_ENCRYPTION_KEY: KEY }, dir);
      expect(config.oauth.providers.map((provider) => provider.id)).toEqual(['corp']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when no provider is configured, then sign-in has none and needs no key', () => {
    const config = loadConfig({ ...BASE, NODE_ENV: 'production' });
    expect(config.oauth.providers).toEqual([]);
    expect(config.tokenEncryptionKey).toHaveLength(32);
  });

  it('when several providers are wrong, then every problem is reported together, naming the field and never the secret', () => {
    const providers = [
      { ...discovery, clientSecret: 'do-not-print-me', id: 'Bad Id' },
      { name: 'No id', issuer: 'http://sso.example.com', clientId: '' },
      { ...explicit, tokenUrl: undefined },
      { ...discovery, id: 'corp', scopes: ['email'] },
      { ...discovery, client_secret: 'typo' },
      'not an object',
    ];
    const problems = problemsOf({ OAUTH_PROVIDERS: JSON.stringify(providers), TOKEN_ENCRYPTION_KEY: KEY });
    expect(problems).toEqual([
      'OAUTH_PROVIDERS[0].id must be 1 to 32 lower-case letters, digits or hyphens (got "Bad Id")',
      'OAUTH_PROVIDERS[1].id must be a non-empty string',
      'OAUTH_PROVIDERS[1].clientId must be a non-empty string',
      'OAUTH_PROVIDERS[1].issuer must use https (plain http only on localhost) (got "http://sso.example.com")',
      'OAUTH_PROVIDERS[2] needs all of authorizationUrl, tokenUrl and jwksUrl, or none of them (discovery from issuer)',
      'OAUTH_PROVIDERS[3].scopes must include "openid": sign-in needs an ID token',
      'OAUTH_PROVIDERS[4] has an unknown field "client_secret" (known: id, name, issuer, authorizationUrl, tokenUrl, jwksUrl, clientId, clientSecret, scopes)',
      'OAUTH_PROVIDERS[5] must be an object',
    ]);
    expect(problems.join('\n')).not.toContain('do-not-print-me');
  });

  it('when two providers share an id, then the start is refused', () => {
    expect(problemsOf({ OAUTH_PROVIDERS: JSON.stringify([discovery, { ...discovery, name: 'Again' }]), TOKEN_ENCRYPTION_KEY: KEY })).toEqual([
      'OAUTH_PROVIDERS[1].id "corp" is used by another provider',
    ]);
  });

  it.each([
    ['text that is not JSON', '[{"id": "corp", "clientSecret": "hush-hush"', /^OAUTH_PROVIDERS is not valid JSON/],
    ['an object instead of an array', JSON.stringify(discovery), /^OAUTH_PROVIDERS must be a JSON array of providers$/],
    ['a file that does not exist', 'no/such/providers.json', /^OAUTH_PROVIDERS names the file .*no\/such\/providers\.json, which cannot be read \(ENOENT\)$/],
  ])('when OAUTH_PROVIDERS is %s, then a clear message', (_label, value, message) => {
    const problems = problemsOf({ OAUTH_PROVIDERS: value, TOKEN_ENCRYPTION_KEY: KEY });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
    expect(problems[0]).not.toContain('hush-hush');
  });

  it('when a provider lives on localhost, then plain http is allowed (development and tests)', () => {
    const local = { id: 'local', name: 'Local', issuer: 'http://localhost:9000', clientId: 'fleet' };
    expect(problemsOf({ OAUTH_PROVIDERS: JSON.stringify([local, { ...local, id: 'loop', issuer: 'http://127.0.0.1:9000' }]) })).toEqual([]);
  });

  it('when production has providers but no TOKEN_ENCRYPTION_KEY, then the start is refused', () => {
    expect(problemsOf({ NODE_ENV: 'production', OAUTH_PROVIDERS: JSON.stringify([discovery]) })).toEqual([
      'TOKEN_ENCRYPTION_KEY is required in production when OAUTH_PROVIDERS is set (32 bytes, base64: `openssl rand -base64 32`)',
    ]);
  });

  it.each([Buffer.alloc(16).toString('base64'), 'not base64 at all!', Buffer.alloc(33).toString('base64')])(
    'when TOKEN_ENCRYPTION_KEY is %p, then it must be 32 bytes of base64',
    (key) => {
      expect(problemsOf({ OAUTH_PROVIDERS: JSON.stringify([discovery]), TOKEN_ENCRYPTION_KEY: key })).toEqual([
        'TOKEN_ENCRYPTION_KEY must be 32 bytes, base64-encoded (`openssl rand -base64 32`)',
      ]);
    },
  );

  it('when development has providers but no key, then an ephemeral key is used and a warning says so', () => {
    const config = loadConfig({ ...BASE, NODE_ENV: 'development', OAUTH_PROVIDERS: JSON.stringify([discovery]) });
    expect(config.tokenEncryptionKey).toHaveLength(32);
    expect(config.warnings).toContain('TOKEN_ENCRYPTION_KEY is not set: using an ephemeral key; stored provider tokens will not survive a restart');
  });

  it('when the server starts with a bad provider configuration, then it stops at once with the message', () => {
    const tsx = path.resolve(__dirname, '..', '..', 'node_modules', '.bin', 'tsx');
    const result = spawnSync(tsx, ['src/process/server.ts'], {
      cwd: path.resolve(__dirname, '..', '..'),
      env: { ...process.env, ...BASE, NODE_ENV: 'development', PORT: '0', OAUTH_PROVIDERS: JSON.stringify([{ id: 'corp', name: 'Corp', clientId: 'fleet' }]) },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid configuration:\n  - OAUTH_PROVIDERS[0].issuer must be a non-empty string');
  });
});
