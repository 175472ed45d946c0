import type { Express, Request, RequestHandler, Response } from 'express';
import { RequestValidator } from 'express-openapi-validator/dist/middlewares/openapi.request.validator';
import { ResponseValidator } from 'express-openapi-validator/dist/middlewares/openapi.response.validator';
import { SchemaPreprocessor } from 'express-openapi-validator/dist/middlewares/parsers/schema.preprocessor';
import { OpenApiValidator } from 'express-openapi-validator/dist/openapi.validator';
import formatsPlugin from 'ajv-formats';
import type { FormatDefinition } from 'ajv';
import type { ApiDocument } from '../contract/openapi';
import { selectBranchesByConst } from '../contract/branch-selection';
import { nestFilterParameters } from '../contract/filter-parameters';
import { memoizeBounded } from './memoize';
import type { CompiledOperation, Route } from '../contract/route-table';

/** What the validator needs to know of the matched operation (its `req.openapi`). */
interface OpenApiContext {
  expressRoute: string;
  openApiRoute: string;
  pathParams: Record<string, string>;
  schema: unknown;
  serial: number;
}

declare module 'express-serve-static-core' {
  interface Request {
    openapi?: OpenApiContext;
  }
}

/** The validation of one operation: its request check, and its response check when responses are validated. */
export interface OperationValidation {
  request: RequestHandler;
  /** Throws the validator's 500 when `body` is not what api.yaml declares for the response's status. */
  response?: (req: Request, res: Response, body: unknown) => void;
}

type ResponseValidators = Parameters<ResponseValidator['_validate']>[0]['validators'];
type ResponsesOf = { responses?: Record<string, unknown> };

/** What lookUpWithoutCompiling needs of an ajv instance. */
interface SchemaLookup {
  readonly schemas: Record<string, { schema: unknown } | undefined>;
  getSchema(ref: string): { schema: unknown } | undefined;
}

/**
 * The preprocessor looks each referenced schema up with its ajv instance's getSchema, which
 * compiles a validator for it only for the preprocessor to read back the schema: 40 of the 51 MB the
 * preprocessing allocates. Each reference it looks up names a schema the instance registered under
 * that key, or none (getSchema's answer too); the lookup answers with that schema and compiles nothing.
 */
function lookUpWithoutCompiling(ajv: SchemaLookup): void {
  ajv.getSchema = (ref) => {
    const registered = ajv.schemas[ref.replace(/#\/?$/, '')];
    return registered && { schema: registered.schema };
  };
}

/** What rebaseValidatorRoots needs of an ajv instance. */
interface SchemaRegistry {
  addSchema(schema: unknown, key?: string, ...rest: unknown[]): unknown;
}

/**
 * The library compiles each validator (an operation's parameters, its body, each of its responses)
 * from a root schema that carries the whole document, `paths` and `components`, so that references
 * resolve inside the root. ajv then walks the whole document again for every root, and compiles its
 * own copy of each schema a root references: about 60 MB allocated to compile one operation's
 * response validators, 85 MB kept once every operation's are. Each ajv instance already holds the
 * document's component schemas under the very references the schemas use
 * (`#/components/schemas/Agent`): a root based at the document itself (`$id: '#'`), without the
 * document in it, resolves its references to those, and each schema is compiled once per instance.
 * The roots and references are the library's; only where they resolve changes.
 */
function rebaseValidatorRoots(ajv: SchemaRegistry, components: unknown): void {
  const addSchema = ajv.addSchema.bind(ajv);
  ajv.addSchema = (schema, key, ...rest) => {
    if (typeof schema === 'object' && schema !== null && (schema as { components?: unknown }).components === components) {
      const { paths: _paths, components: _components, ...root } = schema as Record<string, unknown>;
      return addSchema({ ...root, $id: '#' }, key, ...rest);
    }
    return addSchema(schema, key, ...rest);
  };
}

/**
 * The full check of the timestamps every item carries, with its answers kept for the last few
 * thousand strings: a page of 100 agents checks 200 timestamps, the same ones read after read, and
 * the check cost a tenth of a list's CPU (about 0.5 µs each; a kept answer about 0.03). The answers
 * are ajv-formats' own, only remembered. A uuid's check (one regular expression) costs less than
 * looking it up would.
 */
function rememberedFormats(): Record<string, FormatDefinition<string>> {
  const { validate, compare } = formatsPlugin.get('date-time', 'full') as { validate: (value: string) => boolean; compare: (a: string, b: string) => number | undefined };
  return { 'date-time': { type: 'string', validate: memoizeBounded(4096, validate), compare } };
}

type Schema = Record<string, unknown>;

/**
 * What a schema's `pattern` means, as its `x-pattern-message` says it (`\S`: "must not be blank"):
 * the validator's `must match pattern "\S"` is for machines. Keyed by the message ajv writes.
 */
export function patternMessagesOf(document: unknown): Map<string, string> {
  const messages = new Map<string, string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const { pattern, 'x-pattern-message': message } = node as { pattern?: unknown; 'x-pattern-message'?: unknown };
    if (typeof pattern === 'string' && typeof message === 'string') messages.set(`must match pattern "${pattern}"`, message);
    Object.values(node).forEach(visit);
  };
  visit(document);
  return messages;
}

type ValidatorFailure = { errors?: Array<{ path: string; message: string; errorCode?: string }> };

/** The validator's failure in words for people: branch bookkeeping dropped, patterns said as their schemas mean them. */
function explainFailure(error: unknown, patternMessages: ReadonlyMap<string, string>): unknown {
  const errors = (error as ValidatorFailure | null)?.errors;
  if (!Array.isArray(errors)) return error;
  const meaningful = errors.filter((item) => item.errorCode !== 'if.openapi.validation');
  if (meaningful.length > 0) (error as ValidatorFailure).errors = meaningful;
  for (const item of meaningful) item.message = patternMessages.get(item.message) ?? item.message;
  return error;
}

/**
 * express-openapi-validator's request and response validators, given each operation by the route
 * table instead of finding it again: its own look-up compiles a path regex per route per request
 * (fixed upstream in express-openapi-validator pull request 1217, not released in 5.6). The
 * validators are the library's, with its options and its schema preprocessing; only the matching,
 * and where their references resolve (rebaseValidatorRoots), are ours. The ajv validators of an
 * operation are compiled when it is first called.
 */
export function createValidation(document: ApiDocument, options: { validateResponses: boolean }): (operation: CompiledOperation & { route: Route }) => OperationValidation {
  const settings = new OpenApiValidator({
    apiSpec: document as never,
    validateRequests: { allErrors: true },
    validateResponses: options.validateResponses ? { allErrors: true } : false,
    validateSecurity: false,
    ignoreUndocumented: false,
    // `npm test` lints the document with Redocly. The validator's own meta-schema check would reject
    // the relative `tokenUrl: /token`, which OpenAPI 3.1 allows ("URLs MAY be relative references").
    validateApiSpec: false,
    // Full format checks (the default is "fast"): the same rules as isEmail and every client that validates with ajv-formats.
    validateFormats: true,
    ajvFormats: { mode: 'full' },
    formats: rememberedFormats(),
  }) as unknown as { ajvOpts: { preprocessor: object; request: object; response: object }; options: { validateResponses: false | object } };
  // The preprocessor rewrites the document in place and copies it for the responses.
  // The validator reads the query as the service's parser makes it: one `filter` object.
  const apiDoc = nestFilterParameters(structuredClone(document)) as never;
  selectBranchesByConst(((apiDoc as { components?: { schemas?: Record<string, Schema> } }).components?.schemas ?? {}) as Record<string, Schema>);
  const patternMessages = patternMessagesOf(document);
  const preprocessor = new SchemaPreprocessor(apiDoc, settings.ajvOpts.preprocessor as never, settings.options.validateResponses as never);
  lookUpWithoutCompiling((preprocessor as unknown as { ajv: SchemaLookup }).ajv);
  const { apiDocRes } = preprocessor.preProcess();
  const requests = new RequestValidator(apiDoc, settings.ajvOpts.request as never);
  const responses = apiDocRes ? new ResponseValidator(apiDocRes, settings.ajvOpts.response as never, settings.options.validateResponses as never) : undefined;
  const requestAjv = requests as unknown as { ajv: SchemaRegistry; ajvBody: SchemaRegistry };
  for (const ajv of [requestAjv.ajv, requestAjv.ajvBody]) rebaseValidatorRoots(ajv, (apiDoc as { components?: unknown }).components);
  if (responses && apiDocRes) rebaseValidatorRoots((responses as unknown as { ajvBody: SchemaRegistry }).ajvBody, (apiDocRes as { components?: unknown }).components);
  const paths = (apiDoc as { paths: Record<string, Record<string, unknown>> }).paths;
  const responsePaths = (apiDocRes as { paths?: Record<string, Record<string, ResponsesOf>> } | null)?.paths;

  return (operation) => {
    const method = operation.method.toLowerCase();
    const template = operation.route.template;
    const context = {
      expressRoute: template.replace(/\{([^{}]+)\}/g, ':$1'),
      openApiRoute: template,
      schema: paths[template]?.[method],
      serial: -1,
    };
    if (context.schema === undefined) throw new Error(`express-openapi-validator lost ${operation.operationId} while preprocessing api.yaml`);
    const request: RequestHandler = (req, res, next) => {
      req.openapi = { ...context, pathParams: req.params as Record<string, string> };
      // The validator throws what it refuses.
      try {
        return requests.validate(req as never, res, next);
      } catch (error) {
        throw explainFailure(error, patternMessages);
      }
    };
    if (!responses) return { request };
    const declared = responsePaths?.[template]?.[method]?.responses ?? {};
    let validators: ResponseValidators | undefined;
    // By status: the compiled check of a response that can only be JSON, else null.
    const onlyJson = new Map<number, JsonCheck | null>();
    return {
      request,
      response(req, res, body) {
        validators ??= (responses as unknown as { buildValidators(responses: unknown, key: string): ResponseValidators }).buildValidators(declared, operation.operationId);
        let check = onlyJson.get(res.statusCode);
        if (check === undefined) {
          check = onlyJsonCheckOf(validators, res.statusCode);
          onlyJson.set(res.statusCode, check);
        }
        // The validator's own check would pick that one schema too (no Content-Type set yet, one
        // type declared); it adds only the wording of a failure, so it runs only on one.
        if (check !== null && body !== undefined && body !== null && res.getHeader('content-type') === undefined && check({ response: body })) return;
        const contentType = res.getHeader('content-type');
        const accept = req.headers.accept;
        const accepts = contentType ? [String(contentType)] : accept ? accept.split(',').map((type) => type.trim()) : [];
        responses._validate({ validators, body: body as object, statusCode: res.statusCode, path: req.originalUrl, accepts });
      },
    };
  };
}

type JsonCheck = (data: { response: unknown }) => boolean;

/** The compiled schema of a status whose answer api.yaml declares only as `application/json` (the validator's own choice of status: exact, then `2XX`, then `default`). */
function onlyJsonCheckOf(validators: ResponseValidators, status: number): JsonCheck | null {
  // The library types its map loosely: it holds the checks by status, then by media type.
  const byStatus = validators as unknown as Record<string, Record<string, JsonCheck> | undefined>;
  const byType = byStatus[String(status)] ?? byStatus[`${String(status)[0]}XX`] ?? byStatus.default;
  if (byType === undefined) return null;
  const types = Object.keys(byType);
  return types.length === 1 && types[0] === 'application/json' ? (byType['application/json'] as JsonCheck) : null;
}

type ResponseCheck = NonNullable<OperationValidation['response']>;

declare module 'express-serve-static-core' {
  interface Request {
    /** The operation's response check, armed when its handler starts. */
    responseCheck?: ResponseCheck;
  }
}

/** The chain step that arms an operation's response check, just before its handler. */
export function armResponseCheck(check: ResponseCheck): RequestHandler {
  return (req, _res, next) => {
    req.responseCheck = check;
    next();
  };
}

/**
 * The app's `res.json` runs the armed check once, on the handler's answer or the error that
 * replaced it (5xx answers are not checked: they are the service's own failures). A body api.yaml
 * does not allow throws the validator's 500 to whoever called `res.json`. The answer is then
 * written by writeJson, not by Express's `res.send`.
 */
export function checkResponsesOf(app: Express): void {
  app.response.json = function checkedJson(this: Response, body?: unknown) {
    const check = this.req.responseCheck;
    if (check !== undefined) {
      this.req.responseCheck = undefined;
      if (this.statusCode < 500 && !this.headersSent) check(this.req, this, body);
    }
    return writeJson(this, body);
  };
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A JSON answer as Express's `res.json` gives it (its type, `charset=utf-8`, Content-Length; no
 * body for HEAD, 204 or 304), without what `res.send` adds on the way: the text turned into a
 * Buffer, the Content-Type parsed and written again, its own freshness and ETag steps. The app
 * sets no ETag by Express and no JSON replacer or spacing, so nothing else of `res.send` applies.
 */
export function writeJson(res: Response, body: unknown): Response {
  const status = res.statusCode;
  if (status === 204 || status === 304) {
    res.removeHeader('Content-Type');
    res.removeHeader('Content-Length');
    res.removeHeader('Transfer-Encoding');
    res.end();
    return res;
  }
  const text = JSON.stringify(body) ?? '';
  const type = res.getHeader('Content-Type');
  if (type === undefined) res.setHeader('Content-Type', JSON_TYPE);
  else if (!/;\s*charset=/i.test(String(type))) res.setHeader('Content-Type', `${String(type)}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  if (res.req.method === 'HEAD') res.end();
  else res.end(text);
  return res;
}
