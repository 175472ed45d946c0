'use strict';
/**
 * The Agent Fleet API's conventions that Redocly's built-in and
 * configurable rules cannot express, as a Redocly CLI plugin. redocly.yaml loads it and turns each
 * rule on as `agent-fleet/<rule>`; README.md ("Conventions the linter enforces") lists them all.
 *
 * Exceptions are not written here: a real exception goes to .redocly.lint-ignore.yaml with a comment
 * saying why. The rules report missing responses on the operation's `responses` (for example
 * `#/paths/~1health/get/responses`), so an exception names one rule on one operation.
 */

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/**
 * Paths that are not resource collections, so neither the plural-noun nor the no-verb rule nor the
 * pagination rule applies to them. Each is named by a specification, a protocol or the tool that
 * calls it, not chosen by this API's resource model. Every other path is a resource path and is
 * checked: a new path must be a plural noun or be added here, in review, with its reason.
 */
const NOT_RESOURCES = [
  // The console, the sign-in page and the sign-up page: HTML pages a person opens.
  { pattern: /^\/(login|sign-up)?$/, why: 'an HTML page' },
  // The icon browsers ask for by this name when a document names none.
  { pattern: /^\/favicon\.ico$/, why: "the browsers' icon" },
  // This document and its references (/openapi.json, /docs, /redoc, /client and their files): the
  // names Swagger UI, ReDoc and the conventions use.
  { pattern: /^\/(openapi\.json|docs|redoc|client)(\/|$)/, why: 'the API document or one of its reference pages' },
  // The files of the pages (scripts, style sheets, icons).
  { pattern: /^\/assets\//, why: 'a static file' },
  // Liveness and readiness probes and the Prometheus scrape: the names orchestrators and scrapers expect.
  { pattern: /^\/(health(\/ready)?|metrics)$/, why: 'an operational probe or the metrics scrape' },
  // RFC 6749's token endpoint, where OAuth clients (Swagger UI's Authorize dialog) post grants.
  { pattern: /^\/token$/, why: "the OAuth 2.0 token endpoint (RFC 6749)" },
  // The specification's fixed "who am I" probe.
  { pattern: /^\/protected$/, why: "the specification's bearer-token probe" },
  // The specification's sign-in procedures (login, logout, logout-all, third-party sign-in and its
  // callback): actions on the caller's session, not collections of resources.
  { pattern: /^\/api\/auth\//, why: "one of the specification's sign-in procedures" },
  // Accepting an invitation: an action by the signed-in caller with a token that names the
  // invitation (its id is not known to the invited user), not a collection of resources.
  { pattern: /^\/api\/v1\/invitations\/accept$/, why: 'the action of accepting an invitation by its token' },
];

/** The surface prefix of the conventions surface (`/api/v1`): not a resource name. */
const PREFIX_SEGMENT = /^(api|v\d+)$/;

/**
 * Singular nouns that name one resource, not a collection: `me` is the caller (`/api/v1/me`); an
 * agent's `usage` and `stats` are one document each, computed over its tasks.
 */
const SINGLETONS = new Set(['me', 'usage', 'stats']);

/**
 * Verbs that make a path an RPC call instead of a resource: an action is the HTTP method on a
 * noun (POST /agents, not /create-agent). HTTP method names (get, post, delete...) are the
 * built-in `no-http-verbs-in-paths` rule's job and are not repeated here.
 */
const VERBS = new Set([
  'add', 'activate', 'approve', 'archive', 'assign', 'cancel', 'change', 'check', 'clone', 'copy',
  'create', 'deactivate', 'destroy', 'disable', 'do', 'download', 'edit', 'enable', 'execute', 'exec',
  'export', 'fetch', 'find', 'import', 'insert', 'list', 'make', 'modify', 'move', 'pause', 'read',
  'refresh', 'register', 'reject', 'remove', 'replace', 'reset', 'restore', 'resume', 'retrieve',
  'retry', 'run', 'search', 'send', 'set', 'start', 'stop', 'submit', 'sync', 'trigger', 'unlink',
  'update', 'upload', 'validate',
]);

/**
 * Each path belongs to one surface, and the surface decides its error bodies and how it answers
 * validation failures:
 * - `/api/...` (the conventions surface, `/api/v1` and `/api/auth`): the `{error: {code, message,
 *   details, requestId}}` envelope, whose `error` is an `ApiErrorObject`; validation is 400.
 * - `/token`: RFC 6749's token endpoint, whose every error is an `OAuthError` (section 5.2); a bad
 *   request is 400 `invalid_request`.
 * - everything else (the root agent service): bare bodies of the `Error` family (`Error` or a schema
 *   built on it with allOf); schema violations are 422, malformed JSON is 400.
 */
const SURFACES = {
  conventions: { name: 'the conventions surface (/api)', errorBody: 'the `{error: ApiErrorObject}` envelope', validation: ['400'] },
  token: { name: 'the token endpoint', errorBody: '`OAuthError` (RFC 6749 section 5.2)', validation: ['400'] },
  root: { name: 'the root agent service', errorBody: 'the `Error` family (`Error`, or allOf with `Error`)', validation: ['422'] },
};

function surfaceOf(path) {
  if (path.startsWith('/api/')) return 'conventions';
  if (path === '/token') return 'token';
  return 'root';
}

function notResource(path) {
  return NOT_RESOURCES.find((entry) => entry.pattern.test(path));
}

/** Static segments that name resources: path parameters and the `/api/v1` prefix left out. */
function resourceSegments(path) {
  return path
    .split('/')
    .filter((segment) => segment !== '' && !/^\{.*\}$/.test(segment) && !PREFIX_SEGMENT.test(segment));
}

/**
 * A collection path: a resource path whose last segment names resources (not a path parameter,
 * which makes it an item path, and not a singleton such as `me`).
 */
function isCollectionPath(path) {
  if (notResource(path)) return false;
  const last = path.split('/').pop();
  return last !== '' && !/^\{.*\}$/.test(last) && !PREFIX_SEGMENT.test(last) && !SINGLETONS.has(last);
}

/** A plural noun, as far as a linter can tell: it ends in `s` (but not `ss`, as `access`). */
function isPlural(segment) {
  const lastWord = segment.split(/[-_.]/).pop();
  return /[^s]s$/.test(lastWord);
}

function words(segment) {
  return segment
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

/** Follows `$ref`s to the node they name. */
function deref(ctx, node) {
  let current = node;
  for (let hops = 0; current && typeof current === 'object' && typeof current.$ref === 'string' && hops < 20; hops++) {
    current = ctx.resolve(current).node;
  }
  return current;
}

function isJsonMediaType(mediaType) {
  return /^application\/([\w.-]+\+)?json$/.test(mediaType);
}

/**
 * The operations the error-response rules cover: those that answer JSON only. HTML pages, static
 * files and the Prometheus text of /metrics are not API operations: they are served before the
 * request validator and have no JSON error contract of their own beyond what they declare.
 */
function answersJsonOnly(ctx, operation) {
  return Object.values(operation.responses || {}).every((raw) => {
    const response = deref(ctx, raw) || {};
    return Object.keys(response.content || {}).every(isJsonMediaType);
  });
}

function hasRequestBody(ctx, operation) {
  return operation.requestBody !== undefined && deref(ctx, operation.requestBody) !== undefined;
}

/** `#/components/schemas/Name` → true when `schema` is `Name` or built on it (allOf), or every alternative is. */
function extendsSchema(ctx, schema, name, depth = 0) {
  if (!schema || typeof schema !== 'object' || depth > 20) return false;
  if (typeof schema.$ref === 'string') {
    if (schema.$ref === `#/components/schemas/${name}`) return true;
    return extendsSchema(ctx, ctx.resolve(schema).node, name, depth + 1);
  }
  if (Array.isArray(schema.allOf) && schema.allOf.some((member) => extendsSchema(ctx, member, name, depth + 1))) return true;
  for (const keyword of ['anyOf', 'oneOf']) {
    if (Array.isArray(schema[keyword]) && schema[keyword].length > 0) {
      return schema[keyword].every((member) => extendsSchema(ctx, member, name, depth + 1));
    }
  }
  return false;
}

/** The conventions surface's error envelope: an object whose `error` is an `ApiErrorObject` (or `ApiError` itself). */
function isApiErrorEnvelope(ctx, schema, depth = 0) {
  if (!schema || typeof schema !== 'object' || depth > 20) return false;
  if (typeof schema.$ref === 'string') {
    if (schema.$ref === '#/components/schemas/ApiError') return true;
    return isApiErrorEnvelope(ctx, ctx.resolve(schema).node, depth + 1);
  }
  for (const keyword of ['anyOf', 'oneOf']) {
    if (Array.isArray(schema[keyword]) && schema[keyword].length > 0) {
      return schema[keyword].every((member) => isApiErrorEnvelope(ctx, member, depth + 1));
    }
  }
  if (Array.isArray(schema.allOf) && schema.allOf.some((member) => isApiErrorEnvelope(ctx, member, depth + 1))) return true;
  const error = schema.properties && schema.properties.error;
  return Boolean(error) && (extendsSchema(ctx, error, 'ApiErrorObject') || isOwnErrorCode(ctx, error));
}

/**
 * An error object of ApiErrorObject's shape with a code of its own (`LEASE_LOST`): a code added to
 * ApiErrorObject's enum would widen every operation's error responses, which breaks clients that
 * switch over the codes; one response's own `const` code widens only the new operation's.
 */
function isOwnErrorCode(ctx, raw) {
  const error = deref(ctx, raw);
  const properties = (error && error.properties) || {};
  const code = deref(ctx, properties.code);
  const required = Array.isArray(error && error.required) ? error.required : [];
  return (
    Boolean(code) &&
    typeof code.const === 'string' &&
    /^[A-Z][A-Z_]*$/.test(code.const) &&
    Boolean(properties.message) &&
    Boolean(properties.requestId) &&
    required.includes('code') &&
    required.includes('message') &&
    error.additionalProperties === false
  );
}

function hasSurfaceErrorBody(ctx, surface, schema) {
  if (surface === 'conventions') return isApiErrorEnvelope(ctx, schema);
  if (surface === 'token') return extendsSchema(ctx, schema, 'OAuthError');
  return extendsSchema(ctx, schema, 'Error');
}

/**
 * Calls `check(operation, {path, method, surface, location, security})` for every operation of
 * the `paths` map. `location` is the operation's; `security` its effective requirement.
 */
function operationVisitor(check) {
  let rootSecurity = [];
  return {
    Root: {
      enter(root) {
        rootSecurity = Array.isArray(root.security) ? root.security : [];
      },
    },
    PathItem: {
      enter(pathItem, ctx) {
        const path = String(ctx.key);
        if (!path.startsWith('/')) return; // webhooks and callbacks are not paths of this API
        for (const method of METHODS) {
          const operation = pathItem[method];
          if (!operation || typeof operation !== 'object') continue;
          check(operation, {
            ctx,
            path,
            method,
            surface: surfaceOf(path),
            location: ctx.location.child([method]),
            security: Array.isArray(operation.security) ? operation.security : rootSecurity,
            pathItem,
          });
        }
      },
    },
  };
}

/** A rule that requires the statuses `required(...)` names on every operation it answers for. */
function requiredResponsesRule(required) {
  return () =>
    operationVisitor((operation, at) => {
      const { ctx, path, method, location } = at;
      const responses = operation.responses || {};
      for (const { status, why } of required(operation, at)) {
        if (responses[status] !== undefined) continue;
        ctx.report({
          message: `${method.toUpperCase()} ${path} declares no ${status} response: ${why}.`,
          location: location.child(['responses']).key(),
        });
      }
    });
}

/** Credentials a server can refuse as forbidden: a wrong API key, a cookie-authenticated change from a foreign origin. */
const FORBIDDEN_ABLE = new Set(['ApiKeyAuth', 'SessionCookie']);

/**
 * `secured-operation-auth-errors`: a secured operation (one whose effective `security` has no
 * anonymous `{}` alternative) declares 401; one that accepts an API key or the session cookie also
 * declares 403 (a wrong API key, or a cookie-authenticated change from an origin that is not
 * allowed). Bearer-only operations (/protected, /metrics) cannot answer 403 and are not asked to.
 */
const SecuredOperationAuthErrors = requiredResponsesRule((operation, { security }) => {
  const secured = security.length > 0 && !security.some((requirement) => Object.keys(requirement || {}).length === 0);
  if (!secured) return [];
  const required = [{ status: '401', why: 'a secured operation answers 401 without a valid credential' }];
  const schemes = new Set(security.flatMap((requirement) => Object.keys(requirement || {})));
  if ([...schemes].some((scheme) => FORBIDDEN_ABLE.has(scheme))) {
    required.push({ status: '403', why: 'an operation that accepts an API key or the session cookie answers 403 to a wrong key or a foreign origin' });
  }
  return required;
});

/**
 * `validation-error-response`: every JSON operation declares how it refuses a bad request, as its
 * surface does: 422 on the root surface (plus 400 for malformed JSON where it reads a body), 400 on
 * `/api` and on the token endpoint.
 */
const ValidationErrorResponse = requiredResponsesRule((operation, { ctx, surface }) => {
  if (!answersJsonOnly(ctx, operation)) return [];
  const required = SURFACES[surface].validation.map((status) => ({
    status,
    why: `${SURFACES[surface].name} refuses a request that breaks the schema with ${status}`,
  }));
  if (surface === 'root' && hasRequestBody(ctx, operation)) {
    required.push({ status: '400', why: 'an operation of the root agent service that reads a body answers 400 to malformed JSON' });
  }
  return required;
});

/** `not-found-response`: a JSON operation on a path with a path parameter declares 404 (the parameter may name nothing). */
const NotFoundResponse = requiredResponsesRule((operation, { ctx, path }) => {
  if (!answersJsonOnly(ctx, operation) || !/\{[^}]+\}/.test(path)) return [];
  return [{ status: '404', why: 'a path parameter can name no resource (or one the caller may not see)' }];
});

/** `rate-limit-response`: every JSON operation declares 429. */
const RateLimitResponse = requiredResponsesRule((operation, { ctx }) => {
  if (!answersJsonOnly(ctx, operation)) return [];
  return [{ status: '429', why: 'every operation is rate-limited and answers 429 with Retry-After' }];
});

/** `internal-error-response`: every JSON operation declares 500. */
const InternalErrorResponse = requiredResponsesRule((operation, { ctx }) => {
  if (!answersJsonOnly(ctx, operation)) return [];
  return [{ status: '500', why: 'any operation can fail unexpectedly and answers 500 in its surface’s error shape' }];
});

/**
 * `parser-refusal-responses`: every operation, whatever it answers, declares what a client meets
 * when Node's HTTP parser refuses its request before the operation runs: 400 (malformed, or
 * `Content-Length` with `Transfer-Encoding`), 417 (an `Expect` other than `100-continue`) and 431
 * (headers too large); one that reads a body also 408 (the body not received in time; headers
 * that never end name no operation, and are answered like a path no operation has). A status only
 * an `x-` extension declares is one that clients and generated code never see.
 */
const PARSER_REFUSALS = [
  { status: '400', why: 'the HTTP parser refuses a malformed request (or Content-Length with Transfer-Encoding) with 400' },
  { status: '417', why: 'an `Expect` other than 100-continue is answered 417' },
  { status: '431', why: 'request headers over the parser\'s limit are answered 431' },
];
const BODY_TIMEOUT = { status: '408', why: 'an operation that reads a body answers 408 when the body does not arrive in time' };
const ParserRefusalResponses = requiredResponsesRule((operation, { ctx }) => (hasRequestBody(ctx, operation) ? [...PARSER_REFUSALS, BODY_TIMEOUT] : PARSER_REFUSALS));

/**
 * `error-response-schema`: every 4xx and 5xx response with a JSON body has its surface's error body
 * (see SURFACES), whatever the operation's other media types.
 */
function ErrorResponseSchema() {
  return operationVisitor((operation, { ctx, path, method, surface, location }) => {
    for (const [status, raw] of Object.entries(operation.responses || {})) {
      if (!/^[45]\d\d$/.test(status)) continue;
      const response = deref(ctx, raw) || {};
      for (const [mediaType, media] of Object.entries(response.content || {})) {
        if (!isJsonMediaType(mediaType)) continue;
        if (hasSurfaceErrorBody(ctx, surface, media && media.schema)) continue;
        ctx.report({
          message: `${method.toUpperCase()} ${path} ${status}: the body must be ${SURFACES[surface].errorBody}, the error body of ${SURFACES[surface].name}.`,
          location: location.child(['responses', status]),
        });
      }
    }
  });
}

/**
 * `agent-key-scope`: an operation open to agent keys (`x-agent-key-scope`) names a scope that
 * `AgentKeyScope` declares, acts on one agent (its path has `{agent_id}`, which the key must be,
 * or it takes an `agent_id` query parameter, which is the key's agent when absent), and declares
 * the 403 (a scope the key lacks) and 404 (another agent) its gate answers.
 */
function AgentKeyScope() {
  let scopes = [];
  const visitor = operationVisitor((operation, { path, method, location, ctx, pathItem }) => {
    const scope = operation['x-agent-key-scope'];
    if (scope === undefined) return;
    const where = `${method.toUpperCase()} ${path}`;
    const report = (message) => ctx.report({ message: `${where}: ${message}`, location: location.child(['x-agent-key-scope']) });
    if (!scopes.includes(scope)) report(`x-agent-key-scope \`${scope}\` is not a value of AgentKeyScope (${scopes.join(', ')}).`);
    const agentQuery = pathItem !== undefined && queryParameters(ctx, pathItem, operation).has('agent_id');
    if (!path.includes('{agent_id}') && !agentQuery) report('x-agent-key-scope on a path without {agent_id} (nor an `agent_id` query parameter): an agent key acts on its own agent only.');
    for (const status of ['403', '404']) {
      if (!(operation.responses || {})[status]) report(`x-agent-key-scope without a declared ${status} (${status === '403' ? 'a scope the key lacks' : 'another agent'}).`);
    }
  });
  return {
    ...visitor,
    Root: {
      enter(root) {
        visitor.Root.enter(root);
        const schema = ((root.components || {}).schemas || {}).AgentKeyScope;
        scopes = schema && Array.isArray(schema.enum) ? schema.enum : [];
      },
    },
  };
}

/**
 * The paths of a workspace's data: agents (and all that follows them), the event log, webhooks
 * and workspaces themselves. Creating a workspace and accepting an invitation act for the caller,
 * not in a workspace they are a member of: they name no role.
 */
const WORKSPACE_DATA = [/^\/agents(\/|$)/, /^\/api\/v1\/agents(\/|$)/, /^\/api\/v1\/events$/, /^\/api\/v1\/webhooks(\/|$)/, /^\/api\/v1\/workspaces\/\{workspace_id\}/];
const ACTS_FOR_THE_CALLER = new Set(['post /api/v1/workspaces', 'post /api/v1/invitations/accept']);

/**
 * `workspace-role`: every operation on a workspace's data names the least role it needs
 * (`x-workspace-role`, a value of `WorkspaceRole`), which the dispatcher enforces, and declares the
 * 403 (a member below that role) and 404 (not a member) it answers; an operation that acts for
 * the caller names none.
 */
function WorkspaceRole() {
  let roles = [];
  const visitor = operationVisitor((operation, { path, method, location, ctx }) => {
    const role = operation['x-workspace-role'];
    const where = `${method.toUpperCase()} ${path}`;
    const report = (message) => ctx.report({ message: `${where}: ${message}`, location: role === undefined ? location : location.child(['x-workspace-role']) });
    const onWorkspaceData = (WORKSPACE_DATA.some((pattern) => pattern.test(path)) || path === '/api/v1/workspaces') && !ACTS_FOR_THE_CALLER.has(`${method} ${path}`);
    if (role === undefined) {
      if (onWorkspaceData) report("an operation on a workspace's data without x-workspace-role (the least role it needs).");
      return;
    }
    if (!onWorkspaceData) report("x-workspace-role on an operation that is not on a workspace's data.");
    if (!roles.includes(role)) report(`x-workspace-role \`${role}\` is not a value of WorkspaceRole (${roles.join(', ')}).`);
    const itemPath = /\{[a-z_]+\}/.test(path);
    for (const status of itemPath ? ['403', '404'] : ['403']) {
      if (!(operation.responses || {})[status]) report(`x-workspace-role without a declared ${status} (${status === '403' ? 'a member below the role' : 'not a member'}).`);
    }
  });
  return {
    ...visitor,
    Root: {
      enter(root) {
        visitor.Root.enter(root);
        const schema = ((root.components || {}).schemas || {}).WorkspaceRole;
        roles = schema && Array.isArray(schema.enum) ? schema.enum : [];
      },
    },
  };
}

function queryParameters(ctx, pathItem, operation) {
  const names = new Set();
  for (const raw of [...(pathItem.parameters || []), ...(operation.parameters || [])]) {
    const parameter = deref(ctx, raw);
    if (parameter && parameter.in === 'query') names.add(parameter.name);
  }
  return names;
}

function successSchema(ctx, operation) {
  const response = deref(ctx, (operation.responses || {})['200']);
  const media = response && response.content && response.content['application/json'];
  return media ? deref(ctx, media.schema) : undefined;
}

function isArraySchema(schema) {
  if (!schema) return false;
  return schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'));
}

/**
 * `collection-pagination`: GET on a collection path pages the way its surface does.
 * - root agent service: `skip` and `limit` query parameters, and a bare JSON array.
 * - conventions surface: `cursor` and `limit` with a `{data: [...], meta: {nextCursor, hasMore}}`
 *   envelope (posts, agents, tasks), or `page` and `limit` with `{data: [...], meta: {total, page,
 *   limit}}` (users).
 */
function CollectionPagination() {
  return {
    PathItem: {
      enter(pathItem, ctx) {
        const path = String(ctx.key);
        if (!path.startsWith('/') || !isCollectionPath(path)) return;
        const operation = pathItem.get;
        if (!operation || typeof operation !== 'object') return;
        const surface = surfaceOf(path);
        const query = queryParameters(ctx, pathItem, operation);
        const body = successSchema(ctx, operation);
        const problems = [];
        if (surface === 'root') {
          for (const name of ['skip', 'limit']) if (!query.has(name)) problems.push(`the \`${name}\` query parameter`);
          if (!isArraySchema(body)) problems.push('a bare JSON array as its 200 body');
        } else if (surface === 'conventions') {
          // A log whose ids increase (events) pages with `after`, the last id seen: a cursor too.
          const style = query.has('cursor') || query.has('after') ? 'cursor' : query.has('page') ? 'page' : undefined;
          if (!style) problems.push('the `cursor` (or, page-numbered, `page`; or, for a log, `after`) query parameter');
          if (!query.has('limit')) problems.push('the `limit` query parameter');
          const properties = (body && body.properties) || {};
          if (!isArraySchema(deref(ctx, properties.data))) problems.push('a `data` array in its 200 envelope');
          const meta = deref(ctx, properties.meta);
          const metaFields = Object.keys((meta && meta.properties) || {});
          const wanted = style === 'page' ? ['total', 'page', 'limit'] : ['nextCursor', 'hasMore'];
          const missing = wanted.filter((field) => !metaFields.includes(field));
          if (missing.length > 0) problems.push(`\`meta\` with ${wanted.map((field) => `\`${field}\``).join(', ')} in its 200 envelope`);
        }
        for (const problem of problems) {
          ctx.report({
            message: `GET ${path} lists a collection of ${SURFACES[surface].name}, so it must declare ${problem}.`,
            location: ctx.location.child(['get']).key(),
          });
        }
      },
    },
  };
}

/**
 * A visitor over the static segments of every resource path (see NOT_RESOURCES): `check` returns
 * the problems of one segment, each reported on the path.
 */
function everyResourceSegment(check) {
  return {
    PathItem: {
      enter(_pathItem, ctx) {
        const path = String(ctx.key);
        if (!path.startsWith('/') || notResource(path)) return;
        for (const segment of resourceSegments(path)) {
          for (const message of check(segment, path)) ctx.report({ message, location: ctx.location.key() });
        }
      },
    },
  };
}

/**
 * `collection-path-plural-nouns`: every static segment of a resource path is a plural noun (it ends
 * in `s`) or a singleton noun (`me`); the `/api/v1` prefix and path parameters are not resource names.
 */
function CollectionPathPluralNouns() {
  return everyResourceSegment((segment, path) =>
    SINGLETONS.has(segment) || isPlural(segment)
      ? []
      : [`\`${segment}\` in ${path} is not a plural noun: collections are named by plural nouns (\`/agents\`, not \`/agent\`).`],
  );
}

/** `collection-path-no-verbs`: no word of a resource path's static segments is an action verb (VERBS). */
function CollectionPathNoVerbs() {
  return everyResourceSegment((segment, path) =>
    words(segment)
      .filter((word) => VERBS.has(word))
      .map((word) => `\`${segment}\` in ${path} holds the verb \`${word}\`: the HTTP method is the action, the path names resources.`),
  );
}

function describedByItself(schema) {
  return schema && typeof schema === 'object' && typeof schema.description === 'string' && schema.description.trim() !== '';
}

/**
 * Whether a property's schema carries a description the reference documentation shows: its own
 * (a `$ref` may have a sibling `description` in OpenAPI 3.1), or, when it is a bare `$ref` or an
 * allOf, that of the schema it refers to or builds on.
 */
function isDescribed(ctx, schema, depth = 0) {
  if (!schema || typeof schema !== 'object' || depth > 20) return false;
  if (describedByItself(schema)) return true;
  if (typeof schema.$ref === 'string') return isDescribed(ctx, ctx.resolve(schema).node, depth + 1);
  return Array.isArray(schema.allOf) && schema.allOf.some((member) => isDescribed(ctx, member, depth + 1));
}

/**
 * The names of the properties a schema declares that `keep` accepts: its own, and those of the
 * members of its allOf, each followed through `$ref`.
 */
function propertyNames(ctx, raw, keep, depth = 0) {
  const names = new Set();
  const schema = deref(ctx, raw);
  if (!schema || typeof schema !== 'object' || depth > 20) return names;
  for (const [name, property] of Object.entries(schema.properties || {})) if (keep(property)) names.add(name);
  for (const member of schema.allOf || []) for (const name of propertyNames(ctx, member, keep, depth + 1)) names.add(name);
  return names;
}

/**
 * `schema-property-description`: every property of every schema has a description (see
 * isDescribed). A property that an allOf member only narrows (`error: {const: not_found}` beside
 * `$ref: Error`) keeps the description of the member that declares it.
 */
function SchemaPropertyDescription() {
  // allOf members (inline) → the property names their siblings already describe.
  const narrowing = new WeakMap();
  return {
    Schema: {
      enter(schema, ctx) {
        if (Array.isArray(schema.allOf)) {
          const described = propertyNames(ctx, { allOf: schema.allOf }, (property) => isDescribed(ctx, property));
          for (const member of schema.allOf) if (member && typeof member === 'object' && !member.$ref) narrowing.set(member, described);
        }
        if (!schema.properties || typeof schema.properties !== 'object') return;
        const inherited = narrowing.get(schema) || new Set();
        for (const [name, property] of Object.entries(schema.properties)) {
          // `false` says the field is never there (a summary leaves it out): nothing to describe.
          if (property === false || inherited.has(name) || isDescribed(ctx, property)) continue;
          ctx.report({
            message: `Property \`${name}\` has no description (give it one, or give the schema it refers to one).`,
            location: ctx.location.child(['properties', name]).key(),
          });
        }
      },
    },
  };
}

/** `#/components/schemas/TaskEntity` → `Task`; undefined for any other place. */
function entityAt(pointer) {
  const match = /^#\/components\/schemas\/([A-Za-z0-9]+)Entity$/.exec(pointer);
  return match ? match[1] : undefined;
}

/** `properties.id` is a bare `$ref`, the same one the `id` of an entity the schema composes (allOf) has. */
function restatesEntityId(ctx, schema) {
  const id = schema.properties.id;
  if (!id || typeof id !== 'object' || Object.keys(id).length !== 1 || typeof id.$ref !== 'string') return false;
  return (schema.allOf || []).some((member) => {
    if (!member || typeof member.$ref !== 'string' || !entityAt(member.$ref)) return false;
    const entity = ctx.resolve(member).node;
    return Boolean(entity && entity.properties && entity.properties.id && entity.properties.id.$ref === id.$ref);
  });
}

/**
 * `entity-defined-once`: each entity's fields are defined once, in its `<Name>Entity` schema, and
 * every representation of it (the root surface's, the conventions surface's full resource, its
 * sparse fieldset, the summary an include embeds) composes that schema. A field copied into a
 * second schema is one a reviewer can change in one place and not the other, and api:diff then
 * reports the change on some operations only. A schema with an `id` describes an entity, so only
 * an entity schema may declare `id`.
 */
function EntityDefinedOnce() {
  return {
    Schema: {
      enter(schema, ctx) {
        const properties = schema.properties;
        if (!properties || typeof properties !== 'object' || properties.id === undefined || properties.id === false) return;
        if (entityAt(ctx.location.pointer)) return;
        // A representation may name `id` by the very $ref its entity gives it (hey-api 0.95 types the
        // fields a schema requires only when the schema declares a property of its own): no copy.
        if (restatesEntityId(ctx, schema)) return;
        ctx.report({
          message:
            'Only an entity schema (`components/schemas/<Name>Entity`) declares `id`: a representation composes its entity (`allOf: [$ref: <Name>Entity]`, the fields it requires, `unevaluatedProperties: false`) instead of copying its fields.',
          location: ctx.location.child(['properties', 'id']).key(),
        });
      },
    },
  };
}

/** The properties a schema declares, itself or through its allOf (a property declared `false` is left out). */
const declaredProperties = (ctx, raw) => propertyNames(ctx, raw, (property) => property !== false);

/**
 * `required-properties-declared`: every name an object schema requires is a property it declares,
 * itself, through the entity it composes, or through a sibling of the allOf it is a member of.
 * Removing a field from an entity leaves the representations that required it unsatisfiable (the
 * field is both required and refused); this names each one.
 */
function RequiredPropertiesDeclared() {
  // Inline allOf members → the names their siblings declare.
  const siblings = new WeakMap();
  return {
    Schema: {
      enter(schema, ctx) {
        if (Array.isArray(schema.allOf)) {
          for (const member of schema.allOf) {
            if (!member || typeof member !== 'object' || member.$ref) continue;
            const names = new Set(Object.keys(schema.properties || {}));
            for (const other of schema.allOf) if (other !== member) for (const name of declaredProperties(ctx, other)) names.add(name);
            siblings.set(member, names);
          }
        }
        if (!Array.isArray(schema.required) || (!schema.properties && !schema.allOf && !siblings.has(schema))) return;
        const declared = declaredProperties(ctx, schema);
        for (const name of siblings.get(schema) || []) declared.add(name);
        for (const name of schema.required) {
          if (declared.has(name)) continue;
          ctx.report({
            message: `\`${name}\` is required but no property declares it (a field removed from an entity is removed from the representations that require it too).`,
            location: ctx.location.child(['required']),
          });
        }
      },
    },
  };
}

/**
 * `idempotent-create`: every POST that creates (declares 201) is safe to retry: it declares the
 * reusable `IdempotencyKey` header parameter (the app applies the idempotency step to exactly the
 * operations that do), the `Idempotent-Replayed` header on each of its 2xx answers, and the answers
 * a key can get: 409 (`IDEMPOTENCY_KEY_IN_USE`, the first request still running) and 422
 * (`IDEMPOTENCY_KEY_REUSED`, the key sent before with another request), each allowing that code.
 */
const IDEMPOTENCY_KEY_PARAMETER = '#/components/parameters/IdempotencyKey';
const IDEMPOTENCY_CODES = { '409': 'idempotency_key_in_use', '422': 'idempotency_key_reused' };

/** The error codes a response body's schema allows (`error` on the root surface, `error.code` under /api), through $ref, allOf, anyOf and oneOf. */
function errorCodes(ctx, raw, depth = 0) {
  const codes = new Set();
  const schema = deref(ctx, raw);
  if (!schema || typeof schema !== 'object' || depth > 20) return codes;
  const add = (values) => values.forEach((value) => codes.add(String(value).toLowerCase()));
  const properties = schema.properties || {};
  const error = deref(ctx, properties.error);
  if (error && typeof error === 'object') {
    if (typeof error.const === 'string') add([error.const]);
    const code = deref(ctx, (error.properties || {}).code);
    if (code && typeof code.const === 'string') add([code.const]);
    for (const member of error.allOf || []) {
      const narrowed = deref(ctx, (deref(ctx, member).properties || {}).code);
      if (narrowed && typeof narrowed.const === 'string') add([narrowed.const]);
    }
  }
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    for (const member of schema[keyword] || []) for (const code of errorCodes(ctx, member, depth + 1)) codes.add(code);
  }
  return codes;
}

function IdempotentCreate() {
  return operationVisitor((operation, { ctx, path, method, location }) => {
    const responses = operation.responses || {};
    if (method !== 'post' || responses['201'] === undefined) return;
    const where = `POST ${path}`;
    const report = (message, at) => ctx.report({ message: `${where} creates (201), so ${message}`, location: at });
    const parameters = operation.parameters || [];
    if (!parameters.some((parameter) => parameter && parameter.$ref === IDEMPOTENCY_KEY_PARAMETER)) {
      report('it declares the `IdempotencyKey` parameter (a retried create must not create twice).', location.child(['parameters']).key());
    }
    for (const [status, raw] of Object.entries(responses)) {
      if (!/^2\d\d$/.test(status)) continue;
      const headers = (deref(ctx, raw) || {}).headers || {};
      if (headers['Idempotent-Replayed'] === undefined) report(`its ${status} declares the \`Idempotent-Replayed\` header.`, location.child(['responses', status]));
    }
    for (const [status, code] of Object.entries(IDEMPOTENCY_CODES)) {
      const response = deref(ctx, responses[status]);
      if (!response) {
        report(`it declares ${status} (\`${code.toUpperCase()}\`).`, location.child(['responses']).key());
        continue;
      }
      const media = (response.content || {})['application/json'];
      if (!errorCodes(ctx, media && media.schema).has(code)) report(`its ${status} allows the code \`${code.toUpperCase()}\`.`, location.child(['responses', status]));
    }
  });
}

module.exports = function agentFleetPlugin() {
  return {
    id: 'agent-fleet',
    rules: {
      oas3: {
        'collection-path-plural-nouns': CollectionPathPluralNouns,
        'collection-path-no-verbs': CollectionPathNoVerbs,
        'secured-operation-auth-errors': SecuredOperationAuthErrors,
        'validation-error-response': ValidationErrorResponse,
        'not-found-response': NotFoundResponse,
        'rate-limit-response': RateLimitResponse,
        'internal-error-response': InternalErrorResponse,
        'parser-refusal-responses': ParserRefusalResponses,
        'error-response-schema': ErrorResponseSchema,
        'collection-pagination': CollectionPagination,
        'schema-property-description': SchemaPropertyDescription,
        'entity-defined-once': EntityDefinedOnce,
        'required-properties-declared': RequiredPropertiesDeclared,
        'agent-key-scope': AgentKeyScope,
        'workspace-role': WorkspaceRole,
        'idempotent-create': IdempotentCreate,
      },
    },
  };
};
