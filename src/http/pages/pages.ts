import type { SessionService } from '../../auth/sessions';
import type { Store } from '../../data/store';
import { listSignInMethods } from '../../domain/identities';
import type { OperationHandlers, PathTo } from '../operations';
import { pageLinksOf } from '../page-links';
import { checkReturnTo } from '../return-to';
import { sessionOfCookie } from '../session';
import type { BrowserAssets } from '../browser-assets';
import type { Handler } from '../typed-handler';
import { renderHomePage, renderLoginPage, renderSignUpPage } from './templates';

export interface PagesDependencies {
  store: Store;
  sessions: SessionService;
  cookieName: string;
  providers: ReadonlyArray<{ id: string; name: string }>;
  publicUrl: string;
  pathTo: PathTo;
  assets: BrowserAssets;
}

/** The sign-in and sign-up pages, the console and their files: HTML for people. */
export function pageHandlers(deps: PagesDependencies): Pick<OperationHandlers, 'getLoginPage' | 'getSignUpPage' | 'getHomePage' | 'getPageAsset' | 'getFavicon'> {
  const links = pageLinksOf(deps.pathTo, deps.assets);
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

  const signUp: Handler<'getSignUpPage'> = (req, res) => {
    const returnTo = checkReturnTo(req.query.returnTo, deps.publicUrl) ?? '/';
    res.type('html').set('Cache-Control', 'no-store').send(renderSignUpPage({ returnTo }, links));
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

  return {
    getLoginPage: login,
    getSignUpPage: signUp,
    getHomePage: home,
    getPageAsset: (req, res, next) => deps.assets.serve(req, res, next),
    getFavicon: (_req, res) => deps.assets.servePlain('favicon.ico', res),
  };
}
