import type { Request } from 'express';
import type { operations, webhooks } from '../../generated/api';
import { methodNotAllowed, routeNotFound, schemaViolation } from '../errors';
import { loadApiDocument, resolveRef as resolve, type ApiDocument } from './openapi';

/**
 * The three error shapes of api.yaml: `/token` speaks RFC 6749 (`OAuthError`), everything under
 * `/api` the conventions envelope (`ApiError`), the rest the agent service's `Error`.
 */
export type Surface = 'root' | 'api' | 'oauth';

/** The surface of a path api.yaml does not declare (a declared path's route knows its own). */
export function surfaceOfPath(path: string): Surface {
  const bare = path.split('?', 1)[0] ?? '';
  return bare === '/api' || bare.startsWith('/api/') ? 'api' : 'root';
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The operations of api.yaml's `webhooks` section: requests the service sends, not answers. */
type WebhookOperationId = 'receiveFleetEvent';
/** Fails to compile when the name above is not the operation of every webhook api.yaml declares. */
const webhooksNamed: [webhooks[keyof webhooks]['post']] extends [operations[WebhookOperationId]] ? ([operations[WebhookOperationId]] extends [webhooks[keyof webhooks]['post']] ? true : false) : false = true;
void webhooksNamed;
/** The operations the service answers: those of api.yaml's paths. */
export type OperationId = Exclude<keyof operations, WebhookOperationId>;

export interface OperationObject {
  operationId?: string;
  responses?: Record<string, { $ref?: string; content?: Record<string, { schema?: { $ref?: string } }> }>;
  requestBody?: { $ref?: string; content?: Record<string, unknown> };
  security?: Array<Record<string, string[]>>;
  parameters?: unknown[];
  deprecated?: boolean;
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
  /** The error shape its failures take, from the error schema its responses declare. */
  surface: Surface;
}

/** An operation and what the route table learned of it from api.yaml once, at start. */
export interface CompiledOperation {
  /** As api.yaml names it; compileRouteTable refuses an operation without one. */
  operationId: string;
  method: string;
  operation: OperationObject;
  /** It answers a page (`text/html`): it gets the full set of browser security headers. */
  html: boolean;
  /**
   * Query keys whose value is a number (`limit`, `filter[priority][gt]`). ajv, as the validator
   * configures it (strictNumbers with coercion), lets `Infinity` or a numeral beyond double range
   * such as `1e309` through as Infinity, past minimum, maximum and format (ajv issue 2212, fix
   * proposed in ajv pull request 2661): these are refused first.
   */
  numericQuery: ReadonlySet<string>;
  /** The media types of its request body (none: the operation reads no body). */
  bodyTypes?: ReadonlySet<string>;
  /** The request headers it declares as parameters, in lower case (`idempotency-key`). */
  headerParameters: ReadonlySet<string>;
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
  /** Every operation by its operationId. */
  operations: ReadonlyMap<string, CompiledOperation & { route: Route }>;
  /** The error shape of a path: its route's, else by prefix (`/api` speaks the conventions envelope). */
  surfaceOf(path: string): Surface;
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
        if (!operation.operationId) throw new Error(`api.yaml: ${method.toUpperCase()} ${template} has no operationId`);
        operations.set(method.toUpperCase(), {
          operationId: operation.operationId,
          method: method.toUpperCase(),
          operation,
          html: answersHtml(document, operation),
          numericQuery: numericQueryKeys(document, parameters),
          bodyTypes: body ? new Set(Object.keys(body.content ?? {}).map((type) => type.toLowerCase())) : undefined,
          headerParameters: headerParametersOf(document, parameters),
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
    const surface = errorSurface(document, operations.values()) ?? surfaceOfPath(template);
    return { template, operations, allow: allow.join(', '), pattern: new RegExp(`^${source.join('/')}$`), parameterNames, surface };
  });
  const literalSegments = (route: Route) => route.template.split('/').filter((segment) => !segment.startsWith('{')).length;
  routes.sort((a, b) => literalSegments(b) - literalSegments(a));
  const byId = new Map<string, CompiledOperation & { route: Route }>();
  for (const route of routes) {
    for (const compiled of route.operations.values()) {
      if (byId.has(compiled.operationId)) throw new Error(`api.yaml: operationId ${compiled.operationId} is used twice`);
      byId.set(compiled.operationId, { ...compiled, route });
    }
  }
  // A parameter is one whole segment, so only routes with as many segments as the path can match.
  const bySegments = new Map<number, Route[]>();
  for (const route of routes) {
    const count = segmentsOf(route.template);
    bySegments.set(count, [...(bySegments.get(count) ?? []), route]);
  }
  const find = (path: string) => {
    for (const route of bySegments.get(segmentsOf(path)) ?? []) {
      const match = route.pattern.exec(path);
      if (match) return { route, values: match.slice(1) };
    }
    return undefined;
  };
  return {
    routes,
    find,
    operations: byId,
    surfaceOf: (target) => {
      const path = target.split('?', 1)[0] ?? '';
      return (path.startsWith('/') ? find(path)?.route.surface : undefined) ?? surfaceOfPath(path);
    },
  };
}

/** What a request's target and method come to: an operation to run, or OPTIONS to answer with `Allow`. */
export type RouteMatch = { kind: 'operation'; matched: MatchedRoute } | { kind: 'options'; route: Route };

/**
 * The spec is the routing table: a request whose path api.yaml does not declare is 404, a method
 * it does not declare for that path is 405 with `Allow`, both in the surface's error shape and
 * before anything else runs. HEAD is served as GET (Node then sends the headers without a body);
 * OPTIONS is answered by CORS or with `Allow`.
 */
export function matchRoute(table: RouteTable, req: Request): RouteMatch {
  // An absolute-form target is rewritten by the HTTP server (http-server.ts); `*` and the like name no path.
  const found = req.url.startsWith('/') ? table.find(req.path) : undefined;
  if (!found) throw routeNotFound();
  const { route, values } = found;
  if (req.method === 'OPTIONS' && !route.operations.has('OPTIONS')) return { kind: 'options', route };
  if (req.method === 'HEAD' && !route.operations.has('HEAD') && route.operations.has('GET')) req.method = 'GET';
  const compiled = route.operations.get(req.method);
  if (!compiled) throw methodNotAllowed(req.method, route.template, route.allow);
  const params: Record<string, string> = {};
  for (let index = 0; index < route.parameterNames.length; index++) {
    const name = route.parameterNames[index] as string;
    const value = decodeSegment(values[index] as string);
    if (value === undefined) throw schemaViolation('Request validation failed', [{ field: name, in: 'path', message: 'is not valid percent-encoded UTF-8' }]);
    params[name] = value;
  }
  return { kind: 'operation', matched: { ...compiled, route, params } };
}

let shipped: RouteTable | undefined;

/** The route table of the api.yaml this service ships, for what is configured before an app is built. */
export function shippedRouteTable(): RouteTable {
  shipped ??= compileRouteTable(loadApiDocument());
  return shipped;
}

/** The path of an operation with its parameters filled in: links and redirects never spell a path of their own. */
export function pathOf(table: RouteTable, operationId: OperationId, params: Record<string, string> = {}): string {
  const compiled = table.operations.get(operationId);
  if (!compiled) throw new Error(`api.yaml has no operation ${operationId}`);
  return compiled.route.template.replace(/\{([^{}]+)\}/g, (_whole, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${operationId} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

const OAUTH_ERROR = '#/components/schemas/OAuthError';

/**
 * The surface is the path's (`/api` or the root) unless the route's failures are declared as RFC
 * 6749 errors (`OAuthError`): the token endpoint speaks OAuth.
 */
function errorSurface(document: ApiDocument, compiled: Iterable<{ operation: OperationObject }>): Surface | undefined {
  for (const { operation } of compiled) {
    for (const [status, raw] of Object.entries(operation.responses ?? {})) {
      if (/^[45]/.test(status) && resolve(document, raw).content?.['application/json']?.schema?.$ref === OAUTH_ERROR) return 'oauth';
    }
  }
  return undefined;
}

function answersHtml(document: ApiDocument, operation: OperationObject): boolean {
  return Object.entries(operation.responses ?? {}).some(([status, raw]) => status.startsWith('2') && resolve(document, raw).content?.['text/html'] !== undefined);
}

type Schema = { $ref?: string; type?: string | string[]; properties?: Record<string, Schema>; allOf?: Schema[] };
type Parameter = { $ref?: string; name?: string; in?: string; schema?: Schema };

function numericQueryKeys(document: ApiDocument, parameters: unknown[]): Set<string> {
  const keys = new Set<string>();
  for (const raw of parameters) {
    const parameter = resolve<Parameter>(document, raw as Parameter);
    if (parameter.in !== 'query' || !parameter.name || !parameter.schema) continue;
    // A deepObject parameter's numbers sit one or two brackets deep (`filter[priority][gte]`).
    const visit = (key: string, raw: Schema, depth: number): void => {
      const schema = resolve<Schema>(document, raw);
      if (isNumeric(document, schema)) keys.add(key);
      if (depth < 2) for (const [name, child] of Object.entries(schema.properties ?? {})) visit(`${key}[${name}]`, child, depth + 1);
    };
    visit(parameter.name, parameter.schema, 0);
  }
  return keys;
}

function headerParametersOf(document: ApiDocument, parameters: readonly unknown[]): ReadonlySet<string> {
  const names = new Set<string>();
  for (const raw of parameters) {
    const parameter = resolve<{ $ref?: string; in?: string; name?: string }>(document, raw as { $ref?: string });
    if (parameter.in === 'header' && typeof parameter.name === 'string') names.add(parameter.name.toLowerCase());
  }
  return names;
}

function isNumeric(document: ApiDocument, raw: Schema): boolean {
  const schema = resolve<Schema>(document, raw);
  const types = [schema.type ?? []].flat();
  return types.includes('integer') || types.includes('number') || (schema.allOf ?? []).some((part) => isNumeric(document, part));
}


function segmentsOf(path: string): number {
  let count = 0;
  for (let index = path.indexOf('/'); index !== -1; index = path.indexOf('/', index + 1)) count++;
  return count;
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
