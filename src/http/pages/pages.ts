import path from 'node:path';
import { Router, type RequestHandler } from 'express';
import type { SessionService } from '../../auth/sessions';
import type { Store } from '../../data/store';
import { listSignInMethods } from '../../domain/identities';
import { checkReturnTo } from '../return-to';
import { sessionOfCookie } from '../session';
import { serveFixedFiles } from '../static-files';
import { renderHomePage, renderLoginPage } from './templates';

// The assets stay in src/ (tsc copies no files): the same path from src/ and from dist/.
const ASSETS = path.resolve(__dirname, '..', '..', '..', 'src', 'http', 'pages', 'assets');

export interface PagesDependencies {
  store: Store;
  sessions: SessionService;
  cookieName: string;
  providers: ReadonlyArray<{ id: string; name: string }>;
  publicUrl: string;
}

/** GET /login, GET / and their assets: HTML for people, served before the API's validator like /docs. */
export function createPagesRouter(deps: PagesDependencies): Router {
  const login: RequestHandler = (req, res) => {
    const failed = req.query.error === 'oauth_failed';
    const model = {
      providers: deps.providers,
      returnTo: checkReturnTo(req.query.returnTo, deps.publicUrl) ?? '/',
      cancelled: req.query.cancelled === 'true',
      failed,
      reason: failed && typeof req.query.reason === 'string' ? req.query.reason : undefined,
    };
    res.type('html').set('Cache-Control', 'no-store').send(renderLoginPage(model));
  };

  const home: RequestHandler = async (req, res, next) => {
    try {
      const user = (await sessionOfCookie(deps.sessions, deps.cookieName, req.headers.cookie))?.user;
      res.set('Cache-Control', 'no-store');
      if (!user) {
        res.status(302).location('/login').end();
        return;
      }
      const methods = await listSignInMethods(deps.store, user);
      const linked = new Map(methods.identities.map((identity) => [identity.provider, identity]));
      // Configured providers first, then links to providers no longer configured (they can still go).
      const connections = [
        ...deps.providers.map((provider) => ({ ...provider, linkedAs: linked.get(provider.id)?.email, linked: linked.has(provider.id) })),
        ...methods.identities
          .filter((identity) => !deps.providers.some((provider) => provider.id === identity.provider))
          .map((identity) => ({ id: identity.provider, name: identity.provider, linkedAs: identity.email ?? undefined, linked: true })),
      ];
      const link = req.query.link;
      const reason = typeof req.query.reason === 'string' ? req.query.reason : '';
      const notice = link === 'cancelled' ? ({ kind: 'cancelled' } as const) : link === 'failed' ? ({ kind: 'failed', reason } as const) : undefined;
      res.type('html').send(renderHomePage({ user, connections, canUnlink: methods.canUnlink, notice }));
    } catch (error) {
      next(error);
    }
  };

  const assets = serveFixedFiles(Object.fromEntries(['login.js', 'home.js', 'pages.css', 'client.css'].map((name) => [name, path.join(ASSETS, name)])));
  return Router({ caseSensitive: true, strict: true }).get('/login', login).get('/', home).get('/assets/:file', assets);
}
