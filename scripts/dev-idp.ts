/**
 * `npm run dev:idp`: a local OpenID provider (panva's oidc-provider, the one the tests use) for
 * trying third-party sign-in on a developer's machine. Any login and password sign in; `demo` is a
 * person with a verified e-mail. Prints the OAUTH_PROVIDERS value for the service and writes it to
 * data/dev-idp-providers.json. Never for production: it accepts every password.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startTestProvider } from '../test/support/oidc-provider';

const PROVIDER_ID = 'local';
const CLIENT_ID = 'agent-fleet-dev';
// A development-only provider on loopback: its client secret protects nothing worth a random one.
const CLIENT_SECRET = 'dev-idp-client-secret';

async function main(): Promise<void> {
  const port = Number(process.env.IDP_PORT ?? 9000);
  const publicUrl = (process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 8000}`).replace(/\/+$/, '');
  const redirectUri = `${publicUrl}/api/auth/oauth/${PROVIDER_ID}/callback`;
  const idp = await startTestProvider({
    port,
    host: '127.0.0.1',
    issuerHost: 'localhost',
    clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [redirectUri] }],
    accounts: { demo: { email: 'demo@example.com', email_verified: true, name: 'Demo User' } },
  });
  const providers = [{ id: PROVIDER_ID, name: 'Local IdP (development)', issuer: idp.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }];
  const file = path.resolve(process.env.IDP_PROVIDERS_FILE ?? path.join(__dirname, '..', 'data', 'dev-idp-providers.json'));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(providers, null, 2)}\n`);

  console.log(`
Local OpenID provider: ${idp.issuer}  (development only: every password is accepted)
Demo person: log in as "demo" with any password (or any other login: it becomes a new person).
Registered redirect URI: ${redirectUri}

Start the service in another terminal with:

  OAUTH_PROVIDERS=data/dev-idp-providers.json npm run dev

(or OAUTH_PROVIDERS='${JSON.stringify(providers)}')
then open ${publicUrl}/login and click "Sign in with ${providers[0]?.name}".
Ctrl+C stops the provider.
`);

  const stop = () => {
    void idp.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error('the local OpenID provider failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
