import type { RequestHandler } from 'express';
import type { ApiDocument } from './openapi';

/**
 * The `api-version` request header: api.yaml's `ApiVersion` parameter lists the versions and the
 * default, and every operation that declares it has its value checked by the request validator
 * (a schema violation of that operation: 422 on the root surface, 400 under /api). Here the
 * version that applies is echoed; pages and documents that do not declare the header ignore it.
 */
export function negotiateApiVersion(document: ApiDocument): RequestHandler {
  const schema = (document.components as { parameters?: Record<string, { schema?: { enum?: string[]; default?: string } }> } | undefined)
    ?.parameters?.ApiVersion?.schema;
  const supported = schema?.enum ?? [];
  const fallback = schema?.default;
  if (!fallback || !supported.includes(fallback)) throw new Error('api.yaml: components.parameters.ApiVersion needs an enum that holds its default');
  return (req, res, next) => {
    const asked = req.get('api-version')?.trim() || fallback;
    if (supported.includes(asked)) res.set('api-version', asked);
    next();
  };
}

type Operation = { operationId?: string; deprecated?: boolean; 'x-sunset'?: string };

/**
 * Operations marked `deprecated: true` in api.yaml answer `Deprecation: true`, and `Sunset` when
 * they carry an `x-sunset` date. Dates are checked once, when the app is built.
 */
export function announceDeprecations(document: ApiDocument): RequestHandler {
  const sunsets = new Map<string, string | undefined>();
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation !== 'object' || !operation.deprecated) continue;
      const sunset = operation['x-sunset'];
      const date = sunset === undefined ? undefined : new Date(sunset);
      if (date && Number.isNaN(date.getTime())) throw new Error(`api.yaml: ${method.toUpperCase()} ${path} has an x-sunset that is not a date: ${sunset}`);
      sunsets.set(operationKey(method, path), date?.toUTCString());
    }
  }
  return (req, res, next) => {
    const matched = req.matched?.route.template;
    const key = matched === undefined ? undefined : operationKey(req.method, matched);
    if (key !== undefined && sunsets.has(key)) {
      res.set('Deprecation', 'true');
      const sunset = sunsets.get(key);
      if (sunset) res.set('Sunset', sunset);
    }
    next();
  };
}

const operationKey = (method: string, path: string): string => `${method.toLowerCase()} ${path}`;
