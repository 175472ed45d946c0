import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { routeNotFound } from '../errors';
import { matchRoute, type Route, type RouteTable } from '../contract/route-table';
import { headersOf, setHeaders, type SecurityHeaders } from './security-headers';

/** One link of an operation's chain: Express's middleware signature, sync or async. */
export type Step = (req: Request, res: Response, next: NextFunction) => unknown;

export interface DispatchOptions {
  table: RouteTable;
  /** Each operation's chain by operationId (security, request checks, the handler), built once at start. */
  chains: ReadonlyMap<string, readonly Step[]>;
  headers: SecurityHeaders;
  /** What every request gets first, matched or not: its id and its log line and metrics. */
  begin: (req: Request, res: Response) => void;
  /** CORS: answers the preflights of allowed origins, decorates the rest. */
  cors: RequestHandler;
  /** Headers of a matched request that do not depend on its operation (`api-version`). */
  negotiate: (req: Request, res: Response) => void;
}

/**
 * The one middleware of the app: api.yaml's route table finds the operation (404 and 405 before
 * anything else runs), and the operation's own chain answers it. Express keeps the request and
 * response objects and the error handler; it walks no route list.
 */
export function createDispatcher(options: DispatchOptions): RequestHandler {
  const { table, chains, headers, begin, cors, negotiate } = options;
  for (const operationId of table.operations.keys()) {
    if (!chains.has(operationId)) throw new Error(`no chain was built for ${operationId}`);
  }
  return function dispatch(req, res, next) {
    begin(req, res);
    let match;
    try {
      match = matchRoute(table, req);
    } catch (error) {
      setHeaders(res, headers.other);
      return next(error);
    }
    if (match.kind === 'options') return answerOptions(match.route, req, res, next);
    const { matched } = match;
    req.matched = matched;
    req.params = matched.params;
    setHeaders(res, headersOf(headers, matched));
    const chain = chains.get(matched.operationId) as readonly Step[];
    cors(req, res, (error?: unknown) => {
      if (error) return next(error);
      negotiate(req, res);
      runChain(chain, req, res, next);
    });
  };

  /** OPTIONS that CORS does not answer (no preflight of an allowed origin): 204 with `Allow`. */
  function answerOptions(route: Route, req: Request, res: Response, next: NextFunction): void {
    setHeaders(res, headers.other);
    res.setHeader('Allow', route.allow);
    cors(req, res, (error?: unknown) => (error ? next(error) : void res.status(204).end()));
  }
}

/**
 * Runs the steps in order, as Express would: each calls `next` to go on or `next(error)` to fail;
 * a thrown error or a rejected promise fails too. A handler that passes on (a static file that
 * does not exist) ends as 404.
 */
function runChain(steps: readonly Step[], req: Request, res: Response, done: NextFunction): void {
  let index = 0;
  const next: NextFunction = (error?: unknown) => {
    if (error) return done(error);
    const step = steps[index++];
    if (step === undefined) return done(routeNotFound());
    try {
      const result = step(req, res, next);
      if (result instanceof Promise) result.catch(done);
    } catch (thrown) {
      done(thrown);
    }
  };
  next();
}

type Handle = (req: Request, res: Response, callback?: NextFunction) => void;

/**
 * The app's entry, for Node's server and for a test's client alike: the dispatcher, then the error
 * handler, as Express's router would run its two layers, without the router. Express's own
 * `app.handle` makes a final handler for every request, and its router two closures (about 3 KB a
 * read), to run two layers whose order never changes. What the two layers read of Express's
 * bookkeeping is set here: the request and response linked, their prototypes, `originalUrl`.
 */
export function handleThroughDispatcher(app: Express, dispatch: RequestHandler, handleError: ErrorRequestHandler, onUnhandled: (error: unknown, req: Request) => void): void {
  const { request, response } = app;
  /**
   * The error handler answers every failure. Should it fail itself, a mounted app's caller gets
   * the failure; the service's own entry cuts the connection (the client sees a failure) and
   * reports it.
   */
  const answerFailure = (error: unknown, req: Request, res: Response, callback: NextFunction | undefined): void => {
    const giveUp = (unanswered: unknown) => {
      if (callback) return callback(unanswered);
      onUnhandled(unanswered, req);
      req.socket.destroy();
    };
    try {
      handleError(error, req, res, (passed?: unknown) => giveUp(passed ?? error));
    } catch (thrown) {
      giveUp(thrown);
    }
  };
  const handle: Handle = (req, res, callback) => {
    req.res = res;
    res.req = req;
    // Free when Node made them with these prototypes (express-message-classes.ts); a mounted app's or a test's are set here.
    if (Object.getPrototypeOf(req) !== request) Object.setPrototypeOf(req, request);
    if (Object.getPrototypeOf(res) !== response) Object.setPrototypeOf(res, response);
    req.originalUrl ??= req.url;
    try {
      dispatch(req, res, (error?: unknown) => answerFailure(error ?? routeNotFound(), req, res, callback));
    } catch (thrown) {
      answerFailure(thrown, req, res, callback);
    }
  };
  (app as unknown as { handle: Handle }).handle = handle;
}
