import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Contract, Operation } from '../fuzzer/contract';
import { createRandom } from '../fuzzer/random';
import { flattenSchema, generateValid, typesOf, type Schema } from '../fuzzer/values';

/**
 * The spec-drift walker: for every create (POST answering 201) and replace (PUT) operation of an
 * OpenAPI document with a JSON body, and for every writable property of that body, it sends a
 * valid request whose value for the property is not the default, reads the resource back, and
 * reports each property that does not come back as it was sent. Nothing here names a path, an
 * operation or a property of api.yaml except the sign-in operation (`logIn`) it signs in with and
 * the two write-only properties whose effects it knows how to observe (`WRITE_ONLY_EFFECTS`).
 */

export interface WriteOperation {
  /** `POST /agents`. */
  name: string;
  operation: Operation;
  kind: 'create' | 'replace';
  /** The success the operation declares: 201 for a create, its 2xx for a replace. */
  success: number;
  /** The request body's schema, `allOf` merged. */
  body: Schema;
  /** Whether api.yaml requires a `Location` on its 201. */
  location: boolean;
}

export interface RoundTripCase {
  write: WriteOperation;
  property: string;
  /** The property's schema, `allOf` merged. */
  schema: Schema;
  writeOnly: boolean;
}

export interface RoundTripResult {
  operation: string;
  property: string;
  /** The values sent, in order (one request each). */
  values: unknown[];
  /** Undefined when every value came back (or, write-only, took effect). */
  problem?: string;
}

export interface WalkTarget {
  baseUrl: string;
  /** Whom requests are made as, unless the path names a user the walker signs up (and then signs in as). */
  principal: { token: string; password?: string };
}

/**
 * How a write-only property shows that it was stored, since no read returns it:
 * - `secret`: signing in with the value sent succeeds, and with the value it replaced fails;
 * - `proof`: it is not stored at all but proves the caller's identity for a change of the secret
 *   (the current password): every request of the operation carries the right one, and the same
 *   change with a wrong one is refused with 403 and changes nothing.
 * A write-only property not named here fails the walk: its effect has to be taught first.
 */
export const WRITE_ONLY_EFFECTS: Record<string, 'secret' | 'proof'> = {
  password: 'secret',
  current_password: 'proof',
};

/** The operation the walker signs in with (e-mail and password in, an access token out). */
export const SIGN_IN_OPERATION_ID = 'logIn';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
addFormats(ajv, { mode: 'full' });
ajv.addFormat('password', true);
const validators = new WeakMap<Schema, ValidateFunction>();
function validatorOf(schema: Schema): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}
const isValid = (schema: Schema, value: unknown) => validatorOf(schema)(value) === true;

/** Every create and replace operation with a JSON body, in api.yaml's order. */
export function writeOperations(contract: Contract): WriteOperation[] {
  const writes: WriteOperation[] = [];
  for (const operation of contract.operations) {
    const schema = operation.operation.requestBody?.content?.['application/json']?.schema;
    const responses = operation.operation.responses ?? {};
    if (!schema) continue;
    const kind = operation.method === 'POST' && responses['201'] ? 'create' : operation.method === 'PUT' ? 'replace' : undefined;
    if (!kind) continue;
    const success = kind === 'create' ? '201' : Object.keys(responses).find((status) => /^2\d\d$/.test(status));
    if (!success) throw new Error(`${operation.method} ${operation.template} declares no success`);
    const location = Object.entries(responses[success]?.headers ?? {}).some(([name, header]) => name.toLowerCase() === 'location' && header.required === true);
    writes.push({ name: `${operation.method} ${operation.template}`, operation, kind, success: Number(success), body: flattenSchema(schema), location });
  }
  return writes;
}

function propertiesOf(schema: Schema): Array<[string, Schema]> {
  return Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([name, property]) => [name, flattenSchema(property)]);
}

/** One case per writable (not readOnly) property of every create and replace body. */
export function roundTripCases(contract: Contract): RoundTripCase[] {
  return writeOperations(contract).flatMap((write) =>
    propertiesOf(write.body)
      .filter(([, schema]) => schema.readOnly !== true)
      .map(([property, schema]) => ({ write, property, schema, writeOnly: schema.writeOnly === true })),
  );
}

let serial = 0;
/** Unique across the run: e-mail addresses must be, and equal values would prove nothing on a replace. */
const unique = () => `${(serial += 1)}${randomBytes(3).toString('hex')}`;

/** A password no policy refuses (random, and unrelated to any name or e-mail the walker uses). */
const strongPassword = () => `${randomBytes(12).toString('base64url')}-Qz7`;

/** A JSON object with every kind of value in it, for free-form object properties. */
const richObject = (): Json => ({ text: 'é 中 😀', count: 42, ratio: 1.5, zero: 0, flag: false, nothing: null, list: [1, 'two', { deep: true }], empty: {}, none: [] });

/** Text within the schema's length (in code points), with no surrounding white space and nothing any service would normalise away. */
function textFor(name: string, schema: Schema): string {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : 200;
  const chars = [...`Drift ${name} ${unique()} é中😀`].slice(0, Math.max(max, 0));
  while (chars.length < min) chars.push('x');
  return chars.join('').trim();
}

/** A value of one JSON type for the schema, or undefined when the walker cannot make one. */
function sampleOfType(name: string, schema: Schema, type: string): unknown[] {
  switch (type) {
    case 'boolean':
      return [true, false];
    case 'integer':
    case 'number': {
      const low = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : -7;
      const high = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : 12345;
      // Both ends: 0 is a favourite of `value || fallback` bugs, the top of a range of narrow columns.
      const values: number[] = [Math.ceil(low), Math.floor(high)];
      if (type === 'number' && low + 0.5 <= high) values.push(low + 0.5);
      return values;
    }
    case 'string':
      switch (schema.format) {
        case 'email':
          return [`drift-${unique()}@example.test`];
        case 'password':
          return [strongPassword()];
        case 'uuid':
          return [crypto.randomUUID()];
        case 'date-time':
          return [new Date(Date.UTC(2031, 4, 6, 7, 8, 9, 123)).toISOString()];
        case 'date':
          return ['2031-05-06'];
      }
      // The empty string, where allowed, is a value of its own (not an absent one).
      return [textFor(name, schema), ''];
    case 'object': {
      const properties = propertiesOf(schema);
      if (properties.length === 0) return schema.additionalProperties === false ? [{}] : [richObject()];
      return [Object.fromEntries(properties.map(([key, property]) => [key, samplesOf(key, property)[0]]))];
    }
    case 'array':
      return [samplesOf(name, flattenSchema((schema.items ?? {}) as Schema)).slice(0, 1)];
    default:
      return [];
  }
}

/**
 * Valid values for a property: every enum member; both ends of a numeric range; text, formats,
 * the empty string where allowed; a JSON object with every kind of value; null last when
 * nullable. Values the schema refuses are dropped (a pattern the plain text misses gets one
 * generated from the pattern instead).
 */
export function samplesOf(name: string, schema: Schema): unknown[] {
  let values: unknown[];
  if (schema.const !== undefined) values = [schema.const];
  else if (Array.isArray(schema.enum)) values = [...(schema.enum as unknown[])];
  else {
    const types = typesOf(schema);
    values = types.filter((type) => type !== 'null').flatMap((type) => sampleOfType(name, schema, type));
    if (types.includes('null')) values.push(null);
  }
  const valid = values.filter((value) => isValid(schema, value));
  if (valid.some((value) => typeof value === 'string') || !typesOf(schema).includes('string') || schema.enum) return valid;
  // Text the pattern refuses: generate from the pattern, trimmed values only.
  const random = createRandom(serial);
  for (let attempt = 0; attempt < 50; attempt++) {
    const value = generateValid(schema, random);
    if (typeof value === 'string' && value === value.trim() && value !== '' && isValid(schema, value)) return [value, ...valid];
  }
  return valid;
}

/** The values a case sends, in order: none equal to the default; on a replace each differs from the one before (the first from what is stored). */
function sequenceOf(values: unknown[], schema: Schema, initial: unknown, kind: WriteOperation['kind']): unknown[] {
  const candidates = values.filter((value) => schema.default === undefined || !isDeepStrictEqual(value, schema.default));
  if (kind === 'create') return candidates;
  const sequence: unknown[] = [];
  let previous = initial;
  while (candidates.length > 0) {
    const next = candidates.findIndex((value) => !isDeepStrictEqual(value, previous));
    if (next < 0) break;
    previous = candidates.splice(next, 1)[0];
    sequence.push(previous);
  }
  return sequence;
}

interface Exchange {
  status: number;
  headers: Headers;
  body: unknown;
}

interface Session {
  token: string;
  /** The principal's password, when the walker knows it (the proof a credential change needs). */
  password?: string;
}

class Failure extends Error {}
function fail(message: string): never {
  throw new Failure(message);
}
const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};

/** Runs every case against a running service; one result per case. */
export async function walkRoundTrips(contract: Contract, target: WalkTarget, options: { only?: (found: RoundTripCase) => boolean } = {}): Promise<RoundTripResult[]> {
  const writes = writeOperations(contract);
  const signInOperation = contract.operations.find((operation) => operation.operation.operationId === SIGN_IN_OPERATION_ID);
  if (!signInOperation) throw new Error(`api.yaml has no ${SIGN_IN_OPERATION_ID} operation to sign in with`);
  const signInSchema = signInOperation.operation.requestBody?.content?.['application/json']?.schema ?? {};
  const signInFields = (signInSchema.required ?? []) as string[];
  // The field of the sign-in body that carries the secret; the others (the e-mail) come from the resource.
  const signInSecret = propertiesOf(signInSchema).find(([, schema]) => schema.format === 'password')?.[0];
  if (!signInSecret) throw new Error(`${SIGN_IN_OPERATION_ID} has no password field`);

  const send = async (method: string, path: string, session: Session | undefined, body?: unknown): Promise<Exchange> => {
    const res = await fetch(new URL(path, target.baseUrl), {
      method,
      headers: { ...(session ? { authorization: `Bearer ${session.token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') parsed = JSON.parse(text) as unknown;
    return { status: res.status, headers: res.headers, body: parsed };
  };
  const expectStatus = (exchange: Exchange, status: number, what: string) => {
    if (exchange.status !== status) fail(`${what} answered ${exchange.status}, not ${status}: ${show(exchange.body)}`);
  };
  /** The resource in a body: bare, or in the envelope's `data` (a list: the item with the id). */
  const resourceOf = (exchange: Exchange, id?: string): Json => {
    let node = exchange.body;
    if (isObject(node) && 'data' in node && 'meta' in node) node = node.data;
    if (Array.isArray(node)) node = node.find((item) => isObject(item) && item.id === id);
    return isObject(node) ? node : fail(`no resource${id ? ` with id ${id}` : ''} in ${show(exchange.body)}`);
  };
  const signIn = async (credentials: Json): Promise<Exchange> => send(signInOperation.method, signInOperation.template, undefined, Object.fromEntries(signInFields.map((field) => [field, credentials[field]])));
  const tokenOf = (exchange: Exchange): string => {
    const token = resourceOf(exchange).access_token;
    return typeof token === 'string' ? token : fail(`sign-in answered no access_token: ${show(exchange.body)}`);
  };

  /** The values of the body's required properties other than `except`: what is stored now (a replace), or fresh ones. */
  const baselineOf = (write: WriteOperation, session: Session, except: string, current?: Json): Json => {
    const body: Json = {};
    const required = new Set((write.body.required ?? []) as string[]);
    for (const [name, schema] of propertiesOf(write.body)) {
      if (name === except || schema.readOnly === true) continue;
      if (WRITE_ONLY_EFFECTS[name] === 'proof' && session.password !== undefined) body[name] = session.password;
      else if (required.has(name)) body[name] = current && name in current ? current[name] : samplesOf(name, schema)[0];
    }
    return body;
  };

  /** Creates with `body`: the answer's resource and where to read it back. */
  const create = async (write: WriteOperation, path: string, session: Session, body: Json): Promise<{ written: Json; readPath: string; id: string; session: Session }> => {
    if (!isValid(write.body, body)) fail(`the walker built a body api.yaml refuses: ${show(body)} (${ajv.errorsText(validatorOf(write.body).errors)})`);
    const created = await send(write.operation.method, path, session, body);
    expectStatus(created, write.success, write.name);
    const written = resourceOf(created);
    const id = typeof written.id === 'string' ? written.id : fail(`${write.name} answered no id: ${show(created.body)}`);
    const location = created.headers.get('location');
    if (write.location && !location) fail(`${write.name} answered 201 without its required Location`);
    // A public create (sign-up) makes a principal: what happens under its path is done as it.
    let owner = session;
    if (Array.isArray(write.operation.operation.security) && write.operation.operation.security.length === 0 && signInFields.every((field) => field in body)) {
      const signedIn = await signIn(body);
      expectStatus(signedIn, 200, `signing in as the principal ${write.name} created`);
      const password = body[signInSecret];
      owner = { token: tokenOf(signedIn), password: typeof password === 'string' ? password : undefined };
    }
    // Without a Location (a post has no address of its own) the collection it was posted to has it.
    return { written, readPath: location ?? path, id, session: owner };
  };
  const read = async (readPath: string, session: Session, id: string): Promise<Json> => {
    const res = await send('GET', readPath, session);
    expectStatus(res, 200, `GET ${readPath}`);
    return resourceOf(res, id);
  };

  /** The concrete path: each `{param}` is a new resource of the collection before it (the last one is the resource itself). */
  const resolve = async (template: string, session: Session): Promise<{ path: string; session: Session; id?: string; readPath?: string }> => {
    let path = '';
    let id: string | undefined;
    let readPath: string | undefined;
    let current = session;
    for (const segment of template.split('/').slice(1)) {
      if (!segment.startsWith('{')) {
        path += `/${segment}`;
        continue;
      }
      const collection = writes.find((write) => write.kind === 'create' && write.operation.template === templateOfPath(path, template));
      if (!collection) fail(`no create operation makes the ${segment} of ${template}`);
      const made = await create(collection, path, current, baselineOf(collection, current, ''));
      current = made.session;
      id = made.id;
      readPath = made.readPath;
      path += `/${encodeURIComponent(made.id)}`;
    }
    return { path, session: current, id, readPath };
  };

  const proofProperty = (write: WriteOperation) => propertiesOf(write.body).find(([name]) => WRITE_ONLY_EFFECTS[name] === 'proof')?.[0];
  const secretProperty = (write: WriteOperation) => propertiesOf(write.body).find(([name]) => WRITE_ONLY_EFFECTS[name] === 'secret')?.[0];

  /** Signing in as the resource with `secret` answers `status`. */
  const expectSignIn = async (resource: Json, secret: string, status: number, what: string) => {
    const credentials: Json = { ...resource, [signInSecret]: secret };
    if (!signInFields.every((field) => typeof credentials[field] === 'string')) fail(`the resource has no ${signInFields.join(' and ')} to sign in with: ${show(resource)}`);
    const res = await signIn(credentials);
    if (res.status !== status) fail(`${what}: signing in answered ${res.status}, not ${status}`);
  };

  const runCase = async (found: RoundTripCase): Promise<RoundTripResult> => {
    const { write, property, schema, writeOnly } = found;
    const result: RoundTripResult = { operation: write.name, property, values: [] };
    try {
      const effect = writeOnly ? WRITE_ONLY_EFFECTS[property] : undefined;
      if (writeOnly && !effect) fail('write-only, and the walker knows no way to observe its effect (teach WRITE_ONLY_EFFECTS)');
      if (effect === 'proof' && write.kind === 'create') fail('a proof of identity on a create: nothing to prove it for');
      const start: Session = { ...target.principal };
      if (write.kind === 'create') {
        const { path, session } = await resolve(write.operation.template, start);
        const values = sequenceOf(samplesOf(property, schema), schema, undefined, 'create');
        if (values.length === 0) fail(`no valid value other than the default ${show(schema.default)}`);
        for (const value of values) {
          result.values.push(value);
          const made = await create(write, path, session, { ...baselineOf(write, session, property), [property]: value });
          const stored = await read(made.readPath, made.session, made.id);
          if (writeOnly) {
            if (property in made.written || property in stored) fail(`write-only, yet returned`);
            await expectSignIn(stored, value as string, 200, `sent ${show(value)}`);
            await expectSignIn(stored, strongPassword(), 401, 'with another password');
            continue;
          }
          if (!isDeepStrictEqual(made.written[property], value)) fail(`sent ${show(value)}, the ${write.success} answered ${show(made.written[property])}`);
          if (!isDeepStrictEqual(stored[property], value)) fail(`sent ${show(value)}, read back ${show(stored[property])}`);
        }
      } else {
        const resolved = await resolve(write.operation.template, start);
        const { path, session } = resolved;
        const id = resolved.id ?? fail('a replace without a resource id in its path');
        let stored = await read(path, session, id);
        const proof = proofProperty(write);
        if (proof && session.password === undefined) fail(`${proof} is needed and the walker does not know the principal's password`);
        if (effect === 'proof') {
          // The proof is never stored: a change of the secret with a wrong one is refused, with the right one accepted.
          const secret = secretProperty(write) ?? fail('a proof with no secret in the body to prove it for');
          const attempt = strongPassword();
          result.values.push('(wrong)', session.password);
          const refused = await send(write.operation.method, path, session, { ...baselineOf(write, session, property, stored), [secret]: attempt, [property]: `wrong-${strongPassword()}` });
          expectStatus(refused, 403, `${write.name} with a wrong ${property}`);
          await expectSignIn(stored, session.password as string, 200, `after a refused change`);
          const accepted = await send(write.operation.method, path, session, { ...baselineOf(write, session, property, stored), [secret]: attempt, [property]: session.password });
          expectStatus(accepted, write.success, `${write.name} with the right ${property}`);
          await expectSignIn(stored, attempt, 200, 'after an accepted change');
          return result;
        }
        const values = sequenceOf(samplesOf(property, schema), schema, writeOnly ? undefined : stored[property], 'replace');
        if (values.length === 0) fail(`no valid value other than ${show(stored[property])}`);
        for (const value of values) {
          result.values.push(value);
          const body = { ...baselineOf(write, session, property, stored), [property]: value };
          if (!isValid(write.body, body)) fail(`the walker built a body api.yaml refuses: ${show(body)} (${ajv.errorsText(validatorOf(write.body).errors)})`);
          const replaced = await send(write.operation.method, path, session, body);
          expectStatus(replaced, write.success, write.name);
          const written = resourceOf(replaced);
          const before = session.password;
          stored = await read(path, session, id);
          if (writeOnly) {
            if (property in written || property in stored) fail('write-only, yet returned');
            await expectSignIn(stored, value as string, 200, `sent ${show(value)}`);
            if (before !== undefined && before !== value) await expectSignIn(stored, before, 401, 'with the password it replaced');
            session.password = value as string;
            continue;
          }
          if (!isDeepStrictEqual(written[property], value)) fail(`sent ${show(value)}, the ${write.success} answered ${show(written[property])}`);
          if (!isDeepStrictEqual(stored[property], value)) fail(`sent ${show(value)}, read back ${show(stored[property])}`);
        }
      }
    } catch (error) {
      if (!(error instanceof Failure)) throw error;
      result.problem = error.message;
    }
    return result;
  };

  const results: RoundTripResult[] = [];
  for (const found of roundTripCases(contract)) {
    if (options.only && !options.only(found)) continue;
    results.push(await runCase(found));
  }
  return results;
}

/** The template of `path` (a concrete prefix of `template`): `/agents/123` → `/agents/{agent_id}`. */
function templateOfPath(path: string, template: string): string {
  const depth = path.split('/').length;
  return template.split('/').slice(0, depth).join('/');
}
