import RandExp from 'randexp';
import type { Random } from './random';

export type Schema = Record<string, unknown>;

/** JSON text written verbatim by `serializeJson`: numbers and escapes JSON.stringify cannot produce. */
export class RawJson {
  constructor(readonly text: string) {}
}

export function serializeJson(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(serializeJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => `${JSON.stringify(key)}:${serializeJson(item)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const WIDE_CHARACTERS = ['é', 'ß', 'Ж', '中', '日本', '😀', '👩‍💻', '𝔘', '\u200b'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_';

function codePointLength(text: string): number {
  return [...text].length;
}

export function randomText(random: Random, min: number, max: number): string {
  const length = random.chance(0.1) ? max : random.int(min, Math.min(max, min + 24));
  const wide = random.chance(0.2);
  let text = '';
  for (let i = 0; i < length; i++) {
    text += wide && random.chance(0.4) ? [...random.pick(WIDE_CHARACTERS)][0] : LETTERS[random.int(0, LETTERS.length - 1)];
  }
  // Most string schemas here ask for one non-space character.
  if (length > 0 && !/\S/.test(text)) text = `x${text.slice(1)}`;
  return text;
}

export function randomUuid(random: Random): string {
  const hex = random.hex(32).split('');
  hex[12] = '7';
  hex[16] = random.pick(['8', '9', 'a', 'b']);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

export function randomTimestamp(random: Random): string {
  return new Date(Date.UTC(random.int(2020, 2030), random.int(0, 11), random.int(1, 28), random.int(0, 23), random.int(0, 59), random.int(0, 59), random.int(0, 999))).toISOString();
}

function fromPattern(pattern: string, random: Random, min: number, max: number): string {
  const generator = new RandExp(pattern);
  // Now and then the largest text the pattern allows (every repetition its longest, every class its
  // last character): an id of all nines is where a column's range ends.
  const largest = random.chance(0.15);
  generator.randInt = (from, to) => (largest ? to : random.int(from, to));
  generator.max = 4;
  for (let attempt = 0; attempt < 8; attempt++) {
    const text = generator.gen();
    if (codePointLength(text) >= min && codePointLength(text) <= max) return text;
  }
  return generator.gen();
}

/** Merges `allOf` members into one schema (enough for the shapes api.yaml uses). */
export function flattenSchema(schema: Schema): Schema {
  const parts = schema.allOf as Schema[] | undefined;
  if (!parts) return schema;
  const merged: Schema = {};
  for (const part of [...parts.map(flattenSchema), { ...schema, allOf: undefined }]) {
    for (const [key, value] of Object.entries(part)) {
      if (value === undefined) continue;
      if (key === 'properties') merged.properties = { ...(merged.properties as Schema | undefined), ...(value as Schema) };
      else if (key === 'required') merged.required = [...new Set([...((merged.required as string[]) ?? []), ...(value as string[])])];
      else merged[key] = value;
    }
  }
  return merged;
}

export function typesOf(schema: Schema): string[] {
  const type = schema.type;
  if (Array.isArray(type)) return type as string[];
  if (typeof type === 'string') return [type];
  if (schema.properties) return ['object'];
  if (schema.items) return ['array'];
  if (schema.enum || schema.const !== undefined) return [];
  return ['string', 'integer', 'boolean', 'null', 'object', 'array'];
}

/** A value the schema accepts (best effort: patterns through randexp, formats by hand). */
export function generateValid(input: Schema, random: Random, depth = 0): unknown {
  const schema = flattenSchema(input);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return random.pick(schema.enum as unknown[]);
  const types = typesOf(schema);
  const nonNull = types.filter((type) => type !== 'null');
  const type = types.includes('null') && (nonNull.length === 0 || random.chance(0.15)) ? 'null' : random.pick(nonNull.length ? nonNull : types);
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return random.chance(0.5);
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
      const max = typeof schema.maximum === 'number' ? schema.maximum : 1000;
      const edge = random.next();
      const value = edge < 0.1 ? min : edge < 0.2 ? max : random.int(Math.max(min, -1e6), Math.min(max, Math.max(min, -1e6) + 1000));
      return type === 'number' && random.chance(0.3) ? Math.min(max, value + 0.5) : value;
    }
    case 'string': {
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const max = typeof schema.maxLength === 'number' ? schema.maxLength : min + 40;
      switch (schema.format) {
        case 'uuid':
          return randomUuid(random);
        case 'date-time':
          return randomTimestamp(random);
        case 'email':
          return `fuzz-${random.hex(10)}@example.test`;
        case 'password':
          return `pw-${random.hex(Math.max(6, Math.min(min, 30)))}`;
        case 'uri':
          // A public address: webhook URLs are checked without name resolution, and nothing is ever sent to it.
          return `https://93.184.216.34/fuzz-${random.hex(8)}`;
      }
      if (typeof schema.pattern === 'string' && schema.pattern !== '\\S') return fromPattern(schema.pattern, random, min, max);
      return randomText(random, Math.max(min, schema.pattern ? 1 : 0), max);
    }
    case 'array': {
      const itemSchema = (schema.items ?? {}) as Schema;
      const max = Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 3, 3);
      const items = Array.from({ length: random.int(typeof schema.minItems === 'number' ? schema.minItems : 0, max) }, () => generateValid(itemSchema, random, depth + 1));
      return schema.uniqueItems ? [...new Set(items.map((item) => JSON.stringify(item)))].map((item) => JSON.parse(item) as unknown) : items;
    }
    default: {
      if (depth > 3) return {};
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required as string[] | undefined) ?? []);
      const result: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(properties)) {
        if (required.has(name) || random.chance(0.5)) result[name] = generateValid(property, random, depth + 1);
      }
      const minProperties = typeof schema.minProperties === 'number' ? schema.minProperties : 0;
      for (const name of Object.keys(properties)) {
        if (Object.keys(result).length >= minProperties) break;
        if (!(name in result)) result[name] = generateValid(properties[name] as Schema, random, depth + 1);
      }
      if (schema.additionalProperties !== false && Object.keys(properties).length === 0 && random.chance(0.7)) {
        for (let i = random.int(1, 3); i > 0; i--) result[`k${random.hex(3)}`] = anyJson(random, depth + 1);
      }
      return result;
    }
  }
}

/** Any JSON value, small. */
export function anyJson(random: Random, depth = 0): unknown {
  const kind = random.pick(depth > 2 ? ['string', 'number', 'bool', 'null'] : ['string', 'number', 'bool', 'null', 'array', 'object']);
  switch (kind) {
    case 'string':
      return randomText(random, 0, 12);
    case 'number':
      return random.pick([0, -1, 1.5, 42, 2 ** 53, -1e-7]);
    case 'bool':
      return random.chance(0.5);
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: random.int(0, 3) }, () => anyJson(random, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: random.int(0, 3) }, () => [`k${random.hex(2)}`, anyJson(random, depth + 1)]));
  }
}

/** A value of the wrong type for the schema. */
export function wrongType(schema: Schema, random: Random): unknown {
  const types = new Set(typesOf(flattenSchema(schema)));
  const candidates: Array<[string, unknown]> = [
    ['string', random.pick(['x', '1', 'true', '', 'null'])],
    ['integer', random.pick([1, -1, 0])],
    ['number', 1.25],
    ['boolean', true],
    ['null', null],
    ['array', random.pick([[], ['x'], [1, 2]])],
    ['object', random.pick([{}, { a: 1 }])],
  ];
  const wrong = candidates.filter(([type]) => !types.has(type) && !(type === 'integer' && types.has('number')));
  return (random.pick(wrong.length ? wrong : candidates) as [string, unknown])[1];
}

/** Boundary and hostile values for one property of a schema. */
export function hostileValue(input: Schema, random: Random): unknown {
  const schema = flattenSchema(input);
  const types = typesOf(schema);
  if (types.includes('integer') || types.includes('number')) {
    const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
    const max = typeof schema.maximum === 'number' ? schema.maximum : 100;
    return random.pick<unknown>([
      min - 1,
      max + 1,
      1e20,
      -1e20,
      2.5,
      0.1,
      new RawJson('1e309'),
      new RawJson('-1e309'),
      new RawJson('-0'),
      new RawJson('1E2'),
      new RawJson('9007199254740993'),
      new RawJson('0.0000000000000000000000001'),
      new RawJson(`1${'0'.repeat(400)}`),
      -2147483649,
      2147483648,
      'NaN',
      '5',
    ]);
  }
  if (types.includes('string')) {
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : 64;
    const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
    return random.pick<unknown>([
      '😀'.repeat(max),
      '😀'.repeat(max + 1),
      '👩‍💻'.repeat(Math.ceil(max / 4)),
      'é'.repeat(max + 1),
      'x'.repeat(max + 1),
      'x'.repeat(Math.max(0, min - 1)),
      '',
      '   ',
      '\t\n',
      'a\u0000b',
      '\u0000',
      new RawJson('"\\ud800"'),
      new RawJson('"x\\udc00y"'),
      new RawJson('"\\ud83d"'),
      new RawJson('"\\u0000"'),
      '\u202e\u0000\ufeff',
      "'; drop table agents; --",
      '<script>alert(1)</script>',
      '../../etc/passwd',
      'IDLE',
      'type_A',
      'not-a-uuid',
      '2026-01-01T23:59:60Z',
      '0000-01-01T00:00:00Z',
      'user@',
      'x'.repeat(70000),
    ]);
  }
  return random.pick<unknown>([nested(random.int(101, 400)), new RawJson('1e309'), 'x'.repeat(70000), anyJson(random)]);
}

/** JSON nested `depth` levels deep. */
export function nested(depth: number, kind: 'array' | 'object' = 'object'): RawJson {
  return new RawJson(kind === 'array' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
}
