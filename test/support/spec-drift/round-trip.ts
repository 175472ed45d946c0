import { isDeepStrictEqual } from 'node:util';
import type { Contract } from '../fuzzer/contract';
import type { Schema } from '../fuzzer/values';
import { isValid, propertiesOf, samplesOf, strongPassword, whyInvalid } from './samples';
import { fail, show, SpecClient, SpecFailure, WRITE_ONLY_EFFECTS, writeOperations, type Json, type Session, type WriteOperation } from './spec-client';

/**
 * The spec-drift walker: for every create (POST answering 201) and replace (PUT) operation of an
 * OpenAPI document with a JSON body, and for every writable property of that body, it sends a
 * valid request whose value for the property is not the default, reads the resource back, and
 * reports each property that does not come back as it was sent. Nothing here names a path, an
 * operation or a property of api.yaml: the client (spec-client.ts) knows the sign-in operation and
 * the write-only properties whose effects it can observe.
 */

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
  principal: Session;
}

/** One case per writable (not readOnly) property of every create and replace body. */
export function roundTripCases(contract: Contract): RoundTripCase[] {
  return writeOperations(contract).flatMap((write) =>
    propertiesOf(write.body)
      .filter(([, schema]) => schema.readOnly !== true)
      .map(([property, schema]) => ({ write, property, schema, writeOnly: schema.writeOnly === true })),
  );
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

/** Runs every case (or those `only` keeps) against a running service; one result per case. */
export async function walkRoundTrips(contract: Contract, target: WalkTarget, options: { only?: (found: RoundTripCase) => boolean } = {}): Promise<RoundTripResult[]> {
  const client = new SpecClient(contract, target.baseUrl, target.principal);
  const secretOf = (write: WriteOperation) => propertiesOf(write.body).find(([name]) => WRITE_ONLY_EFFECTS[name] === 'secret')?.[0];
  const proofOf = (write: WriteOperation) => propertiesOf(write.body).find(([name]) => WRITE_ONLY_EFFECTS[name] === 'proof')?.[0];
  const read = async (path: string, session: Session, id: string): Promise<Json> => {
    const res = await client.send('GET', path, { session });
    client.expectStatus(res, 200, `GET ${path}`);
    return client.resourceOf(res, id);
  };

  const createCase = async ({ write, property, schema, writeOnly }: RoundTripCase, result: RoundTripResult) => {
    const { path, session } = await client.resolve(write.operation.template, { ...target.principal });
    // A reference to another resource (a workspace's id) is sent as one that exists: a new one the caller made.
    const samples = client.referenceTemplate(property) ? [await client.reference(property, session)] : samplesOf(property, schema);
    const values = sequenceOf(samples, schema, undefined, 'create');
    if (values.length === 0) fail(`no valid value other than the default ${show(schema.default)}`);
    for (const value of values) {
      result.values.push(value);
      const made = await client.create(write, path, session, { ...client.bodyFor(write.body, session, property), [property]: value });
      const stored = await read(made.readPath, made.session, made.id);
      if (writeOnly) {
        if (property in made.written || property in stored) fail('write-only, yet returned');
        if (WRITE_ONLY_EFFECTS[property] === 'lifetime') {
          const lived = (Date.parse(String(stored.expires_at)) - Date.parse(String(stored.created_at))) / 86_400_000;
          if (lived !== value) fail(`sent ${show(value)}, read back expires_at ${show(stored.expires_at)} for created_at ${show(stored.created_at)}`);
          continue;
        }
        if (WRITE_ONLY_EFFECTS[property] === 'request') continue;
        await client.expectSignIn(stored, value as string, 200, `sent ${show(value)}`);
        await client.expectSignIn(stored, strongPassword(), 401, 'with another password');
        continue;
      }
      if (!isDeepStrictEqual(made.written[property], value)) fail(`sent ${show(value)}, the ${write.success} answered ${show(made.written[property])}`);
      if (!isDeepStrictEqual(stored[property], value)) fail(`sent ${show(value)}, read back ${show(stored[property])}`);
    }
  };

  const replaceCase = async ({ write, property, schema, writeOnly }: RoundTripCase, result: RoundTripResult) => {
    const { path, session, id: resolvedId } = await client.resolve(write.operation.template, { ...target.principal });
    const id = resolvedId ?? fail('a replace without a resource id in its path');
    let stored = await read(path, session, id);
    const proof = proofOf(write);
    if (proof && session.password === undefined) fail(`${proof} is needed and the walker does not know the principal's password`);
    const replace = async (body: Json) => {
      if (!isValid(write.body, body)) fail(`the walker built a body api.yaml refuses: ${show(body)} (${whyInvalid(write.body)})`);
      return client.send(write.operation.method, path, { session, body });
    };
    if (WRITE_ONLY_EFFECTS[property] === 'proof') {
      // Never stored: a change of the secret with a wrong proof is refused and changes nothing; with the right one it is made.
      const secret = secretOf(write) ?? fail('a proof with no secret in the body to prove it for');
      const current = session.password as string;
      const attempt = strongPassword();
      result.values.push('(a wrong one)', current);
      client.expectStatus(await replace({ ...client.bodyFor(write.body, session, property, stored), [secret]: attempt, [property]: `wrong-${strongPassword()}` }), 403, `${write.name} with a wrong ${property}`);
      await client.expectSignIn(stored, current, 200, 'after a refused change');
      client.expectStatus(await replace({ ...client.bodyFor(write.body, session, property, stored), [secret]: attempt, [property]: current }), write.success, `${write.name} with the right ${property}`);
      await client.expectSignIn(stored, attempt, 200, 'after an accepted change');
      return;
    }
    const samples = client.referenceTemplate(property) ? [await client.reference(property, session)] : samplesOf(property, schema);
    const values = sequenceOf(samples, schema, writeOnly ? undefined : stored[property], 'replace');
    if (values.length === 0) fail(`no valid value other than ${show(stored[property])}`);
    for (const value of values) {
      result.values.push(value);
      const replaced = await replace({ ...client.bodyFor(write.body, session, property, stored), [property]: value });
      client.expectStatus(replaced, write.success, write.name);
      const written = client.resourceOf(replaced);
      stored = await read(path, session, id);
      if (writeOnly) {
        if (property in written || property in stored) fail('write-only, yet returned');
        await client.expectSignIn(stored, value as string, 200, `sent ${show(value)}`);
        if (session.password !== undefined && session.password !== value) await client.expectSignIn(stored, session.password, 401, 'with the password it replaced');
        session.password = value as string;
        continue;
      }
      if (!isDeepStrictEqual(written[property], value)) fail(`sent ${show(value)}, the ${write.success} answered ${show(written[property])}`);
      if (!isDeepStrictEqual(stored[property], value)) fail(`sent ${show(value)}, read back ${show(stored[property])}`);
    }
  };

  const results: RoundTripResult[] = [];
  for (const found of roundTripCases(contract)) {
    if (options.only && !options.only(found)) continue;
    const result: RoundTripResult = { operation: found.write.name, property: found.property, values: [] };
    try {
      if (found.writeOnly && !WRITE_ONLY_EFFECTS[found.property]) fail('write-only, and the walker knows no way to observe its effect (teach WRITE_ONLY_EFFECTS)');
      if (WRITE_ONLY_EFFECTS[found.property] === 'proof' && found.write.kind === 'create') fail('a proof of identity on a create: nothing to prove it for');
      await (found.write.kind === 'create' ? createCase(found, result) : replaceCase(found, result));
    } catch (error) {
      if (!(error instanceof SpecFailure)) throw error;
      result.problem = error.message;
    }
    results.push(result);
  }
  return results;
}
