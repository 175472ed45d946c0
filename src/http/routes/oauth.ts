import { type CookieOptions } from 'express';
import { parse as parseCookies } from 'cookie';
import { describeFailure, type FailureDescription } from '../../auth/oauth/failures';
import { FLOW_LIFETIME_SECONDS } from '../../auth/oauth/flow-cookie';
import { REFRESH_LEAD_MS } from '../../auth/oauth/provider-tokens';
import type { OAuthProvider, ProviderRegistry } from '../../auth/oauth/providers';
import { completeSignIn, openCallback, startSignIn, type SignInDependencies } from '../../auth/oauth/sign-in';
import type { SessionService } from '../../auth/sessions';
import { listConnections, unlinkIdentity } from '../../domain/identities';
import { AppError, SignInError, type SignInFailureReason } from '../../errors';
import type { Logger } from '../../logger';
import { userOf } from '../authenticate';
import { contentTag, sendRead } from '../caching';
import { envelope } from '../envelope';
import type { OAuthTelemetry } from '../oauth-telemetry';
import { checkReturnTo } from '../return-to';
import { sessionOfCookie } from '../session';
import type { OperationHandlers, PathTo } from '../operations';
import type { Handler } from '../typed-handler';
import { SESSION_COOKIE_OPTIONS } from './auth';

export const STATE_COOKIE = 'oauth_state';
export const FLOW_COOKIE = 'oauth_flow';

const CHECK_COOKIE_BASE: CookieOptions = { httpOnly: true, secure: true, sameSite: 'lax', path: '/api/auth/oauth' };
const CHECK_COOKIE: CookieOptions = { ...CHECK_COOKIE_BASE, maxAge: FLOW_LIFETIME_SECONDS * 1000 };
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
const PERSON_REASONS: ReadonlySet<SignInFailureReason> = new Set(['account_exists', 'email_not_verified', 'missing_email', 'invalid_claims']);

export interface OAuthRouteDependencies extends SignInDependencies {
  providers: ProviderRegistry;
  sessions: SessionService;
  cookieName: string;
  telemetry: OAuthTelemetry;
  logger: Logger;
  publicUrl: string;
  pathTo: PathTo;
}

/** Where a person lands after a sign-in or a link: the login page and the home page, with what happened. */
interface Landings {
  failed: string;
  cancelled: string;
  linkFailed: string;
  linkCancelled: string;
  home: string;
}

/** GET /api/auth/oauth/{provider}, its callback, and the caller's connections (list, link, unlink). */
export function oauthHandlers(deps: OAuthRouteDependencies): Pick<OperationHandlers, 'startOAuthSignIn' | 'completeOAuthSignIn' | 'listMyConnections' | 'linkMyConnection' | 'unlinkMyConnection'> {
  const login = deps.pathTo('getLoginPage');
  const home = deps.pathTo('getHomePage');
  const landings: Landings = { failed: `${login}?error=oauth_failed`, cancelled: `${login}?cancelled=true`, linkFailed: `${home}?link=failed`, linkCancelled: `${home}?link=cancelled`, home };

  const start: Handler<'startOAuthSignIn'> = async (req, res) => {
    const provider = findProvider(deps.providers, req.params.provider);
    res.set(NO_STORE);
    try {
      const started = await startSignIn(provider, deps.sealer, requireReturnTo(req.query.returnTo, deps.publicUrl));
      res.cookie(STATE_COOKIE, started.state, CHECK_COOKIE).cookie(FLOW_COOKIE, started.flowCookie, CHECK_COOKIE);
      redirect(res, started.authorizationUrl);
    } catch (error) {
      report(deps.telemetry, req, provider, 'start', error);
      redirect(res, landings.failed);
    }
  };

  const callback: Handler<'completeOAuthSignIn'> = async (req, res) => {
    // Whatever happens next, the check values are spent.
    res.set(NO_STORE).clearCookie(STATE_COOKIE, CHECK_COOKIE_BASE).clearCookie(FLOW_COOKIE, CHECK_COOKIE_BASE);
    const provider = findProvider(deps.providers, req.params.provider);
    let linking = false;
    try {
      const cookies = parseCookies(req.headers.cookie ?? '');
      const pending = await openCallback(provider, deps.sealer, { query: req.query as Record<string, unknown>, stateCookie: cookies[STATE_COOKIE], flowCookie: cookies[FLOW_COOKIE] });
      linking = pending.linkUserId !== undefined;
      const done = await completeSignIn(provider, deps, pending, req.query as Record<string, unknown>, async () =>
        (await sessionOfCookie(deps.sessions, deps.cookieName, req.headers.cookie))?.user.id,
      );
      if (!linking) {
        const session = await deps.sessions.begin(done.user, 'provider');
        res.cookie(deps.cookieName, session.access_token, { ...SESSION_COOKIE_OPTIONS, maxAge: session.expires_in * 1000 });
      }
      const message = linking ? 'third-party account linked' : 'third-party sign-in succeeded';
      deps.logger.info({ reqId: req.id, provider: provider.config.id, userId: done.user.id, outcome: done.outcome }, message);
      redirect(res, checkReturnTo(done.returnTo, deps.publicUrl) ?? landings.home);
    } catch (error) {
      const failure = report(deps.telemetry, req, provider, 'callback', error);
      redirect(res, linking ? linkFailedLocation(landings, failure.reason) : signInFailedLocation(landings, failure.reason));
    }
  };

  const connections: Handler<'listMyConnections'> = async (req, res) => {
    const userId = userOf(req).user.id;
    const data = await listConnections(deps.store, userId, deps.providers.list(), Date.now(), REFRESH_LEAD_MS);
    sendRead(res, envelope(data), { etag: contentTag(data) });
  };

  const link: Handler<'linkMyConnection'> = async (req, res) => {
    const userId = userOf(req).user.id;
    const provider = findProvider(deps.providers, req.params.provider);
    res.set(NO_STORE).vary('Accept');
    let location: string;
    try {
      const started = await startSignIn(provider, deps.sealer, requireReturnTo(req.query.returnTo, deps.publicUrl), userId);
      res.cookie(STATE_COOKIE, started.state, CHECK_COOKIE).cookie(FLOW_COOKIE, started.flowCookie, CHECK_COOKIE);
      location = started.authorizationUrl;
    } catch (error) {
      location = linkFailedLocation(landings, report(deps.telemetry, req, provider, 'start', error).reason);
    }
    // A script cannot follow a redirect into the provider's login page: it is told where to send the browser.
    if (req.accepts(['text/html', 'application/json']) === 'application/json') res.status(200).json(envelope({ location }));
    else res.status(303).location(location).end();
  };

  const unlink: Handler<'unlinkMyConnection'> = async (req, res) => {
    // Not looked up among the configured providers: a link to a provider since removed can still go.
    await unlinkIdentity(deps.store, userOf(req).user.id, req.params.provider);
    res.status(204).end();
  };

  return { startOAuthSignIn: start, completeOAuthSignIn: callback, listMyConnections: connections, linkMyConnection: link, unlinkMyConnection: unlink };
}

/** Reasons the person can act on are named to the login page; the rest stay in the logs. */
function signInFailedLocation(landings: Landings, reason: SignInFailureReason): string {
  if (reason === 'access_denied') return landings.cancelled;
  return PERSON_REASONS.has(reason) ? `${landings.failed}&reason=${reason}` : landings.failed;
}

/** A link is started by a signed-in person: its outcome is told on the home page. */
function linkFailedLocation(landings: Landings, reason: SignInFailureReason): string {
  return reason === 'access_denied' ? landings.linkCancelled : `${landings.linkFailed}&reason=${reason}`;
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
