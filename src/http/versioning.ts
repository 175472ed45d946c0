import type { Request, Response } from 'express';
import type { ApiDocument } from '../contract/openapi';

/**
 * The `api-version` request header: api.yaml's `ApiVersion` parameter lists the versions and the
 * default, and every operation that declares it has its value checked by the request validator
 * (a schema violation of that operation: 422 on the root surface, 400 under /api). Here the
 * version that applies is echoed; pages and documents that do not declare the header ignore it.
 */
export function negotiateApiVersion(document: ApiDocument): (req: Request, res: Response) => void {
  const schema = (document.components as { parameters?: Record<string, { schema?: { enum?: string[]; default?: string } }> } | undefined)
    ?.parameters?.ApiVersion?.schema;
  const supported = new Set(schema?.enum ?? []);
  const fallback = schema?.default;
  if (!fallback || !supported.has(fallback)) throw new Error('api.yaml: components.parameters.ApiVersion needs an enum that holds its default');
  return (req, res) => {
    const header = req.headers['api-version'];
    const asked = (typeof header === 'string' ? header.trim() : '') || fallback;
    if (supported.has(asked)) res.setHeader('api-version', asked);
  };
}

type Operation = { deprecated?: boolean; [extension: `x-${string}`]: unknown };

/**
 * The headers a deprecated operation answers with: `Deprecation: true`, and `Sunset` when it
 * carries an `x-sunset` date; none for the others. Dates are checked once, when the app is built.
 */
export function deprecationHeadersOf(operation: Operation, name: string): ReadonlyArray<readonly [string, string]> | undefined {
  if (!operation.deprecated) return undefined;
  const sunset = operation['x-sunset'];
  const date = sunset === undefined ? undefined : new Date(String(sunset));
  if (date && (typeof sunset !== 'string' || Number.isNaN(date.getTime()))) throw new Error(`api.yaml: ${name} has an x-sunset that is not a date: ${sunset}`);
  return date ? [['Deprecation', 'true'], ['Sunset', date.toUTCString()]] : [['Deprecation', 'true']];
}
