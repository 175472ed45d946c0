import type { Contract, Operation, ParameterObject } from '../fuzzer/contract';
import { flattenSchema, type Schema } from '../fuzzer/values';
import { isValid, propertiesOf, samplesOf, strongPassword, unique, whyInvalid } from './samples';

/**
 * A client of a running service that knows nothing but its OpenAPI document: it finds the create
 * and replace operations, builds bodies they accept, makes the resources a path names (each
 * `{param}` by the create operation of the collection before it) and signs in as the users it
 * makes. The spec-drift walker and the declared-status matrix build their requests with it.
 */

export interface WriteOperation {
  /** `POST /agents`. */
  name: string;
  operation: Operation;
  kind: 'create' | 'replace';
  /** The success the operation declares: 201 for a create, its 2xx for a replace. */
  success: number;
  /** The request body's schema, `allOf` merged: one of its shapes when it is a `oneOf` of objects (a write for each). */
  body: Schema;
  /** Whether api.yaml requires a `Location` on its 201. */
  location: boolean;
}

/** Every create (POST answering 201) and replace (PUT) operation with a JSON body, in api.yaml's order; one per shape of a `oneOf` body. */
export function writeOperations(contract: Contract): WriteOperation[] {
  const writes: WriteOperation[] = [];
  for (const operation of contract.operations) {
    const schema = jsonBodyOf(operation);
    const responses = operation.operation.responses ?? {};
    if (!schema) continue;
    const kind = operation.method === 'POST' && responses['201'] ? 'create' : operation.method === 'PUT' ? 'replace' : undefined;
    if (!kind) continue;
    const success = kind === 'create' ? '201' : Object.keys(responses).find((status) => /^2\d\d$/.test(status));
    if (!success) throw new Error(`${operation.method} ${operation.template} declares no success`);
    const location = Object.entries(responses[success]?.headers ?? {}).some(([name, header]) => name.toLowerCase() === 'location' && header.required === true);
    for (const body of shapesOf(schema)) writes.push({ name: `${operation.method} ${operation.template}`, operation, kind, success: Number(success), body, location });
  }
  return writes;
}

/** The operation's JSON request body schema, `allOf` merged. */
export function jsonBodyOf(operation: Operation): Schema | undefined {
  const schema = operation.operation.requestBody?.content?.['application/json']?.schema;
  return schema ? flattenSchema(schema) : undefined;
}

/** A body that is one of several objects (`oneOf` without properties of its own): each of them, `allOf` merged; otherwise the body itself. */
export function shapesOf(schema: Schema): Schema[] {
  const alternatives = schema.oneOf as Schema[] | undefined;
  return !schema.properties && alternatives ? alternatives.map(flattenSchema) : [schema];
}

/** The `tokenUrl`s of the document's OAuth 2.0 password flows. */
export function passwordTokenUrls(contract: Contract): string[] {
  const schemes = ((contract.document.components as { securitySchemes?: Record<string, { flows?: { password?: { tokenUrl?: string } } }> } | undefined)?.securitySchemes ?? {}) as Record<string, { flows?: { password?: { tokenUrl?: string } } }>;
  return Object.values(schemes).flatMap((scheme) => (scheme.flows?.password?.tokenUrl ? [scheme.flows.password.tokenUrl] : []));
}

/** The header names of the API-key schemes (`type: apiKey, in: header`) an operation accepts. */
export function apiKeyHeadersOf(contract: Contract, operation: Operation): string[] {
  const schemes = ((contract.document.components as { securitySchemes?: Record<string, { type?: string; in?: string; name?: string }> } | undefined)?.securitySchemes ?? {}) as Record<string, { type?: string; in?: string; name?: string }>;
  const requirements = (operation.operation.security ?? (contract.document.security as Array<Record<string, string[]>> | undefined) ?? []) as Array<Record<string, string[]>>;
  return [...new Set(requirements.flatMap((requirement) => Object.keys(requirement)).flatMap((key) => {
    const scheme = schemes[key];
    return scheme?.type === 'apiKey' && scheme.in === 'header' && scheme.name ? [scheme.name] : [];
  }))];
}

/** `security: []`: no credential needed. */
export const isPublic = (operation: Operation) => Array.isArray(operation.operation.security) && operation.operation.security.length === 0;

/**
 * How a write-only property shows that it was stored, since no read returns it:
 * - `secret`: signing in with the value sent succeeds, and with the value it replaced fails;
 * - `proof`: it is not stored at all but proves the caller's identity for a change of the secret
 *   (the current password): every request of the operation carries the right one, and the same
 *   change with a wrong one is refused with 403 and changes nothing.
 * - `request`: it shapes only how its own request is answered (how long a claim may wait for a
 *   task) and is kept nowhere: the create that carries it succeeding is all there is to see.
 * A write-only property not named here fails the walk: its effect has to be taught first.
 */
export const WRITE_ONLY_EFFECTS: Record<string, 'secret' | 'proof' | 'lifetime' | 'request'> = {
  password: 'secret',
  current_password: 'proof',
  /** Days of life: the resource's `expires_at` is its `created_at` plus that many days. */
  expires_in_days: 'lifetime',
  wait_seconds: 'request',
};

/** The operation the client signs in with (e-mail and password in, an access token out). */
export const SIGN_IN_OPERATION_ID = 'logIn';

export type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export interface Exchange {
  status: number;
  headers: Headers;
  /** Parsed when it is JSON, the text otherwise. */
  body: unknown;
  text: string;
}

export interface Session {
  token: string;
  /** The principal's password, when known (the proof a credential change needs). */
  password?: string;
}

/** A path made real: the resources it names exist, and `session` may reach them. */
export interface Resolved {
  path: string;
  session: Session;
  /** The id of the last resource in the path, if it names one. */
  id?: string;
}

/** What the client could not do, as the test should report it (any other error is a bug here). */
export class SpecFailure extends Error {}
export function fail(message: string): never {
  throw new SpecFailure(message);
}
export const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};

export interface SendOptions {
  session?: Session;
  /** JSON, sent as application/json. */
  body?: unknown;
  headers?: Record<string, string>;
  /** A body sent as it is (with its own Content-Type in `headers`). */
  raw?: string;
}

export class SpecClient {
  readonly writes: WriteOperation[];
  private readonly signInOperation: Operation;
  private readonly signInFields: string[];
  /** The field of the sign-in body that carries the secret; the others (the e-mail) come from the resource. */
  readonly signInSecret: string;

  constructor(
    readonly contract: Contract,
    readonly baseUrl: string,
    /** Whom requests are made as, unless the path names a user the client signs up (and then signs in as). */
    readonly principal: Session,
  ) {
    this.writes = writeOperations(contract);
    const signIn = contract.operations.find((operation) => operation.operation.operationId === SIGN_IN_OPERATION_ID);
    if (!signIn) throw new Error(`the document has no ${SIGN_IN_OPERATION_ID} operation to sign in with`);
    this.signInOperation = signIn;
    const schema = jsonBodyOf(signIn) ?? {};
    this.signInFields = (schema.required ?? []) as string[];
    const secret = propertiesOf(schema).find(([, property]) => property.format === 'password')?.[0];
    if (!secret) throw new Error(`${SIGN_IN_OPERATION_ID} has no password field`);
    this.signInSecret = secret;
  }

  async send(method: string, path: string, options: SendOptions = {}): Promise<Exchange> {
    const { session, body, raw } = options;
    const res = await fetch(new URL(path, this.baseUrl), {
      method,
      redirect: 'manual',
      headers: { ...(session ? { authorization: `Bearer ${session.token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') parsed = JSON.parse(text) as unknown;
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  /** The resource in a body: bare, or in the envelope's `data` (in a list, the item with the id). */
  resourceOf(exchange: Exchange, id?: string): Json {
    let node = exchange.body;
    if (isObject(node) && 'data' in node && 'meta' in node) node = node.data;
    if (Array.isArray(node)) node = node.find((item) => isObject(item) && item.id === id);
    return isObject(node) ? node : fail(`no resource${id ? ` with id ${id}` : ''} in ${show(exchange.body)}`);
  }

  expectStatus(exchange: Exchange, status: number, what: string): void {
    if (exchange.status !== status) fail(`${what} answered ${exchange.status}, not ${status}: ${show(exchange.body)}`);
  }

  /** Signs in with the sign-in operation's fields taken from `credentials`. */
  signIn(credentials: Json): Promise<Exchange> {
    const { method, template } = this.signInOperation;
    return this.send(method, template, { body: Object.fromEntries(this.signInFields.map((field) => [field, credentials[field]])) });
  }

  /** Signing in as the resource (its e-mail) with `secret` answers `status`. */
  async expectSignIn(resource: Json, secret: string, status: number, what: string): Promise<void> {
    const credentials: Json = { ...resource, [this.signInSecret]: secret };
    if (!this.signInFields.every((field) => typeof credentials[field] === 'string')) fail(`the resource has no ${this.signInFields.join(' and ')} to sign in with: ${show(resource)}`);
    const res = await this.signIn(credentials);
    if (res.status !== status) fail(`${what}: signing in answered ${res.status}, not ${status}`);
  }

  /**
   * A body the operation accepts, its required properties from `current` (what is stored, for a
   * replace) or fresh samples, the proof of identity when it declares one, `except` left out.
   */
  bodyFor(schema: Schema, session: Session, except?: string, current?: Json): Json {
    const body: Json = {};
    const required = new Set((schema.required ?? []) as string[]);
    for (const [name, property] of propertiesOf(schema)) {
      if (name === except || property.readOnly === true) continue;
      if (WRITE_ONLY_EFFECTS[name] === 'proof' && session.password !== undefined) body[name] = session.password;
      else if (required.has(name)) body[name] = current && name in current ? current[name] : samplesOf(name, property)[0];
    }
    return body;
  }

  /**
   * A body the operation accepts, in the first media type it declares (JSON or a form), or
   * undefined when it takes none. A partial update gets as many properties as it needs.
   */
  requestBodyOf(operation: Operation, session: Session): { contentType: string; raw: string } | undefined {
    const [contentType, media] = Object.entries(operation.operation.requestBody?.content ?? {})[0] ?? [];
    if (!contentType || !media?.schema) return undefined;
    const whole = flattenSchema(media.schema);
    // A body of several shapes (`oneOf`: a lease's heartbeat, success or failure) is built as its first.
    const alternatives = (whole.oneOf ?? whole.anyOf) as Schema[] | undefined;
    const schema = !whole.properties && alternatives?.[0] ? flattenSchema(alternatives[0]) : whole;
    const body = this.bodyFor(schema, session);
    // The token endpoint of an OAuth 2.0 password flow takes RFC 6749 section 4.3.2's grant, whatever its schema allows.
    if (passwordTokenUrls(this.contract).includes(operation.template)) Object.assign(body, { grant_type: 'password', username: `drift-${unique()}@example.test`, password: strongPassword() });
    const minimum = typeof schema.minProperties === 'number' ? schema.minProperties : 0;
    for (const [name, property] of propertiesOf(schema)) {
      if (Object.keys(body).length >= minimum) break;
      if (!(name in body) && property.readOnly !== true && property.writeOnly !== true) body[name] = samplesOf(name, property)[0];
    }
    if (!isValid(whole, body)) fail(`the client built a body ${operation.method} ${operation.template} refuses: ${show(body)} (${whyInvalid(schema)})`);
    if (contentType === 'application/x-www-form-urlencoded') return { contentType, raw: new URLSearchParams(Object.entries(body).map(([key, value]) => [key, String(value)])).toString() };
    return { contentType, raw: JSON.stringify(body) };
  }

  /** Creates with `body`: the answer's resource, where to read it back, and whom to read it as. */
  async create(write: WriteOperation, path: string, session: Session, body: Json): Promise<{ written: Json; readPath: string; id: string; session: Session }> {
    if (!isValid(write.body, body)) fail(`the client built a body api.yaml refuses: ${show(body)} (${whyInvalid(write.body)})`);
    if (write.operation.operation.responses?.['204']) await this.feed(write, path, session);
    const created = await this.send(write.operation.method, path, { session, body });
    this.expectStatus(created, write.success, write.name);
    const written = this.resourceOf(created);
    const id = typeof written.id === 'string' ? written.id : fail(`${write.name} answered no id: ${show(created.body)}`);
    const location = created.headers.get('location');
    if (write.location && !location) fail(`${write.name} answered 201 without its required Location`);
    // A public create (sign-up) makes a principal: what happens under its path is done as it.
    let owner = session;
    if (isPublic(write.operation) && this.signInFields.every((field) => field in body)) {
      const signedIn = await this.signIn(body);
      this.expectStatus(signedIn, 200, `signing in as the principal ${write.name} created`);
      const token = this.resourceOf(signedIn).access_token;
      const password = body[this.signInSecret];
      owner = { token: typeof token === 'string' ? token : fail(`sign-in answered no access_token: ${show(signedIn.body)}`), password: typeof password === 'string' ? password : undefined };
    }
    // Without a Location (a post has no address of its own) the collection it was posted to has it.
    return { written, readPath: location ?? path, id, session: owner };
  }

  /**
   * A create that declares 204 hands out what its parent holds (a claim of a work queue: a lease
   * takes one of the agent's queued tasks) and answers 204 when there is nothing. Before it, the
   * first other collection of the same parent that can make an item makes one.
   */
  private async feed(write: WriteOperation, path: string, session: Session): Promise<void> {
    const parentOf = (template: string) => template.slice(0, template.lastIndexOf('/'));
    const parentTemplate = parentOf(write.operation.template);
    const parentPath = parentOf(path);
    for (const sibling of this.writes.filter((other) => other.kind === 'create' && other !== write && !other.operation.operation.responses?.['204'] && parentOf(other.operation.template) === parentTemplate)) {
      const siblingPath = `${parentPath}${sibling.operation.template.slice(parentTemplate.length)}`;
      const made = await this.create(sibling, siblingPath, session, this.bodyFor(sibling.body, session)).catch((failure: unknown) => (failure instanceof SpecFailure ? undefined : Promise.reject(failure)));
      if (made) return;
    }
  }

  /**
   * The collection a body property names an item of, when it does: a property that shares its name
   * with a path parameter (`workspace_id`, `{workspace_id}`) names what that parameter names, an
   * item of the collection before it, made by that collection's create operation. Such a value
   * must name a resource that exists and that the caller may use: a sample of its format will not do.
   */
  referenceTemplate(property: string): string | undefined {
    const parameter = `/{${property}}`;
    for (const operation of this.contract.operations) {
      const at = operation.template.indexOf(parameter);
      if (at < 0) continue;
      const collectionTemplate = operation.template.slice(0, at);
      if (this.writes.some((write) => write.kind === 'create' && write.operation.template === collectionTemplate)) return `${collectionTemplate}${parameter}`;
    }
    return undefined;
  }

  /**
   * A new resource of the collection a body property names an item of (see referenceTemplate),
   * made as `session`, who can therefore use it: its id, the value to send.
   */
  async reference(property: string, session: Session): Promise<string> {
    const template = this.referenceTemplate(property) ?? fail(`${property} names no collection's item`);
    const made = await this.resolve(template, session);
    if (made.session !== session) fail(`${property}: the ${template} made for it belongs to another principal`);
    return made.id ?? fail(`${property}: ${template} made no resource`);
  }

  /**
   * The template made real: each `{param}` is a new resource of the collection before it, made by
   * that collection's create operation (the last one is the resource itself). A parameter no
   * create operation makes gets a sample of its schema, when `parameters` give one.
   */
  async resolve(template: string, session: Session = this.principal, parameters: ParameterObject[] = []): Promise<Resolved> {
    let path = '';
    let id: string | undefined;
    let current = session;
    for (const segment of template.split('/').slice(1)) {
      if (!segment.startsWith('{')) {
        path += `/${segment}`;
        continue;
      }
      const collectionTemplate = template.split('/').slice(0, path.split('/').length).join('/');
      const collection = this.writes.find((write) => write.kind === 'create' && write.operation.template === collectionTemplate);
      if (!collection) {
        const parameter = parameters.find((candidate) => candidate.in === 'path' && `{${candidate.name}}` === segment);
        const value = parameter?.schema ? samplesOf(parameter.name, parameter.schema).find((sample) => typeof sample === 'string' && sample !== '') : undefined;
        if (typeof value !== 'string') fail(`no create operation makes the ${segment} of ${template}`);
        path += `/${encodeURIComponent(value)}`;
        id = undefined;
        continue;
      }
      const made = await this.create(collection, path, current, this.bodyFor(collection.body, current));
      current = made.session;
      id = made.id;
      path += `/${encodeURIComponent(made.id)}`;
    }
    return { path, session: current, id };
  }
}
