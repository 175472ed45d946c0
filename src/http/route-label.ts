import type { Request } from 'express';

/** A low-cardinality name for the route that served `req`: api.yaml's path template, never the raw URL. */
export function routeLabel(req: Request): string {
  return req.matched?.route.template ?? 'unmatched';
}
