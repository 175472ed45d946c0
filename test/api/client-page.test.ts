import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { buildApp } from '../../src/app';
import { CLIENT_README, renderClientPage, renderMarkdown } from '../../src/http/client-readme';
import { createLogger } from '../../src/logger';
import { describeEachDatabase, openTestDatabase, testConfig, type TestDatabase } from '../support/harness';
import { HOSTILE_README } from '../support/hostile-markdown';
import { assetPath } from '../support/browser-assets';

const firstHeading = (markdown: string): string => {
  const line = markdown.split('\n').find((text) => /^#{1,6} /.test(text));
  if (!line) throw new Error('the client README has no heading');
  return renderMarkdown(line).trim();
};

describeEachDatabase('the client README page', (get) => {
  it('when GET /client is asked, then 200 HTML from the README under the strict CSP, no script, links back to /docs and /redoc, RateLimit headers', async () => {
    const res = await get().anonymous.get('/client');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("script-src-attr 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.ratelimit).toMatch(/^"root"; r=\d+; t=\d+$/);
    // Whatever the README says: its first heading is on the page.
    expect(res.text).toContain(firstHeading(readFileSync(CLIENT_README, 'utf8')));
    expect(res.text).not.toMatch(/<script/i);
    expect(res.text).toContain('<a href="/docs">');
    expect(res.text).toContain('<a href="/redoc">');
    expect(res.text).toContain(`<link rel="stylesheet" href="${assetPath('client.css')}">`);
    const css = await get().anonymous.get(assetPath('client.css'));
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('when HEAD /client is asked, then the same status and type without a body', async () => {
    const res = await get().anonymous.head('/client');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toBeUndefined();
  });

  it("when /openapi.json is read, then its externalDocs points at /client, which Swagger UI and ReDoc both show", async () => {
    const res = await get().anonymous.get('/openapi.json').expect(200);
    expect(res.body.externalDocs).toEqual({ description: expect.stringContaining('@agent-fleet/client'), url: '/client' });
    expect(res.body.paths['/client'].get.responses['200'].content['text/html']).toBeDefined();
    await get().anonymous.get(new URL(res.body.externalDocs.url, 'http://service.example').pathname).expect(200);
  });
});

describe('the client README page with Markdown that holds HTML', () => {
  let directory: string;
  let database: TestDatabase;
  beforeAll(async () => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'client-readme-'));
    database = await openTestDatabase('sqlite');
  });
  afterAll(async () => {
    await database.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('when the README holds raw HTML and script URLs, then they are shown as text and links to # : no element, attribute or URL can run script', async () => {
    const readme = path.join(directory, 'README.md');
    writeFileSync(readme, HOSTILE_README);
    const config = testConfig();
    const app = buildApp({ config, db: database.db, logger: createLogger({ logLevel: 'silent' }), clientReadme: readme });
    const res = await supertest(app).get('/client').expect(200);
    const main = res.text.slice(res.text.indexOf('<main>'), res.text.indexOf('</main>'));
    expect(main).toContain('<h1>Hostile</h1>');
    expect(main).toContain('&lt;script src=&quot;/docs/swagger-ui-bundle.js&quot;&gt;&lt;/script&gt;');
    expect(main).not.toMatch(/<(script|iframe|img [^>]*on\w+=|span)/i);
    // Every attribute value, as the browser decodes it, is harmless.
    const urls = [...main.matchAll(/(?:href|src)="([^"]*)"/g)].map((match) => decodeEntities(match[1] as string));
    expect(urls).toEqual(['#', '#', '#', '#', '#', '#', '#', '/a', '/docs', 'https://example.com/a?b=1&c=2#d', 'mailto:fleet@example.com', '#use', 'guide.md']);
    // The handlers are there as text only: no tag carries one.
    expect(main).toContain('onerror=&quot;window.hacked = 1&quot;');
    const attributes = [...main.matchAll(/<[a-z][^>]*>/gi)].flatMap(([tag]) => [...tag.matchAll(/\s([^\s=>]+)=("[^"]*"|'[^']*'|[^\s>]*)/g)].map((match) => match[1]));
    expect(new Set(attributes)).toEqual(new Set(['href', 'src', 'alt', 'title']));
  });

  it('when Markdown is rendered, then text is escaped and code keeps its characters', () => {
    expect(renderMarkdown('a < b & `<b>`')).toBe('<p>a &lt; b &amp; <code>&lt;b&gt;</code></p>\n');
    expect(renderClientPage('# T')).toContain('<h1>T</h1>');
  });
});

/** What a browser makes of an attribute value: character references decoded. */
function decodeEntities(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_all, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_all, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&(amp|quot|lt|gt|colon);/g, (_all, name: string) => ({ amp: '&', quot: '"', lt: '<', gt: '>', colon: ':' })[name] ?? '');
}
