import type { Request, RequestHandler } from 'express';
import { invalidValue } from '../errors';
import type { ApiDocument } from './openapi';

/**
 * The `api-version` request header: api.yaml's `ApiVersion` parameter lists the versions and the
 * default. The applied version is echoed on the response; anything unknown is 400.
 */
export function negotiateApiVersion(document: ApiDocument): RequestHandler {
  const schema = (document.components as { parameters?: Record<string, { schema?: { enum?: string[]; default?: string } }> } | undefined)
    ?.parameters?.ApiVersion?.schema;
  const supported = schema?.enum ?? [];
  const fallback = schema?.default;
  if (!fallback || !supported.includes(fallback)) throw new Error('api.yaml: components.parameters.ApiVersion needs an enum that holds its default');
  return (req, res, next) => {
    const asked = req.get('api-version')?.trim() || fallback;
    if (!supported.includes(asked)) {
      next(
        invalidValue(`api-version ${asked.slice(0, 20)} is not supported; supported: ${supported.join(', ')}`, [
          { field: 'api-version', in: 'header', message: `must be one of ${supported.join(', ')}` },
        ]),
      );
      return;
    }
    res.set('api-version', asked);
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
    const matched = (req as Request & { openapi?: { openApiRoute?: string } }).openapi?.openApiRoute;
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
