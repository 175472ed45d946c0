import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import { AppError } from '../../src/errors';
import { handleThroughDispatcher } from '../../src/http/dispatch';

/** An Express app whose entry is handleThroughDispatcher, served by a plain Node server (no Express classes). */
function serve(dispatch: RequestHandler, handleError: ErrorRequestHandler): { url: () => string; unhandled: Array<{ error: unknown; url: string }>; close: () => Promise<void>; server: Server } {
  const app = express();
  const unhandled: Array<{ error: unknown; url: string }> = [];
  handleThroughDispatcher(app, dispatch, handleError, (error, req: Request) => unhandled.push({ error, url: req.originalUrl }));
  const server = createServer(app);
  server.listen(0, '127.0.0.1');
  return {
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    unhandled,
    server,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const answerWithError: ErrorRequestHandler = (err, _req, res, _next) => {
  res.status(err instanceof AppError && err.code === 'not_found' ? 404 : 500).json({ error: err instanceof Error ? err.message : String(err) });
};

describe("the app's entry runs the dispatcher, then the error handler, without Express's router", () => {
  let app: ReturnType<typeof serve> | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });
  const listening = async () => new Promise<void>((resolve) => (app?.server.listening ? resolve() : app?.server.once('listening', () => resolve())));

  it("when the dispatcher answers, then the answer is the client's, with Express's request and response methods and the target as originalUrl", async () => {
    app = serve((req, res) => void res.status(200).set('X-Seen', req.originalUrl).json({ path: req.path, method: req.get('x-probe') }), answerWithError);
    await listening();
    const res = await fetch(`${app.url()}/some/path?x=1`, { headers: { 'X-Probe': 'yes' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-seen')).toBe('/some/path?x=1');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({ path: '/some/path', method: 'yes' });
  });

  it('when the dispatcher throws, then the error handler answers', async () => {
    app = serve(() => {
      throw new Error('thrown in dispatch');
    }, answerWithError);
    await listening();
    const res = await fetch(`${app.url()}/`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'thrown in dispatch' });
    expect(app.unhandled).toEqual([]);
  });

  it('when the dispatcher passes a failure on, then the error handler answers it', async () => {
    app = serve((_req, _res, next) => next(new Error('passed on')), answerWithError);
    await listening();
    const res = await fetch(`${app.url()}/`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'passed on' });
  });

  it('when the dispatcher passes on without a failure, then the error handler answers 404', async () => {
    app = serve((_req, _res, next) => next(), answerWithError);
    await listening();
    const res = await fetch(`${app.url()}/nothing`);
    expect(res.status).toBe(404);
  });

  it('when the error handler fails itself, then the connection is cut and the failure is reported with the request', async () => {
    app = serve(
      (_req, _res, next) => next(new Error('first')),
      () => {
        throw new Error('the handler broke');
      },
    );
    await listening();
    await expect(fetch(`${app.url()}/broken`)).rejects.toThrow();
    expect(app.unhandled).toHaveLength(1);
    expect((app.unhandled[0]?.error as Error).message).toBe('the handler broke');
    expect(app.unhandled[0]?.url).toBe('/broken');
  });

  it('when the app is mounted as middleware, then what its error handler passes on goes to the caller', async () => {
    const inner = express();
    handleThroughDispatcher(inner, (_req, _res, next) => next(new Error('inner failure')), (err, _req, _res, next) => next(err), () => undefined);
    const outer = express();
    outer.use(inner);
    outer.use(((err, _req, res, _next) => void res.status(502).json({ from: 'outer', error: (err as Error).message })) as ErrorRequestHandler);
    const server = createServer(outer).listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({ from: 'outer', error: 'inner failure' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
