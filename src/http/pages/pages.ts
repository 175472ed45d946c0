import path from 'node:path';
import type { SessionService } from '../../auth/sessions';
import type { Store } from '../../data/store';
import { listSignInMethods } from '../../domain/identities';
import type { OperationHandlers, PathTo } from '../operations';
import { pageLinksOf } from '../page-links';
import { checkReturnTo } from '../return-to';
import { sessionOfCookie } from '../session';
import { serveFixedFiles } from '../static-files';
import type { Handler } from '../typed-handler';
import { renderHomePage, renderLoginPage } from './templates';

// The assets stay in src/ (tsc copies no files): the same path from src/ and from dist/.
const ASSETS = path.resolve(__dirname, '..', '..', '..', 'src', 'http', 'pages', 'assets');

export interface PagesDependencies {
  store: Store;
  sessions: SessionService;
  cookieName: string;
  providers: ReadonlyArray<{ id: string; name: string }>;
  publicUrl: string;
  pathTo: PathTo;
}

/** The sign-in page, the home page and their assets: HTML for people. */
export function pageHandlers(deps: PagesDependencies): Pick<OperationHandlers, 'getLoginPage' | 'getHomePage' | 'getPageAsset'> {
  const links = pageLinksOf(deps.pathTo);
  const login: Handler<'getLoginPage'> = (req, res) => {
    const failed = req.query.error === 'oauth_failed';
    const model = {
      providers: deps.providers,
      returnTo: checkReturnTo(req.query.returnTo, deps.publicUrl) ?? '/',
      cancelled: req.query.cancelled === 'true',
      failed,
      reason: failed && typeof req.query.reason === 'string' ? req.query.reason : undefined,
    };
    res.type('html').set('Cache-Control', 'no-store').send(renderLoginPage(model, links));
  };

  const home: Handler<'getHomePage'> = async (req, res) => {
    const user = (await sessionOfCookie(deps.sessions, deps.cookieName, req.headers.cookie))?.user;
    res.set('Cache-Control', 'no-store');
    if (!user) {
      res.status(302).location(deps.pathTo('getLoginPage')).end();
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
    res.type('html').send(renderHomePage({ user, connections, canUnlink: methods.canUnlink, notice }, links));
  };

  const assets = serveFixedFiles(Object.fromEntries(['login.js', 'home.js', 'pages.css', 'client.css', 'docs.css'].map((name) => [name, path.join(ASSETS, name)])));
  return { getLoginPage: login, getHomePage: home, getPageAsset: assets };
}
