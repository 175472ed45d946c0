import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { CookieJarClient } from '../support/cookie-jar-client';
import { authorizeAtProvider } from '../support/oauth-harness';
import { listeningPort, makeTempDir, spawnServer, type ServerProcess } from '../support/server-process';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

describe('npm run dev:idp and the service, the two-command local try', () => {
  const temp = makeTempDir();
  let idp: ReturnType<typeof spawn> | undefined;
  let service: ServerProcess | undefined;
  afterAll(async () => {
    service?.child.kill('SIGTERM');
    idp?.kill('SIGTERM');
    await Promise.all([service?.exited, idp && new Promise((resolve) => idp!.once('exit', resolve))]);
    temp.remove();
  });

  it('when the local provider and the service run as the README says, then the demo person signs in from /login', async () => {
    const [idpPort, servicePort] = await Promise.all([freePort(), freePort()]);
    const providersFile = path.join(temp.dir, 'providers.json');
    const publicUrl = `http://localhost:${servicePort}`;
    idp = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev-idp.ts'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? temp.dir, IDP_PORT: String(idpPort), PUBLIC_URL: publicUrl, IDP_PROVIDERS_FILE: providersFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    await new Promise<void>((resolve, reject) => {
      idp!.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        printed += chunk;
        if (printed.includes('Ctrl+C stops the provider')) resolve();
      });
      idp!.once('exit', (code) => reject(new Error(`dev:idp exited with ${code}: ${printed}`)));
    });
    expect(printed).toContain(`Local OpenID provider: http://localhost:${idpPort}`);
    expect(printed).toContain(`Registered redirect URI: ${publicUrl}/api/auth/oauth/local/callback`);
    const providers = JSON.parse(readFileSync(providersFile, 'utf8')) as Array<{ id: string; issuer: string }>;
    expect(providers).toEqual([expect.objectContaining({ id: 'local', issuer: `http://localhost:${idpPort}` })]);
    expect(printed).toContain(`OAUTH_PROVIDERS='${JSON.stringify(providers)}'`);

    service = spawnServer({
      PORT: String(servicePort),
      HOST: '127.0.0.1',
      PUBLIC_URL: publicUrl,
      DATABASE_URL: `sqlite:${path.join(temp.dir, 'fleet.sqlite')}`,
      OAUTH_PROVIDERS: providersFile,
      LOG_LEVEL: 'info',
    });
    expect(await listeningPort(service)).toBe(servicePort);

    const browser = new CookieJarClient();
    const login = await browser.get(`${publicUrl}/login`);
    expect(login.status).toBe(200);
    expect(await login.text()).toContain('/api/auth/oauth/local');
    const start = await browser.get(`${publicUrl}/api/auth/oauth/local`);
    expect(start.status).toBe(302);
    const callback = await authorizeAtProvider(browser, new URL(start.headers.get('location') ?? ''), { login: 'demo' });
    const signedIn = await browser.get(callback);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get('location')).toBe('/');
    const home = await browser.get(`${publicUrl}/`);
    expect(await home.text()).toContain('demo@example.com');
  });
});
