import type { Request } from 'express';

const FIXED_ROUTES = ['/metrics', '/openapi.json', '/docs', '/redoc', '/login', '/assets'];

/** A low-cardinality name for the route that served `req`: the path template, never the raw URL. */
export function routeLabel(req: Request): string {
  const matched = (req as Request & { openapi?: { openApiRoute?: string } }).openapi?.openApiRoute;
  if (matched) return matched;
  const path = req.originalUrl.split('?')[0] ?? '';
  if (path === '/') return '/';
  return FIXED_ROUTES.find((route) => path === route || path.startsWith(`${route}/`)) ?? 'unmatched';
}
