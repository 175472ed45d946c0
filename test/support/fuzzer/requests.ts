import { gzipSync } from 'node:zlib';
import type { Contract, Operation, ParameterObject } from './contract';
import { randomForIndex, type Random } from './random';
import { RawJson, flattenSchema, generateValid, hostileValue, nested, randomText, randomUuid, wrongType, type Schema } from './values';

export type IdRef = 'agent' | 'otherAgent' | 'task' | 'post' | 'user' | 'other' | 'spare' | 'admin';
export type SecretRef = 'userEmail' | 'userPassword';
/** A value known only once fixtures exist, and how to write it where it goes. */
export interface Ref {
  ref: IdRef | SecretRef;
  encode: 'uri' | 'json' | 'raw';
}
export type Part = string | Buffer | Ref;

export type CredentialKind = 'user' | 'admin' | 'apiKey' | 'cookie' | 'cookieOrigin' | 'invalidBearer' | 'wrongApiKey' | 'other' | 'none' | 'metricsToken';
export const CREDENTIAL_KINDS: CredentialKind[] = ['user', 'admin', 'apiKey', 'cookie', 'cookieOrigin', 'invalidBearer', 'wrongApiKey', 'other', 'none'];

/** A request before fixtures are known: the same seed and index always give the same spec. */
export interface RequestSpec {
  index: number;
  labels: string[];
  operation: string;
  method: string;
  path: Part[];
  query: Part[];
  headers: Record<string, string>;
  credential: CredentialKind;
  conditional?: { header: 'if-match' | 'if-none-match'; kind: 'current' | 'stale' };
  body?: Part[];
  absoluteForm: boolean;
  /** Needs node:http: fetch cannot send it as it is. */
  raw: boolean;
  /** Needs a raw socket: a method Node's client or parser refuses, or absolute-form. */
  socket: boolean;
}

export interface FixtureView {
  ids: Record<IdRef, string>;
  secrets: Record<SecretRef, string>;
  /** Headers that carry each kind of credential. */
  credentials: Record<CredentialKind, Record<string, string>>;
  etagOf(path: string): { current?: string; stale?: string };
}

export type Transport = 'fetch' | 'http' | 'socket';

export interface ConcreteRequest {
  index: number;
  labels: string[];
  operation: string;
  method: string;
  /** Origin-form path and query, as written on the request line (absolute-form adds the base URL). */
  target: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  transport: Transport;
  absoluteForm: boolean;
}

const STANDARD_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const FETCH_METHODS = new Set([...STANDARD_METHODS, 'HEAD', 'OPTIONS']);
/** Methods Node's HTTP parser knows; anything else only travels through a raw socket. */
const PARSER_METHODS = new Set([...FETCH_METHODS, 'PROPFIND', 'TRACE', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'SEARCH', 'PURGE']);

/** Operations that hash or verify a password: argon2 makes them cost ~50 ms each. */
const WEIGHTS: Record<string, number> = {
  signUp: 0.12,
  logIn: 0.15,
  issueToken: 0.15,
  replaceUser: 0.35,
  updateUser: 0.5,
  deleteUser: 0.3,
  logOut: 0.3,
  startOAuthSignIn: 0.3,
  completeOAuthSignIn: 0.3,
  getLoginPage: 0.3,
  getHomePage: 0.3,
  listMyConnections: 0.4,
};

interface Draft {
  random: Random;
  labels: string[];
  operation: Operation;
  /** Methods with an operation on this path. */
  pathMethods: Set<string>;
  method: string;
  segments: Part[][];
  query: Array<{ key: string; value: Part[] }>;
  headers: Record<string, string>;
  credential: CredentialKind;
  conditional?: RequestSpec['conditional'];
  json?: { value: unknown };
  form?: Array<[string, Part[]]>;
  bodyParts?: Part[];
  contentType?: string | null;
  absoluteForm: boolean;
  raw: boolean;
  /** Needs a raw socket: framing Node's client would not send. */
  socket?: boolean;
}

const ref = (name: Ref['ref'], encode: Ref['encode']): Ref => ({ ref: name, encode });

function isRef(value: unknown): value is Ref {
  return typeof value === 'object' && value !== null && 'ref' in value && 'encode' in value && !(value instanceof Buffer);
}

/** JSON text as parts: fixture references and raw tokens stay separate until materialised. */
function jsonParts(value: unknown): Part[] {
  if (isRef(value)) return [{ ...value, encode: 'json' }];
  if (value instanceof RawJson) return [value.text];
  if (Array.isArray(value)) return ['[', ...value.flatMap((item, i) => (i ? [',', ...jsonParts(item)] : jsonParts(item))), ']'];
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return ['{', ...entries.flatMap(([key, item], i) => [i ? ',' : '', `${JSON.stringify(key)}:`, ...jsonParts(item)]), '}'];
  }
  return [JSON.stringify(value) ?? 'null'];
}

/** File names an operation's description mentions (`swagger-ui.css`): the real ones to ask for. */
function fileNamesOf(operation: Operation): string[] {
  return [...(operation.operation.description ?? '').matchAll(/`([\w.-]+\.(?:js|css|png|json|html|ico))`/g)].map((match) => match[1] as string);
}

function idFor(name: string, operation: Operation, random: Random): Part {
  const method = operation.method;
  switch (name) {
    case 'agent_id':
      return random.weighted<Part>([[ref('agent', 'uri'), 0.85], [ref('otherAgent', 'uri'), 0.1], [randomUuid(random), 0.05]]);
    case 'task_id':
      return random.weighted<Part>([[ref('task', 'uri'), 0.9], [randomUuid(random), 0.1]]);
    case 'user_id':
      return method === 'DELETE'
        ? random.weighted<Part>([[ref('spare', 'uri'), 0.5], [ref('user', 'uri'), 0.2], [ref('other', 'uri'), 0.2], [randomUuid(random), 0.1]])
        : random.weighted<Part>([[ref('user', 'uri'), 0.6], [ref('other', 'uri'), 0.15], [ref('admin', 'uri'), 0.1], [ref('spare', 'uri'), 0.05], [randomUuid(random), 0.1]]);
    case 'provider':
      return random.pick(['local', 'google', 'none', 'a-b-1']);
    default: {
      const files = fileNamesOf(operation);
      if (files.length && random.chance(0.7)) return random.pick(files);
      const schema = (operation.parameters.find((parameter) => parameter.in === 'path' && parameter.name === name)?.schema ?? {}) as Schema;
      return encodeURIComponent(valueText(generateValid(schema, random)) || 'x');
    }
  }
}

function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function queryValueFor(parameter: ParameterObject, template: string, random: Random): Array<{ key: string; value: Part[] }> {
  const schema = (parameter.schema ?? {}) as Schema;
  if (parameter.style === 'deepObject') {
    // One field's comparisons (`filter[created_at]`): `filter[created_at][gte]=...`.
    const ops = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
    return Array.from({ length: random.int(1, 2) }, () => {
      const [op, opSchema] = random.pick(ops);
      return { key: `${parameter.name}[${op}]`, value: [encodeURIComponent(valueText(generateValid(opSchema, random)))] };
    });
  }
  if (parameter.name === 'cursor') {
    const name: IdRef = template.endsWith('/posts') ? 'post' : template.endsWith('/tasks') ? 'task' : template.includes('users') ? 'user' : 'agent';
    return [{ key: 'cursor', value: [random.chance(0.7) ? ref(name, 'uri') : randomUuid(random)] }];
  }
  const value = generateValid(schema, random);
  const text = Array.isArray(value) && parameter.explode === false ? value.map(valueText).join(',') : valueText(value);
  return [{ key: parameter.name, value: [encodeURIComponent(text)] }];
}

function credentialFor(operation: Operation, random: Random): CredentialKind {
  const security = operation.operation.security;
  if (security && security.length === 0) return random.chance(0.8) ? 'none' : random.pick(CREDENTIAL_KINDS);
  const schemes = new Set((security ?? []).flatMap((requirement) => Object.keys(requirement)));
  if (schemes.has('MetricsToken')) return random.weighted<CredentialKind>([['metricsToken', 0.6], ['user', 0.15], ['invalidBearer', 0.1], ['none', 0.15]]);
  if (schemes.size > 0 && !schemes.has('ApiKeyAuth')) return random.weighted<CredentialKind>([['user', 0.6], ['admin', 0.3], ['other', 0.1]]);
  const write = !['GET', 'HEAD'].includes(operation.method);
  return random.weighted<CredentialKind>([
    ['user', 0.35],
    ['admin', 0.2],
    ['apiKey', 0.15],
    [write ? 'cookieOrigin' : 'cookie', 0.1],
    [write ? 'cookie' : 'cookieOrigin', 0.02],
    ['other', 0.05],
    ['none', 0.04],
    ['invalidBearer', 0.04],
    ['wrongApiKey', 0.04],
  ]);
}

/** A request the contract accepts as far as the generator can tell: real ids, schema-shaped values. */
function validDraft(operation: Operation, pathMethods: Set<string>, random: Random): Draft {
  const draft: Draft = {
    random,
    labels: [],
    operation,
    pathMethods,
    method: operation.method,
    segments: operation.template.split('/').map((segment) => (segment.startsWith('{') ? [idFor(segment.slice(1, -1), operation, random)] : [segment])),
    query: [],
    headers: {},
    credential: credentialFor(operation, random),
    absoluteForm: false,
    raw: false,
  };
  for (const parameter of operation.parameters) {
    if (parameter.in === 'query' && (parameter.required || random.chance(0.35))) draft.query.push(...queryValueFor(parameter, operation.template, random));
    if (parameter.in === 'header' && parameter.name === 'api-version' && random.chance(0.3)) draft.headers['api-version'] = '1.0';
    if (parameter.in === 'header' && parameter.name === 'If-Match' && random.chance(0.4)) draft.conditional = { header: 'if-match', kind: 'current' };
    // A few keys shared by every create: replays, keys reused with another request, keys in use.
    if (parameter.in === 'header' && parameter.name === 'Idempotency-Key' && random.chance(0.3)) draft.headers['idempotency-key'] = `fuzz-${random.pick(['a', 'b', 'c'])}`;
  }
  if (operation.method === 'GET' && random.chance(0.15)) draft.conditional = { header: 'if-none-match', kind: 'current' };
  const content = operation.operation.requestBody?.content ?? {};
  const mediaType = Object.keys(content)[0];
  if (mediaType === 'application/x-www-form-urlencoded') {
    const known = random.chance(0.75);
    draft.form = [
      ['grant_type', ['password']],
      ['username', [known ? ref('userEmail', 'uri') : encodeURIComponent(`nobody-${random.hex(6)}@example.test`)]],
      ['password', [known ? ref('userPassword', 'uri') : encodeURIComponent(randomText(random, 8, 20))]],
    ];
    if (random.chance(0.2)) draft.form.push(['scope', [encodeURIComponent(randomText(random, 0, 10))]]);
    draft.contentType = mediaType;
  } else if (mediaType) {
    const schema = (content[mediaType]?.schema ?? {}) as Schema;
    let value = generateValid(schema, random);
    if (operation.operation.operationId === 'logIn' && random.chance(0.75)) value = { email: ref('userEmail', 'json'), password: ref('userPassword', 'json') };
    draft.json = { value };
    draft.contentType = mediaType;
  }
  return draft;
}

/**
 * `alone`: a request Node's HTTP parser refuses before any route is chosen. It is the request's only
 * mutation: paired with another path or method it would be answered for a route api.yaml does not
 * declare, where no operation declares its status.
 */
type Mutation = { name: string; weight: number; alone?: true; applies(draft: Draft): boolean; apply(draft: Draft): void };

const hasBody = (draft: Draft) => draft.json !== undefined || draft.form !== undefined;
const jsonObject = (draft: Draft) => draft.json !== undefined && typeof draft.json.value === 'object' && draft.json.value !== null && !Array.isArray(draft.json.value);
const bodySchema = (draft: Draft): Schema | undefined => {
  const content = draft.operation.operation.requestBody?.content;
  const schema = content?.['application/json']?.schema;
  return schema ? flattenSchema(schema as Schema) : undefined;
};
const queryParameters = (draft: Draft) => draft.operation.parameters.filter((parameter) => parameter.in === 'query');
// From the draft's segments, not the template: earlier mutations (a doubled slash) shift them.
const paramIndexes = (draft: Draft) => draft.segments.flatMap((segment, i) => (segment.some((part) => typeof part !== 'string') ? [i] : []));
const literalIndexes = (draft: Draft) => draft.segments.flatMap((segment, i) => (segment.length === 1 && typeof segment[0] === 'string' && segment[0] !== '' ? [i] : []));
const setJsonField = (draft: Draft, name: string, value: unknown) => {
  draft.json = { value: { ...(draft.json?.value as Record<string, unknown>), [name]: value } };
};
const pickField = (draft: Draft): [string, Schema] => {
  const properties = Object.entries((bodySchema(draft)?.properties ?? {}) as Record<string, Schema>);
  return properties.length ? draft.random.pick(properties) : [`k${draft.random.hex(2)}`, {}];
};

const PROBE_PATHS = [
  '/nope',
  '/api',
  '/api/',
  '/api/v1',
  '/api/v2/agents',
  '/API/v1/users',
  '/api/V1/users',
  '/api/v1/Users',
  '/Token',
  '/token/',
  '/TOKEN',
  '/AGENTS',
  '/Agents',
  '/agents/',
  '//agents',
  '/agents//tasks',
  '/agents/%2e%2e',
  '/agents/..',
  '/agents/.',
  '/agents/%2F',
  '/health/',
  '/Health',
  '/health/ready/x',
  '/%00',
  '/agents%00',
  '/agents;x=1',
  '/favicon.ico',
  '/api/auth',
  '/api/auth/oauth',
  '/api/v1/me/',
  '/metrics',
  '/docs',
  '/redoc',
  '/openapi.json',
  '/login/',
  '/protected/',
];

const QUERY_KEYS = ['fields[21]=1', 'sort[a]=b', '__proto__[x]=1', 'constructor[prototype][x]=1', 'filter[name]=x', 'filter[name][eq][x]=1', 'filter=1', 'filter[]=1', 'limit[]=1', 'a[b][c][d][e][f][g]=1', 'toString=1', 'hasOwnProperty=1', '__proto__=1'];
const ODD_DATES = ['2026-01-01T23:59:60Z', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '2026-02-30T00:00:00Z', '2026-01-01', '2026-01-01T00:00:00', '2026-01-01T00:00:00+25:00', '-000001-01-01T00:00:00Z', '+275760-09-13T00:00:00.000Z', '1970-01-01T00:00:00.0000000001Z', 'now'];
const QUERY_VALUES = ['0', '-1', '1001', '101', '1e309', 'Infinity', '-Infinity', '1.5', '-0', 'abc', '', '99999999999999999999', '%20%205', '0x10', '%00', '%ZZ', '%C0%80', '%FF', '1%00', '2147483648', 'true', 'null', '%F0%9F%98%80'.repeat(30), '%ED%A0%80', 'a%ED%B0%80b', '%C3%28', '%E2%80%AE'];
const MALFORMED_JSON = ['{"broken": ', "{'a':1}", '{"a":1,}', '', 'null', '[]', '"text"', '123', '\ufeff{}', '{"a":1}{"b":2}', '{"a":NaN}', '{"a":Infinity}', '{"a":01}', '{"a":"\\x41"}', '{"a":"\t"}', '{"a" 1}', '}', '{"a":1', '[' + '{'.repeat(5)];
const INVALID_UTF8 = [Buffer.from([0xff, 0xfe]), Buffer.from([0xc3, 0x28]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xc0, 0xaf]), Buffer.from([0xf4, 0x90, 0x80, 0x80]), Buffer.from([0xe2, 0x82])];
const CONTENT_TYPES: Array<string | null> = [null, 'text/plain', 'application/xml', 'multipart/form-data; boundary=fuzz', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/merge-patch+json', 'application/x-www-form-urlencoded', 'application/json;;', 'APPLICATION/JSON', 'application/json; charset="utf-8"', '*/*', 'application/vnd.api+json', 'json'];
const GARBAGE_TAGS = ['garbage', '"', 'W/"x"', `"${'a'.repeat(600)}"`, '"x", W/"y"', ', ,', '*, "x"'];

/** A conditional header: the fixture's current or a stale ETag, `*`, or garbage. */
function conditionalMutation(header: 'if-none-match' | 'if-match', weight: number): Mutation {
  return {
    name: header,
    weight,
    applies: () => true,
    apply: (d) => {
      const choice = d.random.pick(['current', 'stale', '*', 'garbage'] as const);
      d.conditional = undefined;
      if (choice === 'current' || choice === 'stale') d.conditional = { header, kind: choice };
      else d.headers[header] = choice === '*' ? '*' : d.random.pick(GARBAGE_TAGS);
    },
  };
}

const MUTATIONS: Mutation[] = [
  // Requests the HTTP parser refuses: every operation declares how it answers them (400, 417, 431).
  { name: 'headers-too-large', weight: 0.5, alone: true, applies: () => true, apply: (d) => { d.headers['x-padding'] = 'x'.repeat(d.random.pick([17_000, 40_000])); d.raw = true; } },
  { name: 'unsupported-expect', weight: 0.5, alone: true, applies: () => true, apply: (d) => { d.headers.expect = d.random.pick(['200-ok', 'something', '100-continue-please']); d.raw = true; } },
  {
    name: 'conflicting-framing',
    weight: 0.5,
    alone: true,
    applies: () => true,
    apply: (d) => {
      // Content-Length (the socket transport writes it for a body) together with Transfer-Encoding.
      d.headers['transfer-encoding'] = 'chunked';
      d.bodyParts = ['0\r\n\r\n'];
      d.json = undefined;
      d.form = undefined;
      d.socket = true;
    },
  },
  // Paths.
  { name: 'probe-path', weight: 3, applies: () => true, apply: (d) => { d.segments = [[d.random.pick(PROBE_PATHS)]]; } },
  {
    name: 'case-variant',
    weight: 2,
    applies: (d) => literalIndexes(d).length > 0,
    apply: (d) => {
      const i = d.random.pick(literalIndexes(d));
      const word = String(d.segments[i]?.[0] ?? '');
      d.segments[i] = [d.random.chance(0.5) ? word.toUpperCase() : word.charAt(0).toUpperCase() + word.slice(1)];
    },
  },
  { name: 'trailing-slash', weight: 1.5, applies: () => true, apply: (d) => { d.segments.push(['']); } },
  { name: 'double-slash', weight: 1.5, applies: () => true, apply: (d) => { d.segments.splice(d.random.int(1, d.segments.length - 1), 0, ['']); } },
  { name: 'unknown-suffix', weight: 1, applies: () => true, apply: (d) => { d.segments.push([d.random.pick(['nope', 'x', '..', '%2e%2e', 'tasks', 'posts', '1'])]); } },
  {
    name: 'odd-id',
    weight: 4,
    applies: (d) => paramIndexes(d).length > 0,
    apply: (d) => {
      const i = d.random.pick(paramIndexes(d));
      d.segments[i] = [d.random.pick(['x', '0', '-1', '%2e%2e', '..', '.', '%2F', '%00', 'a%00b', '%ZZ', '%20', '%F0%9F%98%80', 'x'.repeat(600), 'NULL', "1'%20OR%20'1'='1", '00000000-0000-0000-0000-000000000000', randomUuid(d.random).toUpperCase(), `{${'agent_id'}}`, '%7Bagent_id%7D', '%25', '~', ';', 'a;b=c', '%ED%A0%80', 'x%ED%B0%80', '%C3%28', '%FF'])];
    },
  },
  // Methods.
  {
    name: 'wrong-method',
    weight: 3,
    applies: (d) => STANDARD_METHODS.some((method) => !d.pathMethods.has(method)),
    apply: (d) => { d.method = d.random.pick(STANDARD_METHODS.filter((method) => !d.pathMethods.has(method))); },
  },
  { name: 'head', weight: 1.5, applies: () => true, apply: (d) => { d.method = 'HEAD'; } },
  { name: 'options', weight: 1.5, applies: () => true, apply: (d) => { d.method = 'OPTIONS'; } },
  { name: 'odd-method', weight: 1, applies: () => true, apply: (d) => { d.method = d.random.pick(['PROPFIND', 'TRACE', 'MKCOL', 'SEARCH', 'get', 'FOO']); } },
  { name: 'absolute-form', weight: 1.5, applies: () => true, apply: (d) => { d.absoluteForm = true; } },
  // Credentials and headers.
  { name: 'credential', weight: 3, applies: () => true, apply: (d) => { d.credential = d.random.pick(CREDENTIAL_KINDS); } },
  conditionalMutation('if-none-match', 1.5),
  conditionalMutation('if-match', 2),
  { name: 'api-version', weight: 1.5, applies: () => true, apply: (d) => { d.headers['api-version'] = d.random.pick(['1.0', '2', '', 'garbage', ' 1.0 ', '1.0, 2', '1', '1.00', 'x'.repeat(300)]); } },
  {
    name: 'request-id',
    weight: 1,
    applies: () => true,
    apply: (d) => {
      const value = d.random.pick(['', 'a b', '<script>', 'x'.repeat(129), 'x'.repeat(2000), '../..', 'id\u00e9', '"quoted"', 'ok-id.1:2_3']);
      d.headers['x-request-id'] = value;
      if (/[^\x20-\x7e]/.test(value)) d.raw = true;
    },
  },
  {
    name: 'idempotency-key',
    weight: 1,
    applies: (d) => d.operation.parameters.some((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key'),
    apply: (d) => {
      const value = d.random.pick(['', 'a b', 'x'.repeat(256), 'x'.repeat(255), 'cl\u00e9', 'tab\there', `fresh-${d.random.hex(8)}`, 'fuzz-a']);
      d.headers['idempotency-key'] = value;
      if (/[^\x20-\x7e]/.test(value)) d.raw = true;
    },
  },
  { name: 'origin', weight: 0.5, applies: () => true, apply: (d) => { d.headers.origin = d.random.pick(['null', 'http://evil.example', 'http://localhost:8000/', 'HTTP://LOCALHOST:8000']); } },
  // Queries.
  {
    name: 'query-value',
    weight: 4,
    applies: (d) => queryParameters(d).length > 0,
    apply: (d) => {
      const parameter = d.random.pick(queryParameters(d));
      const key = parameter.style === 'deepObject' ? `${parameter.name}[${d.random.pick(Object.keys((parameter.schema?.properties ?? { name: 1 }) as object))}][${d.random.pick(['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'like', 'EQ'])}]` : parameter.name;
      d.query = d.query.filter((item) => item.key !== key);
      d.query.push({ key, value: [d.random.pick(QUERY_VALUES)] });
    },
  },
  {
    name: 'duplicate-query',
    weight: 1.5,
    applies: (d) => queryParameters(d).length > 0,
    apply: (d) => {
      const parameter = d.random.pick(queryParameters(d));
      const values = parameter.name === 'limit' ? ['1', '2'] : parameter.name === 'status' ? ['idle', 'paused'] : ['a', 'b'];
      for (const value of values) d.query.push({ key: parameter.name, value: [value] });
    },
  },
  { name: 'nested-query', weight: 2, applies: () => true, apply: (d) => { const [key, value] = d.random.pick(QUERY_KEYS).split('='); d.query.push({ key: key ?? '', value: [value ?? ''] }); } },
  {
    name: 'date-filter',
    weight: 1.5,
    applies: (d) => queryParameters(d).some((parameter) => parameter.style === 'deepObject'),
    apply: (d) => { d.query.push({ key: `filter[created_at][${d.random.pick(['gte', 'lt', 'eq', 'ne'])}]`, value: [encodeURIComponent(d.random.pick(ODD_DATES))] }); },
  },
  {
    name: 'fields-odd',
    weight: 1,
    applies: (d) => queryParameters(d).some((parameter) => parameter.name === 'fields'),
    apply: (d) => { d.query.push({ key: 'fields', value: [d.random.pick(['', 'name,name', 'password', 'id', 'nope', ',', 'name,,status', 'NAME', 'tasks', 'task_counts', 'posts', 'a'.repeat(500)])] }); },
  },
  { name: 'unknown-query', weight: 1, applies: () => true, apply: (d) => { d.query.push({ key: d.random.pick(['foo', 'limit', 'skip', 'page', 'sort', 'include', 'cursor', '', '%00', 'a%ZZ']), value: [d.random.pick(QUERY_VALUES)] }); } },
  // Bodies.
  { name: 'field-wrong-type', weight: 3, applies: jsonObject, apply: (d) => { const [name, schema] = pickField(d); setJsonField(d, name, wrongType(schema, d.random)); } },
  { name: 'field-hostile', weight: 5, applies: jsonObject, apply: (d) => { const [name, schema] = pickField(d); setJsonField(d, name, hostileValue(schema, d.random)); } },
  {
    name: 'drop-required',
    weight: 1,
    applies: (d) => jsonObject(d) && ((bodySchema(d)?.required as string[] | undefined) ?? []).length > 0,
    apply: (d) => {
      const value = { ...(d.json?.value as Record<string, unknown>) };
      delete value[d.random.pick((bodySchema(d)?.required as string[]) ?? [])];
      d.json = { value };
    },
  },
  { name: 'extra-property', weight: 1, applies: jsonObject, apply: (d) => { setJsonField(d, d.random.pick(['role', 'id', 'owner_id', 'status', 'created_at', 'unknown', '', 'password']), d.random.pick<unknown>(['admin', randomUuid(d.random), 1, null])); } },
  {
    name: 'proto-key',
    weight: 1,
    applies: jsonObject,
    apply: (d) => {
      const rest = jsonParts(d.json?.value).slice(1);
      d.bodyParts = [`{"__proto__":{"role":"admin","status":"running"},"constructor":{"prototype":{"x":1}}${rest.length > 1 ? ',' : ''}`, ...rest];
    },
  },
  {
    name: 'deep-input',
    weight: 1.5,
    applies: (d) => jsonObject(d) && ['createTask', 'createTaskV1', 'updateTask', 'updateTaskV1'].includes(d.operation.operation.operationId ?? ''),
    apply: (d) => {
      const field = d.operation.operation.operationId?.startsWith('create') ? 'input' : 'result';
      const depth = d.random.pick([101, 150, 1000, 5000]);
      setJsonField(d, field, field === 'input' ? nested(depth, 'object') : nested(depth, d.random.pick(['array', 'object'] as const)));
      if (field === 'result') setJsonField(d, 'status', 'succeeded');
    },
  },
  { name: 'deep-top', weight: 1, applies: () => true, apply: (d) => { d.json = { value: nested(d.random.pick([101, 200, 2000, 20000]), d.random.pick(['array', 'object'] as const)) }; d.form = undefined; d.contentType ??= 'application/json'; } },
  { name: 'malformed-json', weight: 2.5, applies: () => true, apply: (d) => { d.bodyParts = [d.random.pick(MALFORMED_JSON)]; d.contentType = 'application/json'; } },
  {
    name: 'invalid-utf8',
    weight: 1.5,
    applies: () => true,
    apply: (d) => {
      const [name] = pickField(d);
      d.bodyParts = [`{${JSON.stringify(name)}:"a`, d.random.pick(INVALID_UTF8), 'b"}'];
      d.contentType = d.contentType === 'application/x-www-form-urlencoded' ? d.contentType : 'application/json';
      d.raw = true;
    },
  },
  { name: 'content-type', weight: 2.5, applies: () => true, apply: (d) => { d.contentType = d.random.pick(CONTENT_TYPES); } },
  {
    name: 'xml-or-multipart',
    weight: 1,
    applies: () => true,
    apply: (d) => {
      if (d.random.chance(0.5)) {
        d.contentType = 'application/xml';
        d.bodyParts = ['<?xml version="1.0"?><agent><name>x</name></agent>'];
      } else {
        d.contentType = 'multipart/form-data; boundary=fuzz';
        d.bodyParts = ['--fuzz\r\nContent-Disposition: form-data; name="name"\r\n\r\nscout\r\n--fuzz\r\nContent-Disposition: form-data; name="type"\r\n\r\ntype_a\r\n--fuzz--\r\n'];
      }
    },
  },
  { name: 'content-encoding', weight: 2, applies: () => true, apply: (d) => { d.headers['content-encoding'] = d.random.pick(['gzip', 'deflate', 'br', 'compress', 'foo', 'identity', 'gzip, gzip', 'GZIP', '']); d.contentType ??= 'application/json'; } },
  { name: 'gzipped', weight: 1, applies: hasBody, apply: (d) => { d.headers['content-encoding'] = 'gzip'; d.labels.push('gzip-body'); } },
  { name: 'form-body', weight: 1, applies: jsonObject, apply: (d) => { d.contentType = 'application/x-www-form-urlencoded'; d.bodyParts = [Object.entries(d.json?.value as Record<string, unknown>).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(valueText(v))}`).join('&')]; } },
  { name: 'json-to-token', weight: 0.5, applies: (d) => d.form !== undefined, apply: (d) => { d.contentType = 'application/json'; d.bodyParts = ['{"grant_type":"password","username":', ref('userEmail', 'json'), ',"password":', ref('userPassword', 'json'), '}']; } },
  {
    name: 'token-form',
    weight: 1.5,
    applies: (d) => d.form !== undefined,
    apply: (d) => {
      const pairs = d.random.pick([
        'grant_type=client_credentials',
        'grant_type=password&username=&password=',
        'grant_type=password&grant_type=password&username=a&password=b',
        'grant_type=refresh_token&refresh_token=x',
        'username=a&password=b',
        'grant_type=password&username=%00&password=%00',
        'grant_type=password&username[x]=1&password=1',
        `grant_type=password&username=${'a'.repeat(5000)}&password=x`,
        'grant_type=password&username=%FF&password=%C0%80',
        '%%%',
        '',
      ]);
      d.bodyParts = [pairs];
    },
  },
  { name: 'body-on-bodyless', weight: 2, applies: (d) => !hasBody(d), apply: (d) => { d.bodyParts = [d.random.pick(['{"a":1}', '{"broken": ', '[]', 'x'.repeat(100)])]; d.contentType = d.random.pick(['application/json', 'text/plain', null]); d.raw = true; } },
  { name: 'empty-body', weight: 1, applies: hasBody, apply: (d) => { d.bodyParts = []; } },
  { name: 'oversized', weight: 0.2, applies: () => true, apply: (d) => { d.bodyParts = [`{"name":"${'x'.repeat(1_100_000)}","type":"type_a"}`]; d.contentType ??= 'application/json'; } },
  {
    name: 'big-input',
    weight: 0.5,
    applies: (d) => jsonObject(d) && ['createTask', 'createTaskV1', 'updateTask', 'updateTaskV1'].includes(d.operation.operation.operationId ?? ''),
    apply: (d) => {
      const field = d.operation.operation.operationId?.startsWith('create') ? 'input' : 'result';
      setJsonField(d, field, { blob: '😀'.repeat(d.random.pick([16384, 16385, 20000])) });
      if (field === 'result') setJsonField(d, 'status', 'succeeded');
    },
  },
];

/** The request spec with everything but fixture values decided. */
function finalize(draft: Draft, index: number): RequestSpec {
  const headers = { ...draft.headers };
  let body: Part[] | undefined = draft.bodyParts;
  if (!body && draft.form) body = draft.form.flatMap(([key, value], i) => [i ? '&' : '', `${key}=`, ...value]);
  if (!body && draft.json) body = jsonParts(draft.json.value);
  if (body && draft.contentType) headers['content-type'] = draft.contentType;
  if (body && draft.labels.includes('gzip-body') && body.every((part) => !isRef(part))) body = [gzipSync(Buffer.concat(body.map((part) => (typeof part === 'string' ? Buffer.from(part) : (part as Buffer)))))];
  const method = draft.method;
  const path = draft.segments.flatMap((segment, i) => (i ? ['/', ...segment] : segment));
  const query = draft.query.flatMap((item, i) => [i ? '&' : '', `${item.key}=`, ...item.value]);
  const literal = [...path, '?', ...query].map((part) => (typeof part === 'string' ? part : 'x')).join('');
  // WHATWG URLs (fetch) resolve dot segments and re-encode some characters: such targets go raw.
  const reshapedByUrl = /(^|\/)(\.|%2e){1,2}(\/|\?|$)|[^A-Za-z0-9\-._~!$&'()*+,;=:@%/?[\]]/i.test(literal);
  const raw =
    draft.raw ||
    !FETCH_METHODS.has(method) ||
    ((method === 'GET' || method === 'HEAD') && body !== undefined) ||
    reshapedByUrl ||
    Object.values(headers).some((value) => /[^\x20-\x7e]/.test(value));
  return {
    index,
    labels: draft.labels,
    operation: `${draft.operation.method} ${draft.operation.template}`,
    method,
    path,
    query,
    headers,
    credential: draft.credential,
    conditional: draft.conditional,
    body,
    absoluteForm: draft.absoluteForm,
    raw,
    socket: draft.absoluteForm || draft.socket === true || !PARSER_METHODS.has(method),
  };
}

export interface RequestGenerator {
  generate(index: number): RequestSpec;
}

/** Valid requests per operation of api.yaml, and (most of the time) one or two mutations of them. */
export function createRequestGenerator(contract: Contract, seed: number): RequestGenerator {
  const operations = contract.operations.map((operation) => [operation, WEIGHTS[operation.operation.operationId ?? ''] ?? 1] as const);
  const methodsOf = new Map<string, Set<string>>();
  for (const { template, method } of contract.operations) methodsOf.set(template, (methodsOf.get(template) ?? new Set()).add(method));
  return {
    generate(index) {
      const random = randomForIndex(seed, index);
      const operation = random.weighted(operations);
      const draft = validDraft(operation, methodsOf.get(operation.template) ?? new Set(), random);
      if (random.chance(0.6)) {
        for (let count = random.chance(0.25) ? 2 : 1, first = true; count > 0; count--, first = false) {
          const mutation = random.weighted(MUTATIONS.filter((candidate) => candidate.applies(draft) && (first || !candidate.alone)).map((candidate) => [candidate, candidate.weight] as const));
          draft.labels.push(mutation.name);
          mutation.apply(draft);
          if (mutation.alone) break;
        }
      } else draft.labels.push('valid');
      return finalize(draft, index);
    },
  };
}

function resolve(part: Part, fixtures: FixtureView): string | Buffer {
  if (typeof part === 'string' || Buffer.isBuffer(part)) return part;
  const value = part.ref in fixtures.ids ? fixtures.ids[part.ref as IdRef] : fixtures.secrets[part.ref as SecretRef];
  if (part.encode === 'uri') return encodeURIComponent(value);
  if (part.encode === 'json') return JSON.stringify(value);
  return value;
}

const joinText = (parts: Part[], fixtures: FixtureView) => parts.map((part) => resolve(part, fixtures).toString()).join('');

/** Fills a spec with the fixtures of the moment: ids, credentials and ETags. */
export function materialize(spec: RequestSpec, fixtures: FixtureView): ConcreteRequest {
  const path = joinText(spec.path, fixtures);
  const query = joinText(spec.query, fixtures);
  const headers: Record<string, string> = { ...fixtures.credentials[spec.credential], ...spec.headers };
  if (spec.conditional) {
    const tags = fixtures.etagOf(path);
    const tag = spec.conditional.kind === 'current' ? tags.current : (tags.stale ?? '"stale-0000"');
    if (tag) headers[spec.conditional.header] = tag;
  }
  const body = spec.body ? Buffer.concat(spec.body.map((part) => { const value = resolve(part, fixtures); return typeof value === 'string' ? Buffer.from(value) : value; })) : undefined;
  const transport: Transport = spec.socket ? 'socket' : spec.raw ? 'http' : 'fetch';
  return { index: spec.index, labels: spec.labels, operation: spec.operation, method: spec.method, target: query ? `${path}?${query}` : path, path, headers, body, transport, absoluteForm: spec.absoluteForm };
}
