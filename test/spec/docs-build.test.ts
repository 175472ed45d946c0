/**
 * npm run docs:build: a reviewer opens the proposed API from disk, offline, and reaches the
 * review report from it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext } from 'playwright-core';
import YAML from 'yaml';
import { API_FILE, ROOT } from '../../scripts/api-review/spec-source';
import { CLEAN_REPORT, describeInBrowser, launchChromium, watchedPage } from '../support/browser';


describe('npm run docs:build', () => {
  let dir: string;
  let out: string;
  let run: ReturnType<typeof spawnSync>;
  let stdoutLines: string[];

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'docs-build-'));
    out = path.join(dir, 'preview');
    // The base has an operation that api.yaml lacks: the preview shows one breaking change.
    const base = YAML.parse(readFileSync(API_FILE, 'utf8'));
    base.paths['/agents/{agent_id}/archive'] = { post: { operationId: 'archiveAgent', summary: 'Archive an agent', tags: ['agents'], responses: { '204': { description: 'Archived' } } } };
    writeFileSync(path.join(dir, 'base.yaml'), YAML.stringify(base));
    run = spawnSync(process.execPath, [require.resolve('tsx/cli'), path.join(ROOT, 'scripts', 'docs-build.ts'), '--base', path.join(dir, 'base.yaml'), '--out', out], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    stdoutLines = String(run.stdout).trim().split('\n');
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('when it runs, then it succeeds and prints the page it wrote as its last line', () => {
    expect(run.status).toBe(0);
    expect(stdoutLines.at(-1)).toBe(path.join(out, 'index.html'));
    expect(stdoutLines).toContain(`report: ${path.join(out, 'changes.html')}`);
    expect(stdoutLines[0]).toMatch(/: 1 breaking, 0 non-breaking, 0 documentation changes$/);
    expect(readdirSync(out).sort()).toEqual(['api.yaml', 'changes.html', 'changes.md', 'index.html', 'init.js', 'redoc.standalone.js', 'spec.js']);
  });

  test('when the pages are read, then they load nothing from another place and run no inline script', () => {
    const index = readFileSync(path.join(out, 'index.html'), 'utf8');
    const changes = readFileSync(path.join(out, 'changes.html'), 'utf8');

    expect([...index.matchAll(/<script\b([^>]*)>/g)].map((match) => match[1]!.trim())).toEqual(['src="spec.js"', 'src="redoc.standalone.js"', 'src="init.js"']);
    expect(index).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(changes).not.toMatch(/<script/);
    expect(changes).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(readFileSync(path.join(out, 'redoc.standalone.js'), 'utf8')).not.toContain('https://cdn.redoc.ly/');
  });

  test('when the report is read, then it is the api:diff report against the base', () => {
    const report = readFileSync(path.join(out, 'changes.md'), 'utf8');

    expect(report).toMatch(/^## API review: .*base\.yaml \(\S+\) → api\.yaml \(\S+\)/);
    expect(report).toContain('❌ **Semver gate failed:** breaking changes need a major version');
    expect(report).toContain('| Path `/agents/{agent_id}/archive` was removed. | path | `/agents/{agent_id}/archive` | path-removed |');
  });

  describeInBrowser('opened from disk in Chromium, with no network', () => {
    let browser: Browser;
    let context: BrowserContext;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => browser?.close());
    beforeEach(async () => {
      context = await browser.newContext({ offline: true });
    });
    afterEach(async () => context?.close());

    test('when the reference is opened, then ReDoc renders the operations, and its note links to the report, which opens', async () => {
      expect(existsSync(path.join(out, 'index.html'))).toBe(true);
      // Every request of a page opened from disk has the origin "null": anything else is foreign.
      const { page, report } = await watchedPage(context, 'null');

      await page.goto(pathToFileURL(path.join(out, 'index.html')).href);

      const createAgent = page.locator('[data-section-id="operation/createAgent"]');
      await createAgent.getByRole('heading', { level: 2 }).waitFor();
      expect(await createAgent.getByRole('heading', { level: 2 }).innerText()).toBe('Create an agent');
      const note = page.getByText(/under review: against .*base\.yaml, 1 breaking, 0 non-breaking and 0 documentation changes; semver gate failed\./);
      await note.waitFor();
      await page.getByRole('link', { name: 'Read the changes' }).click();
      await page.waitForURL(/\/changes\.html$/);
      expect(await page.getByRole('heading', { level: 2 }).first().innerText()).toMatch(/^API review: .*base\.yaml/);
      expect(await page.getByRole('heading', { level: 3 }).first().innerText()).toBe('🔴 Breaking changes (1)');
      expect(await page.locator('table').first().innerText()).toContain('Path /agents/{agent_id}/archive was removed.');
      expect(report).toEqual(CLEAN_REPORT);
    });
  });
});
