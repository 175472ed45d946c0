import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page, Response } from 'playwright-core';
import {
  CLEAN_REPORT,
  describeInBrowser,
  launchChromium,
  PUBLIC_HOST,
  serveOverHttp,
  watchedPage,
  type PageReport,
  type ServedApp,
} from '../support/browser';
import { buildApp } from '../../src/app';
import { createLogger } from '../../src/logger';
import { HOSTILE_README } from '../support/hostile-markdown';
import { openTestDatabase, startTestApp, testConfig, type TestApp } from '../support/harness';

// Whole journeys in Chromium: on two busy cores (the other suites run beside them) one can take
// longer than jest's default 30 s.
// Swagger UI and Redoc lay out the whole API document (over 9,000 lines) in the page: on two cores
// shared with the rest of the suite, a step can take more than the usual 10 s.
const LAYOUT_TIMEOUT_MS = 30_000;
jest.setTimeout(150_000);

const ROOT_TAGS = ['agents', 'tasks', 'health', 'auth'];

function parseCsp(header: string | undefined): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name, sources);
  }
  return directives;
}

function expectStrictCsp(response: Response | null): void {
  expect(response?.status()).toBe(200);
  const csp = parseCsp(response?.headers()['content-security-policy']);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('script-src-attr')).toEqual(["'none'"]);
  expect(csp.has('upgrade-insecure-requests')).toBe(false);
  expect(response?.headers()['x-content-type-options']).toBe('nosniff');
}

// Try it out may add a query string.
const isRequest = (method: string, url: string) => (response: Response) => {
  const { origin, pathname } = new URL(response.url());
  return `${origin}${pathname}` === url && response.request().method() === method;
};

async function shownText(locator: Locator): Promise<string> {
  await locator.waitFor({ state: 'visible' });
  return locator.innerText();
}

async function expectSwaggerUiRendered(page: Page): Promise<void> {
  const createAgent = page.locator('#operations-agents-createAgent .opblock-summary');
  expect(await shownText(createAgent.locator('.opblock-summary-method'))).toBe('POST');
  expect(await createAgent.locator('.opblock-summary-path').innerText()).toBe('/agents');
  expect(await createAgent.locator('.opblock-summary-description').innerText()).toBe('Create an agent');
  for (const tag of ROOT_TAGS) {
    expect(await shownText(page.locator(`#operations-tag-${tag} > a`))).toBe(tag);
  }
  expect(await page.getByRole('button', { name: 'Authorize' }).count()).toBe(1);
}

async function expectRedocRendered(page: Page): Promise<void> {
  const createAgent = page.locator('[data-section-id="operation/createAgent"]');
  expect(await shownText(createAgent.getByRole('heading', { level: 2 }))).toBe('Create an agent');
  expect(await createAgent.innerText()).toMatch(/POST\s+\/agents/);
  const menu = (await shownText(page.getByRole('menu').first())).split('\n').map((line) => line.trim());
  expect(menu).toEqual(expect.arrayContaining(ROOT_TAGS));
}

describeInBrowser('the interactive API pages in Chromium', () => {
  let testApp: TestApp;
  let served: ServedApp;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    // The pages do not touch the database: SQLite is enough.
    testApp = await startTestApp('sqlite');
    served = await serveOverHttp(testApp.app);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await testApp?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext();
  });
  afterEach(async () => {
    await context?.close();
  });

  it('when /docs is opened, then Swagger UI renders the operations and tags of /openapi.json from the service alone, under the strict CSP, with no console error', async () => {
    const origin = served.origin();
    const { page, report } = await watchedPage(context, origin, LAYOUT_TIMEOUT_MS);
    const specFetched = page.waitForResponse(isRequest('GET', `${origin}/openapi.json`));
    const response = await page.goto(`${origin}/docs`);
    expect(response?.url()).toBe(`${origin}/docs`);
    expectStrictCsp(response);

    const spec = await specFetched;
    expect(spec.status()).toBe(200);
    expect(spec.headers()['content-type']).toMatch(/^application\/json/);
    expect(((await spec.json()) as { paths: Record<string, { post?: { operationId?: string } }> }).paths['/agents']?.post?.operationId).toBe(
      'createAgent',
    );

    await expectSwaggerUiRendered(page);
    await page.waitForLoadState('networkidle');
    expect(report).toEqual(CLEAN_REPORT);
  });

  it('when /redoc is opened, then ReDoc renders the operations and tags from the service alone, under the strict CSP, with no console error', async () => {
    const origin = served.origin();
    const { page, report } = await watchedPage(context, origin, LAYOUT_TIMEOUT_MS);
    const response = await page.goto(`${origin}/redoc`);
    expectStrictCsp(response);

    await expectRedocRendered(page);
    await page.waitForLoadState('networkidle');
    expect(report).toEqual(CLEAN_REPORT);
  });

  it.each([
    ['/docs', expectSwaggerUiRendered],
    ['/redoc', expectRedocRendered],
  ])(
    'when %s is served over plain HTTP under a host name that is not localhost, then it still renders and reaches nothing else (no upgrade to https, no validator badge)',
    async (path, expectRendered) => {
      const origin = served.origin(PUBLIC_HOST);
      const { page, report } = await watchedPage(context, origin, LAYOUT_TIMEOUT_MS);
      expectStrictCsp(await page.goto(`${origin}${path}`));

      await expectRendered(page);
      await page.waitForLoadState('networkidle');
      // Chromium reports helmet's Cross-Origin-Opener-Policy as ignored on a plain-HTTP origin that
      // is not loopback; behind TLS it applies. Everything else must be as clean as on 127.0.0.1.
      const consoleErrors = report.consoleErrors.filter((text) => !text.startsWith('The Cross-Origin-Opener-Policy header has been ignored'));
      expect({ ...report, consoleErrors } satisfies PageReport).toEqual(CLEAN_REPORT);
    },
  );

  it.each([
    ['/docs', expectSwaggerUiRendered],
    ['/redoc', expectRedocRendered],
  ])("when %s is opened, then it links to the client's README (externalDocs), and the README page leads back", async (path, expectRendered) => {
    const origin = served.origin();
    const { page, report } = await watchedPage(context, origin, LAYOUT_TIMEOUT_MS);
    await page.goto(`${origin}${path}`);
    await expectRendered(page);
    // Swagger UI resolves the URL against the document's (and opens it in a new tab); ReDoc keeps it as written.
    // The getting-started section above the reference links there too: this is the document's own link.
    const link = page.locator(`a[href="/client"]:not(.getting-started a), a[href="${origin}/client"]:not(.getting-started a)`).first();
    expect(await shownText(link)).toMatch(/@agent-fleet\/client/);
    await link.evaluate((anchor) => anchor.removeAttribute('target'));
    const [readme] = await Promise.all([page.waitForResponse(isRequest('GET', `${origin}/client`)), link.click()]);
    expectStrictCsp(readme);
    await page.waitForURL(`${origin}/client`);
    expect(await shownText(page.getByRole('heading', { level: 1 }))).toBeTruthy();
    await page.getByRole('navigation').getByRole('link', { name: /ReDoc/ }).click();
    await expectRedocRendered(page);
    await page.waitForLoadState('networkidle');
    expect(report).toEqual(CLEAN_REPORT);
  });

  it('when the README holds raw HTML and script URLs, then /client shows them as text and nothing runs, under the strict CSP', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'client-readme-'));
    const database = await openTestDatabase('sqlite');
    const readme = path.join(directory, 'README.md');
    writeFileSync(readme, HOSTILE_README);
    const hostile = await serveOverHttp(buildApp({ config: testConfig(), db: database.db, logger: createLogger({ logLevel: 'silent' }), clientReadme: readme }));
    try {
      const origin = hostile.origin();
      const { page, report } = await watchedPage(context, origin, LAYOUT_TIMEOUT_MS);
      expectStrictCsp(await page.goto(`${origin}/client`));
      expect(await shownText(page.getByRole('heading', { level: 1 }))).toBe('Hostile');
      expect(await page.locator('main').innerText()).toContain('<script src="/docs/swagger-ui-bundle.js"></script>');
      await page.locator('main a', { hasText: /^a$/ }).click();
      await page.locator('main span, main img[onerror], main iframe').count().then((count) => expect(count).toBe(0));
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => ({ hacked: (window as { hacked?: unknown }).hacked, bundle: typeof (window as { SwaggerUIBundle?: unknown }).SwaggerUIBundle }))).toEqual({
        hacked: undefined,
        bundle: 'undefined',
      });
      expect(page.url()).toBe(`${origin}/client#`);
      expect(report).toEqual(CLEAN_REPORT);
    } finally {
      await hostile.close();
      await database.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("when a user signs in through Swagger UI's Authorize dialog, then Try it out creates an agent (201) and lists it with the token /token issued", async () => {
    const origin = served.origin();
    const signedUp = await testApp.signUp();
    const agentName = `browser-agent-${randomBytes(4).toString('hex')}`;
    const { page, report } = await watchedPage(context, origin, LAYOUT_TIMEOUT_MS);
    await page.goto(`${origin}/docs`);

    await page.getByRole('button', { name: 'Authorize' }).click();
    const oauth = page.locator('.auth-container').filter({ has: page.getByRole('heading', { name: /OAuth2Password \(OAuth2, password\)/ }) });
    await oauth.getByLabel('username:').fill(signedUp.user.email);
    await oauth.getByLabel('password:').fill(signedUp.password);
    const [tokenResponse] = await Promise.all([
      page.waitForResponse(isRequest('POST', `${origin}/token`)),
      oauth.getByRole('button', { name: 'Apply given OAuth2 credentials' }).click(),
    ]);
    expect(tokenResponse.status()).toBe(200);
    expect(tokenResponse.request().headers()['content-type']).toBe('application/x-www-form-urlencoded');
    const token = (await tokenResponse.json()) as { access_token: string; token_type: string };
    expect(token.token_type).toBe('bearer');
    expect(await shownText(oauth.getByRole('heading', { name: 'Authorized' }))).toBe('Authorized');
    await oauth.getByRole('button', { name: 'Close' }).click();

    const create = page.locator('#operations-agents-createAgent');
    await create.locator('.opblock-summary-control').click();
    await create.getByRole('button', { name: 'Try it out' }).click();
    await create.locator('textarea.body-param__text').fill(JSON.stringify({ name: agentName, type: 'type_b' }));
    const [created] = await Promise.all([
      page.waitForResponse(isRequest('POST', `${origin}/agents`)),
      create.getByRole('button', { name: 'Execute' }).click(),
    ]);
    expect(created.request().headers()['authorization']).toBe(`Bearer ${token.access_token}`);
    expect(created.status()).toBe(201);
    const createdLive = create.locator('.live-responses-table .response');
    expect(await shownText(createdLive.locator('.response-col_status'))).toBe('201');
    const shownAgent = JSON.parse(await shownText(createdLive.locator('.response-col_description pre').first())) as Record<string, unknown>;
    expect(shownAgent).toMatchObject({ name: agentName, type: 'type_b', status: 'idle', owner_id: signedUp.user.id });

    const list = page.locator('#operations-agents-listAgents');
    await list.locator('.opblock-summary-control').click();
    await list.getByRole('button', { name: 'Try it out' }).click();
    const [listed] = await Promise.all([
      page.waitForResponse(isRequest('GET', `${origin}/agents`)),
      list.getByRole('button', { name: 'Execute' }).click(),
    ]);
    expect(listed.request().headers()['authorization']).toBe(`Bearer ${token.access_token}`);
    expect(listed.status()).toBe(200);
    const listedLive = list.locator('.live-responses-table .response');
    expect(await shownText(listedLive.locator('.response-col_status'))).toBe('200');
    const shownAgents = JSON.parse(await shownText(listedLive.locator('.response-col_description pre').first())) as unknown[];
    expect(shownAgents).toEqual([expect.objectContaining({ id: shownAgent.id, name: agentName, owner_id: signedUp.user.id })]);

    expect(report).toEqual(CLEAN_REPORT);
  });
});
