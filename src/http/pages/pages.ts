import path from 'node:path';
import { Router, type RequestHandler } from 'express';
import { parse as parseCookies } from 'cookie';
import type { SessionService } from '../../auth/sessions';
import { checkReturnTo } from '../return-to';
import { serveFixedFiles } from '../static-files';
import { renderHomePage, renderLoginPage } from './templates';

// The assets stay in src/ (tsc copies no files): the same path from src/ and from dist/.
const ASSETS = path.resolve(__dirname, '..', '..', '..', 'src', 'http', 'pages', 'assets');

export interface PagesDependencies {
  sessions: SessionService;
  cookieName: string;
  providers: ReadonlyArray<{ id: string; name: string }>;
  publicUrl: string;
}

/** GET /login, GET / and their assets: HTML for people, served before the API's validator like /docs. */
export function createPagesRouter(deps: PagesDependencies): Router {
  const login: RequestHandler = (req, res) => {
    const model = {
      providers: deps.providers,
      returnTo: checkReturnTo(req.query.returnTo, deps.publicUrl) ?? '/',
      cancelled: req.query.cancelled === 'true',
      failed: req.query.error === 'oauth_failed',
    };
    res.type('html').set('Cache-Control', 'no-store').send(renderLoginPage(model));
  };

  const home: RequestHandler = async (req, res, next) => {
    try {
      const token = req.headers.cookie ? parseCookies(req.headers.cookie)[deps.cookieName] : undefined;
      const user = token === undefined ? undefined : (await deps.sessions.resolve(token))?.user;
      res.set('Cache-Control', 'no-store');
      if (user) res.type('html').send(renderHomePage(user));
      else res.status(302).location('/login').end();
    } catch (error) {
      next(error);
    }
  };

  const assets = serveFixedFiles(Object.fromEntries(['login.js', 'home.js', 'pages.css'].map((name) => [name, path.join(ASSETS, name)])));
  return Router({ caseSensitive: true, strict: true }).get('/login', login).get('/', home).get('/assets/:file', assets);
}
