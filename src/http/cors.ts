import type { IncomingMessage } from 'node:http';
import cors from 'cors';
import type { RequestHandler, Response } from 'express';

/**
 * CORS as the specification describes it: an allow-list of origins, requests without an Origin
 * allowed, credentials allowed, preflights cached for a day. A disallowed origin simply gets no
 * CORS headers: the browser then refuses the response, and the server never errs.
 */
export function allowCrossOrigin(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  const handle = cors({
    origin: (origin, callback) => callback(null, origin === undefined || allowed.has(origin)),
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Content-Type', 'Authorization', 'X-Request-ID', 'X-API-Key', 'api-version', 'If-Match', 'If-None-Match'],
    exposedHeaders: ['ETag', 'Last-Modified', 'Location', 'X-Request-ID', 'api-version', 'Deprecation', 'Sunset', 'Retry-After', 'RateLimit', 'RateLimit-Policy'],
    credentials: true,
    maxAge: 86_400,
  });
  // Most requests send no Origin (servers, scripts, same-origin GETs): cors answers all of them
  // alike, so its headers are read off it once and set as they are. Of those, only `Vary: Origin`
  // means anything there: the Access-Control-* headers speak to a browser's cross-origin request,
  // which always sends an Origin, and `Vary` keeps a cache from handing this answer to one.
  const withoutOrigin = headersWithoutOrigin(handle).filter(([name]) => !/^access-control-/i.test(name));
  return (req, res, next) => {
    if (req.headers.origin !== undefined || req.method === 'OPTIONS') return handle(req, res, next);
    for (const [name, value] of withoutOrigin) res.setHeader(name, value);
    next();
  };
}

function headersWithoutOrigin(handle: RequestHandler): Array<[string, string]> {
  const headers = new Map<string, [string, string]>();
  const recorder = {
    getHeader: (name: string) => headers.get(name.toLowerCase())?.[1],
    setHeader: (name: string, value: string | number | readonly string[]) => headers.set(name.toLowerCase(), [name, String(value)]),
  };
  let passed = false;
  handle({ method: 'GET', headers: {} } as IncomingMessage as never, recorder as unknown as Response, () => {
    passed = true;
  });
  if (!passed) throw new Error('cors did not pass a request without an Origin on synchronously');
  return [...headers.values()];
}
