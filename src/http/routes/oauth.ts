import { Router, type CookieOptions } from 'express';
import { parse as parseCookies } from 'cookie';
import { describeFailure, type FailureDescription } from '../../auth/oauth/failures';
import { FLOW_LIFETIME_SECONDS } from '../../auth/oauth/flow-cookie';
import { REFRESH_LEAD_MS } from '../../auth/oauth/provider-tokens';
import type { OAuthProvider, ProviderRegistry } from '../../auth/oauth/providers';
import { completeSignIn, startSignIn, type SignInDependencies } from '../../auth/oauth/sign-in';
import type { SessionService } from '../../auth/sessions';
import { listConnections } from '../../domain/identities';
import { AppError, notAUser, SignInError } from '../../errors';
import type { Logger } from '../../logger';
import { principalOf } from '../authenticate';
import { contentTag, sendRead } from '../caching';
import { envelope } from '../envelope';
import type { OAuthTelemetry } from '../oauth-telemetry';
import { checkReturnTo } from '../return-to';
import type { Handler } from '../typed-handler';
import { SESSION_COOKIE_OPTIONS } from './auth';

export const STATE_COOKIE = 'oauth_state';
export const FLOW_COOKIE = 'oauth_flow';

const CHECK_COOKIE_BASE: CookieOptions = { httpOnly: true, secure: true, sameSite: 'lax', path: '/api/auth/oauth' };
const CHECK_COOKIE: CookieOptions = { ...CHECK_COOKIE_BASE, maxAge: FLOW_LIFETIME_SECONDS * 1000 };
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
const LOGIN_FAILED = '/login?error=oauth_failed';
const LOGIN_CANCELLED = '/login?cancelled=true';

export interface OAuthRouteDependencies extends SignInDependencies {
  providers: ProviderRegistry;
  sessions: SessionService;
  cookieName: string;
  telemetry: OAuthTelemetry;
  logger: Logger;
  publicUrl: string;
}

/** GET /api/auth/oauth/{provider}, its callback, and GET /api/v1/me/connections. */
export function oauthRoutes(deps: OAuthRouteDependencies): Router {
  const start: Handler<'startOAuthSignIn'> = async (req, res) => {
    const provider = findProvider(deps.providers, req.params.provider);
    res.set(NO_STORE);
    try {
      const started = await startSignIn(provider, deps.sealer, requireReturnTo(req.query.returnTo, deps.publicUrl));
      res.cookie(STATE_COOKIE, started.state, CHECK_COOKIE).cookie(FLOW_COOKIE, started.flowCookie, CHECK_COOKIE);
      redirect(res, started.authorizationUrl);
    } catch (error) {
      report(deps.telemetry, req, provider, 'start', error);
      redirect(res, LOGIN_FAILED);
    }
  };

  const callback: Handler<'completeOAuthSignIn'> = async (req, res) => {
    // Whatever happens next, the check values are spent.
    res.set(NO_STORE).clearCookie(STATE_COOKIE, CHECK_COOKIE_BASE).clearCookie(FLOW_COOKIE, CHECK_COOKIE_BASE);
    const provider = findProvider(deps.providers, req.params.provider);
    try {
      const cookies = parseCookies(req.headers.cookie ?? '');
      const signedIn = await completeSignIn(provider, deps, { query: req.query as Record<string, unknown>, stateCookie: cookies[STATE_COOKIE], flowCookie: cookies[FLOW_COOKIE] });
      const session = await deps.sessions.begin(signedIn.user, 'provider');
      res.cookie(deps.cookieName, session.access_token, { ...SESSION_COOKIE_OPTIONS, maxAge: session.expires_in * 1000 });
      deps.logger.info({ reqId: req.id, provider: provider.config.id, userId: signedIn.user.id, outcome: signedIn.outcome }, 'third-party sign-in succeeded');
      redirect(res, checkReturnTo(signedIn.returnTo, deps.publicUrl) ?? '/');
    } catch (error) {
      const failure = report(deps.telemetry, req, provider, 'callback', error);
      redirect(res, failure.reason === 'access_denied' ? LOGIN_CANCELLED : LOGIN_FAILED);
    }
  };

  const connections: Handler<'listMyConnections'> = async (req, res) => {
    const principal = principalOf(req);
    if (principal.kind !== 'user') throw notAUser();
    const data = await listConnections(deps.store, principal.user.id, deps.providers.list(), Date.now(), REFRESH_LEAD_MS);
    sendRead(res, envelope(data), { etag: contentTag(data) });
  };

  return Router()
    .get('/api/auth/oauth/:provider', start)
    .get('/api/auth/oauth/:provider/callback', callback)
    .get('/api/v1/me/connections', connections);
}

function findProvider(providers: ProviderRegistry, id: string): OAuthProvider {
  const provider = providers.find(id);
  if (!provider) throw new AppError('not_found', 'No such sign-in provider');
  return provider;
}

function requireReturnTo(value: unknown, publicUrl: string): string {
  const returnTo = checkReturnTo(value, publicUrl);
  if (returnTo === undefined) throw new SignInError('invalid_return_to', 'returnTo is not a path of this service (open redirect refused)');
  return returnTo;
}

/** Only what a failure report needs of the request: its id and the client's address. */
type RequestContext = { id: string; ip?: string | undefined };
/** The part of a response a redirect uses (handlers' responses are typed by their operation). */
type Redirectable = { status(code: number): { location(url: string): { end(): unknown } } };

function report(telemetry: OAuthTelemetry, req: RequestContext, provider: OAuthProvider, stage: 'start' | 'callback', error: unknown): FailureDescription {
  const failure = describeFailure(error);
  telemetry.signInFailed({ provider: provider.config.id, stage, requestId: req.id, clientIp: req.ip }, failure);
  return failure;
}

function redirect(res: Redirectable, location: string): void {
  res.status(302).location(location).end();
}
