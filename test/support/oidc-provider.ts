import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';
import Provider, { type ClientLike, type KoaContext } from 'oidc-provider';

/** A client registered at the test provider (its redirect URI must be the service's, exactly). */
export interface TestClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
}

/** Claims of a person at the provider; the dev login page accepts any login, which becomes `sub`. */
export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TokenRequestRecord {
  grantType: string;
  clientId: string | undefined;
  status: number;
  /** Which parameters the form body carried (never their values). */
  parameters: string[];
}

export interface TestProvider {
  issuer: string;
  port: number;
  /** Every request to the token endpoint, in order. */
  tokenRequests: TokenRequestRecord[];
  /** Why the provider refused a grant (its `grant.error` event), in order. */
  grantErrors: string[];
  accounts: Map<string, TestAccount>;
  /** Replaces token endpoint answers (a misbehaving provider) until set to undefined. */
  tamperTokenResponse: ((body: Record<string, unknown>, ctx: KoaContext) => Promise<void> | void) | undefined;
  /** Re-signs an ID token with the provider's own key after `change`, or with a key outside its JWKS. */
  resignIdToken(idToken: string, change: (claims: JWTPayload) => JWTPayload, key?: 'provider' | 'foreign'): Promise<string>;
  /** Makes every issued, unused authorization code expire now. */
  expireAuthorizationCodes(): void;
  /** Stops answering (connections refused) until `comeBack`. */
  goDown(): Promise<void>;
  comeBack(): Promise<void>;
  close(): Promise<void>;
}

export interface TestProviderOptions {
  clients: TestClient[];
  accounts?: Record<string, TestAccount>;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** The host name in the issuer URL (defaults to `host`). */
  issuerHost?: string;
}

const SIGNING_ALG = 'RS256';

/**
 * panva's oidc-provider on plain HTTP: bound first, so the issuer carries the real port. Its
 * development login and consent pages are on, PKCE is required of every client, and a refresh token
 * comes with every code grant of a client allowed to use one.
 */
export async function startTestProvider(options: TestProviderOptions): Promise<TestProvider> {
  const host = options.host ?? '127.0.0.1';
  const server = http.createServer();
  await listen(server, options.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://${options.issuerHost ?? host}:${port}`;

  const kid = `test-${randomBytes(4).toString('hex')}`;
  const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const signingJwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALG, use: 'sig' };
  const foreign = (await generateKeyPair(SIGNING_ALG)).privateKey;

  const accounts = new Map(Object.entries(options.accounts ?? {}));
  const storage = new Map<string, Record<string, unknown>>();
  const tokenRequests: TokenRequestRecord[] = [];
  const grantErrors: string[] = [];

  const provider = new Provider(issuer, {
    clients: options.clients.map((client) => ({
      ...client,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: client.client_secret ? 'client_secret_post' : 'none',
    })),
    adapter: createAdapterClass(storage),
    jwks: { keys: [signingJwk] },
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => {
        const account = accounts.get(sub);
        return {
          sub,
          email: account?.email ?? `${sub}@idp.example`,
          email_verified: account?.email_verified ?? true,
          name: account?.name ?? `Person ${sub}`,
        };
      },
    }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The e-mail belongs in the ID token here (as Google, Microsoft and Keycloak put it there).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    issueRefreshToken: (_ctx: unknown, client: ClientLike) => client.grantTypeAllowed('refresh_token'),
    // Never the names of the service's cookies: on one host, cookies are shared across ports.
    cookies: {
      names: { session: 'idp_session', interaction: 'idp_interaction', resume: 'idp_interaction_resume' },
      keys: [randomBytes(32).toString('hex')],
    },
    ttl: { AccessToken: 3600, AuthorizationCode: 600, IdToken: 3600, RefreshToken: 86_400, Interaction: 600, Session: 3600, Grant: 3600 },
  });
  provider.on('grant.error', (_ctx: never, error: never) => {
    const { error: code, error_description: description, error_detail: detail } = error as { error?: string; error_description?: string; error_detail?: string };
    grantErrors.push(`${code ?? 'error'}: ${description ?? ''}${detail ? ` (${detail})` : ''}`);
  });

  const self: TestProvider = {
    issuer,
    port,
    tokenRequests,
    grantErrors,
    accounts,
    tamperTokenResponse: undefined,
    async resignIdToken(idToken, change, key = 'provider') {
      const claims = change(decodeJwt(idToken));
      return new SignJWT(claims).setProtectedHeader({ alg: SIGNING_ALG, kid, typ: 'JWT' }).sign(key === 'provider' ? privateKey : foreign);
    },
    expireAuthorizationCodes() {
      const past = Math.floor(Date.now() / 1000) - 1;
      for (const [key, payload] of storage) if (key.startsWith('AuthorizationCode:')) payload.exp = past;
    },
    async goDown() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async comeBack() {
      await listen(server, port, host);
    },
    async close() {
      server.closeAllConnections();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path !== '/token' || ctx.method !== 'POST') return;
    const body = ctx.oidc?.body ?? {};
    tokenRequests.push({ grantType: String(body.grant_type ?? ''), clientId: ctx.oidc?.client?.clientId, status: ctx.status, parameters: Object.keys(body).sort() });
    if (ctx.status === 200 && self.tamperTokenResponse) await self.tamperTokenResponse(ctx.body as Record<string, unknown>, ctx);
  });
  server.on('request', provider.callback());
  return self;
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** oidc-provider's storage interface over one Map, so a test can reach into it (expire a code). */
function createAdapterClass(storage: Map<string, Record<string, unknown>>) {
  return class MapAdapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: Record<string, unknown>) {
      storage.set(this.key(id), { ...payload });
    }
    async find(id: string) {
      return storage.get(this.key(id));
    }
    async findByUid(uid: string) {
      for (const [key, payload] of storage) if (key.startsWith(`${this.model}:`) && payload.uid === uid) return payload;
      return undefined;
    }
    async findByUserCode(userCode: string) {
      for (const [key, payload] of storage) if (key.startsWith(`${this.model}:`) && payload.userCode === userCode) return payload;
      return undefined;
    }
    async consume(id: string) {
      const payload = storage.get(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      storage.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, payload] of storage) if (payload.grantId === grantId) storage.delete(key);
    }
  };
}
