import type { Request } from 'express';

/** A low-cardinality name for the route that served `req`: api.yaml's path template, never the raw URL. */
export function routeLabel(req: Request): string {
  return req.matched?.route.template ?? 'unmatched';
}

const METHOD_LABELS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The method as a metric label: the methods the service serves, and `OTHER` for the rest. Node's
 * parser lets some thirty WebDAV and other methods through; each would otherwise be a new series.
 */
export function methodLabel(method: string): string {
  return METHOD_LABELS.has(method) ? method : 'OTHER';
}
