import $RefParser from '@apidevtools/json-schema-ref-parser';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { loadApiDocument, API_DOCUMENT_PATH, type ApiDocument } from '../../../src/contract/openapi';

export type FailureCategory = '5xx' | 'contract' | 'shape';
export type Surface = 'root' | 'api' | 'oauth';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Schema = Record<string, unknown>;
type MediaType = { schema?: Schema };
export type HeaderObject = { required?: boolean; schema?: Schema };
export type ResponseObject = { description?: string; content?: Record<string, MediaType>; headers?: Record<string, HeaderObject> };
export type ParameterObject = { name: string; in: 'query' | 'path' | 'header' | 'cookie'; required?: boolean; style?: string; explode?: boolean; schema?: Schema };
export type OperationObject = {
  operationId?: string;
  description?: string;
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content?: Record<string, MediaType> };
  responses?: Record<string, ResponseObject>;
  security?: Array<Record<string, string[]>>;
};
type PathItem = { parameters?: ParameterObject[] } & Partial<Record<(typeof HTTP_METHODS)[number], OperationObject>>;

export interface Operation {
  method: string;
  template: string;
  operation: OperationObject;
  /** Path-level and operation-level parameters, operation-level winning. */
  parameters: ParameterObject[];
}

export interface ObservedResponse {
  method: string;
  /** The request target as sent: origin-form `/a/b?x` or absolute-form `http://h/a/b?x`. */
  target: string;
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: Buffer;
}

export type Verdict =
  | { ok: true; template: string }
  | { ok: false; category: FailureCategory; template: string; reason: string; errors: string[]; detail?: string };

export interface Contract {
  document: Record<string, unknown>;
  operations: Operation[];
  schemas: Record<string, Schema>;
  matchPath(path: string): { template: string; params: Record<string, string> } | undefined;
  check(response: ObservedResponse): Verdict;
}

/** The path of a request target, without query, for either request-target form. */
export function pathOfTarget(target: string): string {
  let rest = target;
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(rest);
  if (absolute) rest = rest.slice(absolute[0].length) || '/';
  const end = rest.search(/[?#]/);
  return end < 0 ? rest : rest.slice(0, end);
}

export function surfaceOf(path: string): Surface {
  if (path === '/token') return 'oauth';
  return path === '/api' || path.startsWith('/api/') ? 'api' : 'root';
}

const SURFACE_SCHEMA: Record<Surface, string> = { root: 'Error', api: 'ApiError', oauth: 'OAuthError' };

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function mediaTypeOf(header: string | undefined): string | undefined {
  return header?.split(';', 1)[0]?.trim().toLowerCase() || undefined;
}

function formatErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).slice(0, 4).map((error) => {
    const extra = error.keyword === 'additionalProperties' ? ` (${String((error.params as { additionalProperty?: string }).additionalProperty)})` : error.keyword === 'enum' ? ` ${JSON.stringify((error.params as { allowedValues?: unknown }).allowedValues)}` : '';
    return `${error.instancePath || '/'} ${error.message ?? error.keyword}${extra}`;
  });
}

export interface ContractOptions {
  /**
   * Response headers api.yaml declares without `required` that this target always sends on the
   * successes, redirects and 429s that declare them: `RateLimit` and `RateLimit-Policy` when the
   * rate limiter counts in process (they are missing only while a Redis counter store is
   * unreachable). An error answer declares them too, but may come before anything was counted (Node's
   * parser, a path that cannot be decoded): there they are optional, as declared.
   */
  alwaysSent?: readonly string[];
}

/** Loads api.yaml (or another file, or a document already parsed), dereferences it and compiles one validator per response schema, lazily. */
export async function loadContract(source: string | ApiDocument = API_DOCUMENT_PATH, options: ContractOptions = {}): Promise<Contract> {
  const alwaysSent = new Set((options.alwaysSent ?? []).map((name) => name.toLowerCase()));
  const raw = typeof source === 'string' ? loadApiDocument(source) : source;
  const document = (await $RefParser.dereference(structuredClone(raw) as never, { dereference: { circular: 'ignore' } })) as unknown as Record<string, unknown>;
  const components = (document.components ?? {}) as { schemas?: Record<string, Schema>; responses?: Record<string, ResponseObject> };
  const schemas = components.schemas ?? {};
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('password', true);

  const compiled = new Map<object, ValidateFunction>();
  const validatorOf = (schema: Schema): ValidateFunction => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(schema);
      compiled.set(schema, validate);
    }
    return validate;
  };

  const paths = (document.paths ?? {}) as Record<string, PathItem>;
  const operations: Operation[] = [];
  const templates: Array<{ template: string; segments: string[]; params: number; item: PathItem }> = [];
  for (const [template, item] of Object.entries(paths)) {
    const segments = template.split('/');
    templates.push({ template, segments, params: segments.filter((segment) => segment.startsWith('{')).length, item });
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const byKey = new Map<string, ParameterObject>();
      for (const parameter of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) byKey.set(`${parameter.in}:${parameter.name}`, parameter);
      operations.push({ method: method.toUpperCase(), template, operation, parameters: [...byKey.values()] });
    }
  }
  // Literal segments win over templated ones, as every router does.
  templates.sort((a, b) => a.params - b.params);

  const matchPath: Contract['matchPath'] = (path) => {
    const segments = path.split('/');
    for (const candidate of templates) {
      if (candidate.segments.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let matched = true;
      for (let i = 0; i < segments.length && matched; i++) {
        const want = candidate.segments[i] as string;
        const got = segments[i] as string;
        if (want.startsWith('{') && want.endsWith('}')) {
          if (got === '') matched = false;
          else params[want.slice(1, -1)] = decodeSegment(got);
        } else if (decodeSegment(got) !== want) matched = false;
      }
      if (matched) return { template: candidate.template, params };
    }
    return undefined;
  };

  const surfaceResponse = (surface: Surface, names: Partial<Record<Surface, string>>): ResponseObject => {
    const name = names[surface];
    const declared = name ? components.responses?.[name] : undefined;
    if (declared) return declared;
    return { content: { 'application/json': { schema: schemas[SURFACE_SCHEMA[surface]] as Schema } } };
  };
  const notFound = (surface: Surface) => surfaceResponse(surface, { root: 'NotFound', api: 'ApiNotFound' });
  const methodNotAllowed = (surface: Surface) => surfaceResponse(surface, { root: 'MethodNotAllowed', api: 'ApiMethodNotAllowed' });
  const rateLimited = (surface: Surface) => surfaceResponse(surface, { root: 'RateLimited', api: 'ApiRateLimited' });

  const fail = (category: FailureCategory, template: string, reason: string, errors: string[] = [], detail?: string): Verdict => ({ ok: false, category, template, reason, errors, detail });
  const snippet = (body: Buffer) => body.subarray(0, 300).toString('utf8');

  /** Every header the response declares `required` (or the target always sends) must be there. */
  const missingHeaders = (res: ObservedResponse, declared: ResponseObject): string[] =>
    Object.entries(declared.headers ?? {})
      .filter(([name, header]) => (header.required === true || (alwaysSent.has(name.toLowerCase()) && (res.status < 400 || res.status === 429))) && res.headers[name.toLowerCase()] === undefined)
      .map(([name]) => name);

  /** The headers and the body against one declared response. */
  const checkBody = (res: ObservedResponse, template: string, declared: ResponseObject, bodyless: boolean): Verdict => {
    const missing = missingHeaders(res, declared);
    if (missing.length > 0) return fail('contract', template, `${res.status} without its declared header ${missing.join(', ')}`);
    const isError = res.status >= 400;
    const content = declared.content ?? {};
    const types = Object.keys(content);
    if (bodyless || res.status === 204 || res.status === 304 || types.length === 0) {
      return res.body.length === 0 ? { ok: true, template } : fail('contract', template, `${res.status} must have an empty body`, [], snippet(res.body));
    }
    const mediaType = mediaTypeOf(res.headers['content-type']);
    if (!mediaType || !types.includes(mediaType)) {
      return fail('contract', template, `content-type ${mediaType ?? '(none)'} is not declared (${types.join(', ')})`, [], snippet(res.body));
    }
    const schema = content[mediaType]?.schema;
    if (!schema) return { ok: true, template };
    let value: unknown;
    if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
      try {
        value = JSON.parse(res.body.toString('utf8'));
      } catch {
        return fail(isError ? 'shape' : 'contract', template, 'body is not JSON', [], snippet(res.body));
      }
    } else {
      value = res.body.toString('utf8');
    }
    const validate = validatorOf(schema);
    if (validate(value)) return { ok: true, template };
    return fail(isError ? 'shape' : 'contract', template, `${res.status} body does not match its schema`, formatErrors(validate.errors), snippet(res.body));
  };

  const check: Contract['check'] = (res) => {
    // Methods are case-sensitive (RFC 9110 section 9.1): `get` is not GET.
    const method = res.method;
    const path = pathOfTarget(res.target);
    const surface = surfaceOf(path);
    const matched = matchPath(path);
    const template = matched?.template ?? `(unmatched ${surface})`;
    const item = matched ? paths[matched.template] : undefined;
    const bodyless = method === 'HEAD';
    const own = method === method.toUpperCase() ? item?.[method.toLowerCase() as (typeof HTTP_METHODS)[number]] : undefined;
    const operation = own ?? (method === 'HEAD' ? item?.get : undefined);

    if (res.status === 429) {
      return checkBody(res, template, rateLimited(surface), bodyless);
    }
    if (res.status >= 500 || res.status < 100) {
      if (!(res.status === 503 && operation?.responses?.['503'])) return fail('5xx', template, res.status === 0 ? `no response: ${res.body.toString('utf8')}` : `answered ${res.status}`, [], snippet(res.body));
    }
    if (!item) {
      if (res.status !== 404) return fail('contract', template, `unknown path answered ${res.status}, not 404`, [], snippet(res.body));
      return checkBody(res, template, notFound(surface), bodyless);
    }
    if (!operation && method === 'OPTIONS') {
      if (res.status !== 204) return fail('contract', template, `OPTIONS answered ${res.status}, not 204`, [], snippet(res.body));
      if (!res.headers.allow) return fail('contract', template, 'OPTIONS without an Allow header');
      return checkBody(res, template, {}, true);
    }
    if (!operation) {
      if (res.status !== 405) return fail('contract', template, `${method} without an operation answered ${res.status}, not 405`, [], snippet(res.body));
      if (!res.headers.allow) return fail('contract', template, '405 without an Allow header');
      return checkBody(res, template, methodNotAllowed(surface), bodyless);
    }
    const responses = operation.responses ?? {};
    const declared = responses[String(res.status)] ?? responses.default;
    if (!declared) return fail('contract', template, `status ${res.status} is not declared (${Object.keys(responses).join(' ')})`, [], snippet(res.body));
    return checkBody(res, template, declared, bodyless);
  };

  return { document, operations, schemas, matchPath, check };
}
