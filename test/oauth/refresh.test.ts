import { createProviderRegistry } from '../../src/auth/oauth/providers';
import { createProviderTokenVault, type ProviderTokenVault } from '../../src/auth/oauth/provider-tokens';
import { createTokenCipher } from '../../src/auth/oauth/token-cipher';
import { createStore } from '../../src/data/store';
import type { Database } from '../../src/data/database';
import { createOAuthTelemetry } from '../../src/http/oauth-telemetry';
import { createMetrics, type Metrics } from '../../src/http/observability';
import { createLogger } from '../../src/logger';
import { LogCapture } from '../support/harness';
import { parseSetCookie } from '../support/cookie-jar-client';
import { connectSecondInstance, describeOAuth, newLogin, PROVIDERS, signIn, TOKEN_ENCRYPTION_KEY } from '../support/oauth-harness';

const KEY = Buffer.from(TOKEN_ENCRYPTION_KEY, 'base64');
const MINUTE = 60_000;

describeOAuth('provider token refresh', (world) => {
  let secondDb: Database;
  let metrics: Metrics;
  let logs: LogCapture;

  beforeAll(async () => {
    secondDb = await connectSecondInstance(world().app.database);
  });
  afterAll(async () => {
    await secondDb?.destroy();
  });
  beforeEach(() => {
    metrics = createMetrics();
    logs = new LogCapture();
  });
  afterEach(() => {
    world().idp.tamperTokenResponse = undefined;
  });

  /** One service instance's vault: its own store (connection pool), provider registry and clock. */
  const vaultOn = (db: Database, clock: () => number): ProviderTokenVault =>
    createProviderTokenVault({
      store: createStore(db),
      providers: createProviderRegistry(world().app.config.oauth.providers),
      cipher: createTokenCipher(KEY),
      clock,
      onRefreshFailure: createOAuthTelemetry(createLogger({ logLevel: 'info' }, logs), metrics).refreshFailed,
    });

  /** A person signed in through the provider, with the access token the provider issued. */
  const signedIn = async () => {
    let issued: Record<string, unknown> = {};
    world().idp.tamperTokenResponse = (body) => {
      issued = { ...body };
    };
    const journey = await signIn(world(), { login: newLogin() });
    world().idp.tamperTokenResponse = undefined;
    const session = parseSetCookie(journey.callback.headers.getSetCookie().find((header) => header.startsWith('agent_fleet_session=')) ?? '').value;
    const me = await world().app.anonymous.get('/api/v1/me').set('Cookie', `agent_fleet_session=${session}`).expect(200);
    const userId: string = me.body.data.id;
    const row = await storedRow(userId);
    return { userId, session, accessToken: String(issued.access_token), expiresAt: Date.parse(new Date(row.expires_at).toISOString()), row };
  };

  const storedRow = (userId: string) => world().app.database.db('provider_tokens').where({ user_id: userId, provider: PROVIDERS.confidential }).first();
  const refreshRequests = () => world().idp.tokenRequests.filter((request) => request.grantType === 'refresh_token');

  it('when the stored token expires more than 5 minutes from now, then it is used as it is and the provider is not asked', async () => {
    const person = await signedIn();
    const requests = world().idp.tokenRequests.length;
    for (const now of [Date.now(), person.expiresAt - 5 * MINUTE - 1000]) {
      expect(await vaultOn(world().app.database.db, () => now).accessToken(person.userId, PROVIDERS.confidential)).toBe(person.accessToken);
    }
    expect(world().idp.tokenRequests.length).toBe(requests);
    expect(Number((await storedRow(person.userId)).version)).toBe(Number(person.row.version));
  });

  it('when the token expires within 5 minutes, then ten concurrent callers on two instances cause exactly one refresh and all get the new token', async () => {
    const person = await signedIn();
    const now = person.expiresAt - 4 * MINUTE;
    const instances = [vaultOn(world().app.database.db, () => now), vaultOn(secondDb, () => now)];
    const refreshesBefore = refreshRequests().length;
    // A slow provider: the other instance surely finds the refresh under way (its lease) and waits.
    world().idp.tamperTokenResponse = () => new Promise((resolve) => setTimeout(resolve, 150));

    const tokens = await Promise.all(Array.from({ length: 10 }, (_, n) => instances[n % 2]!.accessToken(person.userId, PROVIDERS.confidential)));

    expect(refreshRequests().length - refreshesBefore).toBe(1);
    expect(refreshRequests().at(-1)).toMatchObject({ clientId: 'fleet-confidential', status: 200 });
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(person.accessToken);
    const row = await storedRow(person.userId);
    expect(Number(row.version)).toBe(Number(person.row.version) + 1);
    expect(row.refresh_lease_owner).toBeNull();
    expect(new Date(row.refreshed_at).toISOString()).toBe(new Date(now).toISOString());
    // expires_at = now + expires_in, on the (controlled) clock of the instance that refreshed.
    expect(new Date(row.expires_at).toISOString()).toBe(new Date(now + 3600 * 1000).toISOString());
    expect(createTokenCipher(KEY).open(row.access_token, `${person.userId}:idp:access`)).toBe(tokens[0]);

    // The replaced token is now far from expiry on that clock: used as it is.
    expect(await instances[1]!.accessToken(person.userId, PROVIDERS.confidential)).toBe(tokens[0]);
    expect(refreshRequests().length - refreshesBefore).toBe(1);
  });

  it('when the token has already expired, then it is refreshed', async () => {
    const person = await signedIn();
    const refreshesBefore = refreshRequests().length;
    const token = await vaultOn(secondDb, () => person.expiresAt + 60 * MINUTE).accessToken(person.userId, PROVIDERS.confidential);
    expect(token).not.toBe(person.accessToken);
    expect(refreshRequests().length - refreshesBefore).toBe(1);
  });

  it('when the refresh fails, then it is logged and counted once, the stored tokens stay, and the user stays signed in here', async () => {
    const person = await signedIn();
    world().idp.tamperTokenResponse = (_body, ctx) => {
      ctx.status = 400;
      ctx.body = { error: 'invalid_grant', error_description: 'refresh token revoked' };
    };
    // Within 5 minutes of expiry on the real clock, so that the connections listing agrees.
    const soon = new Date(Date.now() + 2 * MINUTE).toISOString();
    await world().app.database.db('provider_tokens').where({ user_id: person.userId, provider: PROVIDERS.confidential }).update({ expires_at: soon });
    const refreshesBefore = refreshRequests().length;
    const instances = [vaultOn(world().app.database.db, Date.now), vaultOn(secondDb, Date.now)];

    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, (_, n) => instances[n % 2]!.accessToken(person.userId, PROVIDERS.confidential)));

    expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(6).fill('rejected'));
    expect(refreshRequests().length - refreshesBefore).toBe(1);
    expect(await metrics.authTokenRefreshFailures.get()).toMatchObject({ values: [{ labels: { provider: 'idp' }, value: 1 }] });
    const failure = logs.lines.find((line) => line.msg === 'provider token refresh failed');
    expect(failure).toEqual({
      level: 'warn',
      time: expect.any(String),
      provider: 'idp',
      userId: person.userId,
      reason: 'invalid_grant',
      error: 'invalid_grant: refresh token revoked (HTTP 400)',
      msg: 'provider token refresh failed',
    });
    expect(logs.text()).not.toContain(person.accessToken);

    const row = await storedRow(person.userId);
    // The failure is recorded (a new version, so the waiting callers did not try again); the tokens are kept.
    expect(Number(row.version)).toBe(Number(person.row.version) + 1);
    expect(row.refresh_error).toBe('invalid_grant: refresh token revoked (HTTP 400)');
    expect(row.access_token).toBe(person.row.access_token);
    expect(row.refresh_token).toBe(person.row.refresh_token);
    expect(row.refresh_lease_owner).toBeNull();
    expect(row.refresh_failed_at).not.toBeNull();

    const connections = await world().app.anonymous.get('/api/v1/me/connections').set('Cookie', `agent_fleet_session=${person.session}`);
    expect(connections.status).toBe(200);
    expect(connections.body.data).toEqual([
      expect.objectContaining({ provider: 'idp', token_status: 'expiring', has_refresh_token: true, refreshed_at: null, refresh_failed_at: expect.any(String) }),
    ]);
  });

  it('when no refresh token is stored, then an expiring token cannot be renewed and the provider is not asked', async () => {
    const person = await signedIn();
    await world().app.database.db('provider_tokens').where({ user_id: person.userId }).update({ refresh_token: null });
    const requests = world().idp.tokenRequests.length;
    await expect(vaultOn(secondDb, () => person.expiresAt - MINUTE).accessToken(person.userId, PROVIDERS.confidential)).rejects.toMatchObject({ reason: 'no_refresh_token' });
    expect(world().idp.tokenRequests.length).toBe(requests);
  });

  it('when the user never signed in with the provider, then there is no token to give', async () => {
    await expect(vaultOn(secondDb, Date.now).accessToken(world().app.user.user.id, PROVIDERS.confidential)).rejects.toMatchObject({ reason: 'not_connected' });
  });
});
