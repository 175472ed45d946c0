import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler } from 'express';
import { AppError } from '../../src/errors';
import { handleThroughDispatcher } from '../../src/http/dispatch';

interface Listening {
  url: string;
  close: () => Promise<void>;
}

/** An app on a plain Node server (no Express classes), once it listens. */
async function listen(app: Express): Promise<Listening> {
  const server = createServer(app).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** An Express app whose entry is handleThroughDispatcher, listening; what its entry reports as unhandled is kept. */
async function serve(dispatch: RequestHandler, handleError: ErrorRequestHandler): Promise<Listening & { unhandled: Array<{ error: unknown; url: string }> }> {
  const app = express();
  const unhandled: Array<{ error: unknown; url: string }> = [];
  handleThroughDispatcher(app, dispatch, handleError, (error, req: Request) => unhandled.push({ error, url: req.originalUrl }));
  return { ...(await listen(app)), unhandled };
}

const answerWithError: ErrorRequestHandler = (err, _req, res, _next) => {
  res.status(err instanceof AppError && err.code === 'not_found' ? 404 : 500).json({ error: err instanceof Error ? err.message : String(err) });
};

describe("the app's entry runs the dispatcher, then the error handler, without Express's router", () => {
  let app: Awaited<ReturnType<typeof serve>> | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it("when the dispatcher answers, then the answer is the client's, with Express's request and response methods and the target as originalUrl", async () => {
    app = await serve((req, res) => void res.status(200).set('X-Seen', req.originalUrl).json({ path: req.path, method: req.get('x-probe') }), answerWithError);
    const res = await fetch(`${app.url}/some/path?x=1`, { headers: { 'X-Probe': 'yes' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-seen')).toBe('/some/path?x=1');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({ path: '/some/path', method: 'yes' });
  });

  it('when the dispatcher throws, then the error handler answers', async () => {
    app = await serve(() => {
      throw new Error('thrown in dispatch');
    }, answerWithError);
    const res = await fetch(`${app.url}/`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'thrown in dispatch' });
    expect(app.unhandled).toEqual([]);
  });

  it('when the dispatcher passes a failure on, then the error handler answers it', async () => {
    app = await serve((_req, _res, next) => next(new Error('passed on')), answerWithError);
    const res = await fetch(`${app.url}/`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'passed on' });
  });

  it('when the dispatcher passes on without a failure, then the error handler answers 404', async () => {
    app = await serve((_req, _res, next) => next(), answerWithError);
    const res = await fetch(`${app.url}/nothing`);
    expect(res.status).toBe(404);
  });

  it('when the error handler fails itself, then the connection is cut and the failure is reported with the request', async () => {
    app = await serve(
      (_req, _res, next) => next(new Error('first')),
      () => {
        throw new Error('the handler broke');
      },
    );
    await expect(fetch(`${app.url}/broken`)).rejects.toThrow();
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
    const outerApp = await listen(outer);
    try {
      const res = await fetch(`${outerApp.url}/`);
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({ from: 'outer', error: 'inner failure' });
    } finally {
      await outerApp.close();
    }
  });
});
