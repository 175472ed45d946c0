import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Config } from '../../src/config/config';
import { connectDatabase, type Database } from '../../src/data/database';
import { CookieJarClient } from './cookie-jar-client';
import { describeEachDatabase, startTestApp, TEST_API_KEY, TEST_JWT_SECRET, TEST_METRICS_TOKEN, type DatabaseKind, type TestApp, type TestDatabase } from './harness';
import { startTestProvider, type TestProvider } from './oidc-provider';

/** The configured providers of the OAuth suites (all but the last served by one test provider). */
export const PROVIDERS = {
  /** Confidential client (secret in the token request), configured by issuer discovery. */
  confidential: 'idp',
  /** Public client (PKCE only), configured with explicit endpoints. */
  public: 'idp-public',
  /** Nothing listens at its issuer. */
  offline: 'idp-offline',
  /** Configured here with a client secret the provider does not know. */
  wrongSecret: 'idp-wrong-secret',
} as const;

export const CLIENT_SECRET = `client-secret-${randomBytes(12).toString('hex')}`;
export const TOKEN_ENCRYPTION_KEY = randomBytes(32).toString('base64');

export interface OAuthWorld {
  app: TestApp;
  /** The service's origin and PUBLIC_URL: http://127.0.0.1:<port>. */
  baseUrl: string;
  idp: TestProvider;
  /** A fresh browser: its own cookie jar. */
  browser(): CookieJarClient;
}

export interface Journey {
  browser: CookieJarClient;
  start: Response;
  authorizationUrl: URL;
  callbackUrl: URL;
  callback: Response;
}

/** A login at the test provider no other test uses (the login becomes the subject). */
export const newLogin = (label = 'person'): string => `${label}-${randomBytes(5).toString('hex')}`;

/** The service's HTTP server on 127.0.0.1 next to a running test provider; `serve` picks the app it serves. */
interface Environment {
  baseUrl: string;
  idp: TestProvider;
  overrides: Partial<Config>;
  serve(app: TestApp | undefined): void;
  close(): Promise<void>;
}

async function startEnvironment(): Promise<Environment> {
  let current: TestApp | undefined;
  const server = http.createServer((req, res) => {
    if (current) current.app(req, res);
    else res.writeHead(503).end();
  });
  const port = await listenOnLoopback(server);
  const baseUrl = `http://127.0.0.1:${port}`;
  const idp = await startTestProvider({
    clients: [
      { client_id: 'fleet-confidential', client_secret: CLIENT_SECRET, redirect_uris: [`${baseUrl}/api/auth/oauth/${PROVIDERS.confidential}/callback`] },
      { client_id: 'fleet-public', redirect_uris: [`${baseUrl}/api/auth/oauth/${PROVIDERS.public}/callback`] },
      { client_id: 'fleet-rotated', client_secret: 'the-secret-after-rotation', redirect_uris: [`${baseUrl}/api/auth/oauth/${PROVIDERS.wrongSecret}/callback`] },
    ],
  });
  return {
    baseUrl,
    idp,
    overrides: oauthConfig(baseUrl, idp.issuer, await unusedPort()),
    serve: (app) => {
      current = app;
    },
    close: async () => {
      await idp.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Runs `suite` on SQLite and on PostgreSQL with the service served over real HTTP on 127.0.0.1
 * (PUBLIC_URL is that address, so redirect URIs are exact) next to a real OpenID provider.
 */
export function describeOAuth(title: string, suite: (world: () => OAuthWorld, kind: DatabaseKind) => void): void {
  describe(title, () => {
    // Filled in once the ports are known; the harness reads it when it starts each app.
    const overrides: Partial<Config> = {};
    let environment: Environment | undefined;

    beforeAll(async () => {
      environment = await startEnvironment();
      Object.assign(overrides, environment.overrides);
    });
    afterAll(() => environment?.close());

    describeEachDatabase(
      title,
      (get, kind) => {
        beforeAll(() => environment?.serve(get()));
        suite(() => {
          if (!environment) throw new Error('test provider not started');
          return { app: get(), baseUrl: environment.baseUrl, idp: environment.idp, browser: () => new CookieJarClient() };
        }, kind);
      },
      overrides,
    );
  });
}

/** One world on one database, for suites that need no second run (the browser journey). */
export async function startOAuthWorld(kind: DatabaseKind): Promise<OAuthWorld & { close(): Promise<void> }> {
  const environment = await startEnvironment();
  const app = await startTestApp(kind, environment.overrides);
  environment.serve(app);
  return {
    app,
    baseUrl: environment.baseUrl,
    idp: environment.idp,
    browser: () => new CookieJarClient(),
    close: async () => {
      await environment.close();
      await app.close();
    },
  };
}

/** The whole configuration of a service at `baseUrl` with the three test providers, minus the database. */
export function oauthConfig(baseUrl: string, issuer: string, offlinePort: number): Partial<Config> {
  const providers = [
    { id: PROVIDERS.confidential, name: 'Test IdP', issuer, clientId: 'fleet-confidential', clientSecret: CLIENT_SECRET },
    {
      id: PROVIDERS.public,
      name: 'Test IdP (public client)',
      issuer,
      authorizationUrl: `${issuer}/auth`,
      tokenUrl: `${issuer}/token`,
      jwksUrl: `${issuer}/jwks`,
      clientId: 'fleet-public',
    },
    { id: PROVIDERS.offline, name: 'Offline IdP', issuer: `http://127.0.0.1:${offlinePort}`, clientId: 'nobody' },
    { id: PROVIDERS.wrongSecret, name: 'Rotated IdP', issuer, clientId: 'fleet-rotated', clientSecret: 'the-secret-before-rotation' },
  ];
  const { database: _database, logLevel: _logLevel, ...config } = loadConfig({
    NODE_ENV: 'test',
    API_KEYS: TEST_API_KEY,
    JWT_SECRET: TEST_JWT_SECRET,
    METRICS_TOKEN: TEST_METRICS_TOKEN,
    PUBLIC_URL: baseUrl,
    OAUTH_PROVIDERS: JSON.stringify(providers),
    TOKEN_ENCRYPTION_KEY,
    // The suites make more /api requests per client than the production limit allows.
    RATE_LIMIT_API_MAX: '1000000',
    RATE_LIMIT_USER_MAX: '1000000',
  });
  return config;
}

/** Start, provider login and consent, callback: the authorization code + PKCE journey, hop by hop. */
export async function signIn(
  world: OAuthWorld,
  options: { provider?: string; login?: string; returnTo?: string; browser?: CookieJarClient } = {},
): Promise<Journey> {
  const browser = options.browser ?? world.browser();
  const start = await startSignIn(world, browser, options.provider ?? PROVIDERS.confidential, options.returnTo);
  const authorizationUrl = new URL(start.headers.get('location') ?? '');
  const callbackUrl = await authorizeAtProvider(browser, authorizationUrl, { login: options.login ?? newLogin() });
  const callback = await browser.get(callbackUrl);
  return { browser, start, authorizationUrl, callbackUrl, callback };
}

export function startSignIn(world: OAuthWorld, browser: CookieJarClient, provider: string, returnTo?: string): Promise<Response> {
  const url = new URL(`/api/auth/oauth/${provider}`, world.baseUrl);
  if (returnTo !== undefined) url.searchParams.set('returnTo', returnTo);
  return browser.get(url);
}

/**
 * Plays the person at the provider's development pages: follows its redirects and posts its login
 * and consent forms (or follows a Cancel link) until it redirects to the service's callback, whose
 * URL is returned without being requested.
 */
export async function authorizeAtProvider(
  browser: CookieJarClient,
  authorizationUrl: URL,
  options: { login: string; cancelAt?: 'login' | 'consent' },
): Promise<URL> {
  const provider = authorizationUrl.origin;
  let response = await browser.get(authorizationUrl);
  let at = authorizationUrl;
  for (let hop = 0; hop < 20; hop += 1) {
    if (response.status >= 300 && response.status < 400) {
      const location = new URL(response.headers.get('location') ?? '', at);
      if (location.origin !== provider) return location;
      at = location;
      response = await browser.get(location);
      continue;
    }
    const html = await response.text();
    if (response.status !== 200) throw new Error(`the provider answered ${response.status} at ${at.href}: ${html.slice(0, 500)}`);
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!prompt || !action) throw new Error(`no form on the provider's page at ${at.href}`);
    if (options.cancelAt === prompt) {
      const abort = /href="([^"]*\/abort)"/.exec(html)?.[1];
      if (!abort) throw new Error('no Cancel link on the provider page');
      at = new URL(abort, at);
      response = await browser.get(at);
      continue;
    }
    const fields: Record<string, string> = prompt === 'login' ? { prompt, login: options.login, password: 'any password' } : { prompt };
    at = new URL(action, at);
    response = await browser.postForm(at, fields);
  }
  throw new Error('the provider never redirected back to the service');
}

/** A second connection pool to a test database: another instance of the service. */
export function connectSecondInstance(database: TestDatabase): Promise<Database> {
  return connectDatabase(database.config, database.searchPath ? { searchPath: database.searchPath } : {});
}

function listenOnLoopback(server: http.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/** A port nothing listens on (bound, then released). */
async function unusedPort(): Promise<number> {
  const probe = http.createServer();
  const port = await listenOnLoopback(probe);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
