import { randomBytes } from 'node:crypto';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { createRandom } from '../fuzzer/random';
import { flattenSchema, generateValid, typesOf, type Schema } from '../fuzzer/values';

/**
 * Valid values derived from a JSON Schema, for requests that must be accepted: unlike the fuzzer's
 * generator (values.ts), deterministic in kind, never the default, already in the form a service
 * normalises to (trimmed text, lower-case e-mail addresses), and checked against the schema.
 */

const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
// The formats as strictly as the service's validator checks them (express-openapi-validator, full mode).
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

export const isValid = (schema: Schema, value: unknown) => validatorOf(schema)(value) === true;

/** Why the schema refuses the value (after isValid answered false). */
export const whyInvalid = (schema: Schema) => ajv.errorsText(validatorOf(schema).errors);

/** A schema's properties, each with `allOf` merged. */
export function propertiesOf(schema: Schema): Array<[string, Schema]> {
  return Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([name, property]) => [name, flattenSchema(property)]);
}

/** A day ahead of the run, to the second plus 123 ms: a time every field takes (a `run_at` must lie within a year). */
const SAMPLE_TIME = new Date(Math.floor(Date.now() / 1000) * 1000 + 86_400_000 + 123).toISOString();

let serial = 0;
/** Unique across the run: e-mail addresses must be, and equal values would prove nothing on a replace. */
export const unique = () => `${(serial += 1)}${randomBytes(3).toString('hex')}`;

/** A password no policy refuses (random, and unrelated to any name or e-mail used here). */
export const strongPassword = () => `${randomBytes(12).toString('base64url')}-Qz7`;

/** A JSON object with every kind of value in it, for free-form object properties. */
const richObject = (): Record<string, unknown> => ({ text: 'é 中 😀', count: 42, ratio: 1.5, zero: 0, flag: false, nothing: null, list: [1, 'two', { deep: true }], empty: {}, none: [] });

/** Text within the schema's length (in code points), with no surrounding white space, beyond ASCII. */
function textFor(name: string, schema: Schema): string {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : 200;
  const chars = [...`Drift ${name} ${unique()} é中😀`].slice(0, Math.max(max, 0));
  while (chars.length < min) chars.push('x');
  return chars.join('').trim();
}

/** Values of one JSON type for the schema. */
function samplesOfType(name: string, schema: Schema, type: string): unknown[] {
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
          return [SAMPLE_TIME];
        case 'date':
          return ['2031-05-06'];
        case 'uri':
          // A public address: webhook URLs are checked without name resolution, and nothing is ever sent to it.
          return [`https://93.184.216.34/drift-${unique()}`];
      }
      // The empty string, where allowed, is a value of its own (not an absent one).
      return [textFor(name, schema), ''];
    case 'object': {
      const properties = propertiesOf(schema);
      if (properties.length === 0) return schema.additionalProperties === false ? [{}] : [richObject()];
      return [Object.fromEntries(properties.map(([key, property]) => [key, samplesOf(key, property)[0]]))];
    }
    case 'array':
      // An array of anything (a free JSON value that may be an array) is sampled once, not recursed into.
      if (schema.items === undefined) return [[1, 'two', null]];
      return [samplesOf(name, flattenSchema(schema.items as Schema)).slice(0, 1)];
    default:
      return [];
  }
}

/**
 * Valid values for a property named `name`: every enum member; both ends of a numeric range; text,
 * formats, the empty string where allowed; a JSON object with every kind of value; null last when
 * nullable. Text with an `example` and neither pattern nor format is that example. Values the
 * schema refuses are dropped (text a pattern refuses is replaced by one generated from the pattern).
 */
export function samplesOf(name: string, input: Schema): unknown[] {
  const schema = flattenSchema(input);
  let values: unknown[];
  if (schema.const !== undefined) values = [schema.const];
  else if (Array.isArray(schema.enum)) values = [...(schema.enum as unknown[])];
  // Text whose rules no keyword can state (a cron expression, a time zone): api.yaml's example of it.
  else if (typeof schema.example === 'string' && schema.format === undefined && schema.pattern === undefined) values = [schema.example, ...(typesOf(schema).includes('null') ? [null] : [])];
  else {
    const types = typesOf(schema);
    values = types.filter((type) => type !== 'null').flatMap((type) => samplesOfType(name, schema, type));
    if (types.includes('null')) values.push(null);
  }
  const valid = values.filter((value) => isValid(schema, value));
  if (schema.enum || !typesOf(schema).includes('string') || valid.some((value) => typeof value === 'string')) return valid;
  const random = createRandom(serial);
  for (let attempt = 0; attempt < 50; attempt++) {
    const value = generateValid(schema, random);
    if (typeof value === 'string' && value === value.trim() && value !== '' && isValid(schema, value)) return [value, ...valid];
  }
  return valid;
}
