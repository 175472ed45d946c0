import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Response } from 'supertest';
import { loadBrowserAssets } from '../../src/http/browser-assets';
import { startTestApp, type TestApp } from '../support/harness';

const FAVICON_SOURCE = path.resolve(__dirname, '..', '..', 'src', 'browser', 'favicon.ico');
const IMMUTABLE = 'public, max-age=31536000, immutable';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

/** Reads any answer's body as bytes, whatever its type. */
const asBytes = (res: Response, done: (error: Error | null, body: Buffer) => void): void => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

const manifest = (): Record<string, string> => JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', 'dist', 'browser', 'manifest.json'), 'utf8')) as Record<string, string>;

const expectJsonNotFound = (res: Response): void => {
  expect(res.status).toBe(404);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.headers['cache-control'] ?? '').not.toContain('immutable');
  expect(res.body).toMatchObject({ error: 'not_found', message: expect.any(String) });
};

const expectStrictCsp = (res: Response): void => {
  const csp = res.headers['content-security-policy'] as string;
  expect(csp).toContain("style-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).toContain("frame-ancestors 'none'");
};

describe('the pages, their files and the favicon [sqlite]', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('sqlite');
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('GET /favicon.ico', () => {
    it('when the icon is asked, then 200 image/x-icon with the source file\'s bytes, cached for a day', async () => {
      const res = await app.anonymous.get('/favicon.ico').buffer(true).parse(asBytes);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/x-icon');
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers.ratelimit).toMatch(/^"root"; r=\d+; t=\d+$/);
      expect(Buffer.compare(res.body as Buffer, readFileSync(FAVICON_SOURCE))).toBe(0);
    });
  });

  describe('GET /assets/{file}', () => {
    it('when each file of the manifest is asked by its hashed name, then 200 with its type, its built bytes and a year\'s immutable cache', async () => {
      const assets = loadBrowserAssets();
      const entries = Object.entries(manifest());
      expect(entries.map(([name]) => name)).toEqual(expect.arrayContaining(['client.css', 'console.js', 'docs.css', 'favicon.ico', 'favicon.svg', 'login.js', 'pages.css']));
      for (const [name, file] of entries) {
        expect(assets.fileOf(name)).toBe(file);
        expect(file).not.toBe(name);
        const res = await app.anonymous.get(`/assets/${file}`).buffer(true).parse(asBytes);
        expect([name, res.status]).toEqual([name, 200]);
        expect([name, res.headers['content-type']]).toEqual([name, TYPES[path.extname(name)]]);
        expect([name, res.headers['cache-control']]).toEqual([name, IMMUTABLE]);
        const built = readFileSync(path.resolve(__dirname, '..', '..', 'dist', 'browser', file));
        expect([name, Buffer.compare(res.body as Buffer, built)]).toEqual([name, 0]);
      }
    });

    it('when a file is asked by its plain, unhashed name, then 404 JSON', async () => {
      for (const name of ['login.js', 'console.js', 'pages.css', 'favicon.ico']) expectJsonNotFound(await app.anonymous.get(`/assets/${name}`));
    });

    it('when the manifest or a path out of the folder is asked, then 404 JSON', async () => {
      const hashed = loadBrowserAssets().fileOf('login.js');
      for (const target of ['/assets/manifest.json', '/assets/../manifest.json', '/assets/..%2Fmanifest.json', `/assets/..%2Fbrowser%2F${hashed}`, `/assets/%2E%2E%2F${hashed}`, '/assets/%2E%2E%2F%2E%2E%2Fpackage.json']) {
        const res = await app.anonymous.get(target);
        expect([target, res.status]).toEqual([target, 404]);
        expectJsonNotFound(res);
      }
    });
  });

  describe('GET /sign-up', () => {
    it('when the page is asked, then 200 HTML under the strict CSP, with labelled fields, its script and a way back to /login', async () => {
      const res = await app.anonymous.get('/sign-up');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expectStrictCsp(res);
      expect(res.text).toContain('<form id="sign-up-form" method="post" data-return-to="/">');
      expect(res.text).toMatch(/<label>Name <input type="text" name="name"[^>]*required><\/label>/);
      expect(res.text).toMatch(/<label>E-mail <input type="email" name="email"[^>]*required><\/label>/);
      expect(res.text).toMatch(/<label>Password <input type="password" name="password" autocomplete="new-password"[^>]*required[^>]*><\/label>/);
      expect([...res.text.matchAll(/<script[^>]*>/g)].map(([tag]) => tag)).toEqual([`<script src="/assets/${loadBrowserAssets().fileOf('login.js')}" defer>`]);
      expect(res.text).not.toMatch(/ on[a-z]+=|style=|<style/);
      expect(res.text).toContain('<a href="/login">Sign in</a>');
    });

    it('when returnTo names a path of the service, then the form and the link back to /login keep it', async () => {
      const res = await app.anonymous.get('/sign-up').query({ returnTo: '/docs?x=1' });
      expect(res.status).toBe(200);
      expect(res.text).toContain('data-return-to="/docs?x=1"');
      expect(res.text).toContain(`<a href="/login?returnTo=${encodeURIComponent('/docs?x=1')}">Sign in</a>`);
    });

    it('when returnTo names another site, then it falls back to /', async () => {
      for (const returnTo of ['//evil.example', 'https://evil.example/', '/\\evil.example']) {
        const res = await app.anonymous.get('/sign-up').query({ returnTo });
        expect(res.status).toBe(200);
        expect([returnTo, res.text.includes('data-return-to="/"')]).toEqual([returnTo, true]);
        expect(res.text).not.toContain('evil.example');
        expect(res.text).toContain('<a href="/login">Sign in</a>');
      }
    });
  });

  describe('the pages\' links', () => {
    const favicon = (): string => `<link rel="icon" type="image/svg+xml" href="/assets/${loadBrowserAssets().fileOf('favicon.svg')}">`;

    it('when /login is asked, then it links to /sign-up keeping returnTo, and names the favicon', async () => {
      const plain = await app.anonymous.get('/login');
      expect(plain.status).toBe(200);
      expectStrictCsp(plain);
      expect(plain.text).toContain('<a href="/sign-up">Create an account</a>');
      expect(plain.text).toContain(favicon());
      expect(favicon()).toMatch(/favicon-[A-Z0-9]+\.svg/);
      const kept = await app.anonymous.get('/login').query({ returnTo: '/client' });
      expect(kept.text).toContain(`<a href="/sign-up?returnTo=${encodeURIComponent('/client')}">Create an account</a>`);
    });

    it('when / is asked with a session, then the console names the favicon under the strict CSP', async () => {
      const res = await app.anonymous.get('/').set('Cookie', `${app.config.auth.sessionCookieName}=${app.user.token}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expectStrictCsp(res);
      expect(res.text).toContain(favicon());
      expect(res.text).toContain(`<script src="/assets/${loadBrowserAssets().fileOf('console.js')}" defer>`);
    });

    it('when the favicon a page names is asked, then it is the SVG icon', async () => {
      const res = await app.anonymous.get(`/assets/${loadBrowserAssets().fileOf('favicon.svg')}`).buffer(true).parse(asBytes);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/svg+xml');
      expect((res.body as Buffer).toString('utf8')).toContain('<svg');
    });
  });
});
