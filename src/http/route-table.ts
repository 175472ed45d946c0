import type { RequestHandler } from 'express';
import { methodNotAllowed, routeNotFound, schemaViolation } from '../errors';
import type { ApiDocument } from './openapi';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OperationObject {
  operationId?: string;
  requestBody?: { $ref?: string; content?: Record<string, unknown> };
  security?: Array<Record<string, string[]>>;
  parameters?: unknown[];
  [extension: `x-${string}`]: unknown;
}

/** One path of api.yaml, compiled once. */
export interface Route {
  /** The path as api.yaml writes it: `/agents/{agent_id}`. */
  template: string;
  operations: ReadonlyMap<string, CompiledOperation>;
  /** The `Allow` header: the declared methods, HEAD wherever GET is, and OPTIONS. */
  allow: string;
  pattern: RegExp;
  parameterNames: readonly string[];
}

/** An operation and what the route table learned of it from api.yaml once, at start. */
export interface CompiledOperation {
  operation: OperationObject;
  /**
   * Query keys whose value is a number (`limit`, `filter[priority][gt]`). ajv, as the validator
   * configures it (strictNumbers with coercion), lets `Infinity` or a numeral beyond double range
   * such as `1e309` through as Infinity, past minimum, maximum and format (ajv issue 2212, fix
   * proposed in ajv pull request 2661): these are refused first.
   */
  numericQuery: ReadonlySet<string>;
  /** The media types of its request body (none: the operation reads no body). */
  bodyTypes?: ReadonlySet<string>;
}

/** What the route table found for a request: its route, its operation and its decoded path parameters. */
export interface MatchedRoute extends CompiledOperation {
  route: Route;
  params: Record<string, string>;
}

declare module 'express-serve-static-core' {
  interface Request {
    matched?: MatchedRoute;
  }
}

/** The app setting under which buildApp leaves its route table (the HTTP server answers with it too). */
export const ROUTE_TABLE = 'route table';

export interface RouteTable {
  routes: readonly Route[];
  find(path: string): { route: Route; values: string[] } | undefined;
}

/**
 * api.yaml's paths as exact, case-sensitive matchers. A template's parameter is one non-empty
 * segment; literal segments win over parameters, so `/api/v1/me` is never a user id.
 */
export function compileRouteTable(document: ApiDocument): RouteTable {
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown>>;
  const routes: Route[] = Object.entries(paths).map(([template, item]) => {
    const operations = new Map<string, CompiledOperation>();
    const shared = (item.parameters ?? []) as unknown[];
    for (const method of METHODS) {
      const operation = item[method] as OperationObject | undefined;
      if (operation && typeof operation === 'object') {
        const parameters = [...shared, ...(operation.parameters ?? [])];
        const body = operation.requestBody && resolve(document, operation.requestBody);
        operations.set(method.toUpperCase(), {
          operation,
          numericQuery: numericQueryKeys(document, parameters),
          bodyTypes: body ? new Set(Object.keys(body.content ?? {}).map((type) => type.toLowerCase())) : undefined,
        });
      }
    }
    const allow = [...operations.keys()];
    if (operations.has('GET') && !operations.has('HEAD')) allow.push('HEAD');
    if (!operations.has('OPTIONS')) allow.push('OPTIONS');
    const parameterNames: string[] = [];
    const source = template.split('/').map((segment) => {
      const parameter = /^\{([^{}]+)\}$/.exec(segment);
      if (!parameter) return escapeRegExp(segment);
      parameterNames.push(parameter[1] as string);
      return '([^/]+)';
    });
    return { template, operations, allow: allow.join(', '), pattern: new RegExp(`^${source.join('/')}$`), parameterNames };
  });
  const literalSegments = (route: Route) => route.template.split('/').filter((segment) => !segment.startsWith('{')).length;
  routes.sort((a, b) => literalSegments(b) - literalSegments(a));
  return {
    routes,
    find(path) {
      for (const route of routes) {
        const match = route.pattern.exec(path);
        if (match) return { route, values: match.slice(1) };
      }
      return undefined;
    },
  };
}

/**
 * The spec is the routing table: a request whose path api.yaml does not declare is 404, a method
 * it does not declare for that path is 405 with `Allow`, both in the surface's error shape and
 * before anything else runs. HEAD is served as GET (Node then sends the headers without a body),
 * OPTIONS names the methods and is left to CORS.
 */
export function routeExactly(table: RouteTable): RequestHandler {
  return (req, res, next) => {
    // An absolute-form target is rewritten by the HTTP server (http-server.ts); `*` and the like name no path.
    const found = req.url.startsWith('/') ? table.find(req.path) : undefined;
    if (!found) return next(routeNotFound());
    const { route, values } = found;
    if (req.method === 'OPTIONS' && !route.operations.has('OPTIONS')) {
      res.set('Allow', route.allow);
      return next();
    }
    if (req.method === 'HEAD' && !route.operations.has('HEAD') && route.operations.has('GET')) req.method = 'GET';
    const compiled = route.operations.get(req.method);
    if (!compiled) {
      return next(methodNotAllowed(req.method, route.template, route.allow));
    }
    const params: Record<string, string> = {};
    for (const [index, name] of route.parameterNames.entries()) {
      const value = decodeSegment(values[index] as string);
      if (value === undefined) return next(schemaViolation('Request validation failed', [{ field: name, in: 'path', message: 'is not valid percent-encoded UTF-8' }]));
      params[name] = value;
    }
    req.matched = { ...compiled, route, params };
    next();
  };
}

type Schema = { $ref?: string; type?: string | string[]; properties?: Record<string, Schema>; allOf?: Schema[] };
type Parameter = { $ref?: string; name?: string; in?: string; schema?: Schema };

/** OPTIONS that CORS did not answer (no preflight of an allowed origin): 204 with the `Allow` set above. */
export const answerOptions: RequestHandler = (req, res, next) => {
  if (req.method !== 'OPTIONS') return next();
  res.status(204).end();
};

function numericQueryKeys(document: ApiDocument, parameters: unknown[]): Set<string> {
  const keys = new Set<string>();
  for (const raw of parameters) {
    const parameter = resolve<Parameter>(document, raw as Parameter);
    if (parameter.in !== 'query' || !parameter.name || !parameter.schema) continue;
    const schema = resolve<Schema>(document, parameter.schema);
    if (isNumeric(document, schema)) keys.add(parameter.name);
    for (const [field, fieldSchema] of Object.entries(schema.properties ?? {})) {
      for (const [op, opSchema] of Object.entries(resolve<Schema>(document, fieldSchema).properties ?? {})) {
        if (isNumeric(document, opSchema)) keys.add(`${parameter.name}[${field}][${op}]`);
      }
    }
  }
  return keys;
}

function isNumeric(document: ApiDocument, raw: Schema): boolean {
  const schema = resolve<Schema>(document, raw);
  const types = [schema.type ?? []].flat();
  return types.includes('integer') || types.includes('number') || (schema.allOf ?? []).some((part) => isNumeric(document, part));
}

/** Follows a local `$ref` (`#/components/...`) to what it names. */
function resolve<T extends { $ref?: string }>(document: ApiDocument, node: T): T {
  let current: T = node;
  for (let hops = 0; current.$ref !== undefined && hops < 10; hops++) {
    current = current.$ref
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>((at, part) => (at as Record<string, unknown>)[part], document) as T;
  }
  return current;
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
