import cors from 'cors';
import type { RequestHandler } from 'express';

/**
 * CORS as the specification describes it: an allow-list of origins, requests without an Origin
 * allowed, credentials allowed, preflights cached for a day. A disallowed origin simply gets no
 * CORS headers: the browser then refuses the response, and the server never errs.
 */
export function allowCrossOrigin(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  return cors({
    origin: (origin, callback) => callback(null, origin === undefined || allowed.has(origin)),
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Content-Type', 'Authorization', 'X-Request-ID', 'X-API-Key', 'api-version', 'If-Match', 'If-None-Match'],
    exposedHeaders: ['ETag', 'Last-Modified', 'Location', 'X-Request-ID', 'api-version', 'Deprecation', 'Sunset', 'Retry-After', 'RateLimit', 'RateLimit-Policy'],
    credentials: true,
    maxAge: 86_400,
  });
}
