import type { RequestHandler } from 'express';
import { schemaViolation, type FieldProblem } from '../errors';

/** `filter[field][op]`: the only nested query key api.yaml declares (deepObject, two levels). */
const FILTER_KEY = /^filter\[([^[\]]+)\]\[([^[\]]+)\]$/;

export type QueryValue = string | string[] | Record<string, Record<string, string | string[]>>;

/**
 * Express's query parser. Only `filter[field][op]` becomes an object; every other key stays the
 * literal text it was sent as, so `fields[21]=1` or `__proto__[x]=1` can never turn into a
 * structure the contract does not declare (`checkQueryShape` then refuses it by name). Keys are
 * defined, never assigned, so no key can reach a prototype.
 *
 * Express passes `null` for a URL without a query string. Node 24's URLSearchParams reads `null`
 * as the text "null" (a parameter named null), where earlier Nodes read no parameters.
 */
export function parseQuery(search: string | null): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  for (const [key, value] of new URLSearchParams(search ?? '')) {
    const filter = FILTER_KEY.exec(key);
    if (filter) {
      // A plain `filter=` key before this one would be a string: the shape check refuses it anyway.
      const filters = objectAt(query, 'filter');
      add(objectAt(filters, filter[1] as string), filter[2] as string, value);
    } else {
      add(query, key, value);
    }
  }
  return query;
}

type Level = Record<string, unknown>;

/** The object under `key`, made when absent. */
function objectAt(target: Level, key: string): Level {
  const existing = Object.hasOwn(target, key) ? target[key] : undefined;
  if (typeof existing === 'object' && existing !== null && !Array.isArray(existing)) return existing as Level;
  const created: Level = {};
  define(target, key, created);
  return created;
}

/** A value under `key`; a repeated key collects its values in an array (the shape check refuses it by name). */
function add(target: Level, key: string, value: string): void {
  define(target, key, Object.hasOwn(target, key) ? [target[key] as string | string[]].flat().concat(value) : value);
}

function define(target: Level, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Refuses query strings whose structure no operation declares: a key given twice, brackets on
 * anything but `filter[field][op]`, and keys that name Object.prototype's members. Each problem
 * names its parameter; the validator then checks names and values against the operation.
 */
export const checkQueryShape: RequestHandler = (req, _res, next) => {
  const search = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
  if (search === '') return next();
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  for (const key of new URLSearchParams(search).keys()) {
    const filter = FILTER_KEY.exec(key);
    const name = key.split('[', 1)[0] || key;
    if (seen.has(key)) problems.push({ field: key, in: 'query', message: 'must be given once' });
    else if (key === 'filter') problems.push({ field: name, in: 'query', message: 'must be written filter[field][op]=value' });
    else if (!filter && /[[\]]/.test(key)) {
      problems.push({ field: name, in: 'query', message: name === 'filter' ? 'must be written filter[field][op]=value' : `${key} is not a parameter: only filter takes [field][op]` });
    } else if (key in Object.prototype || (filter && (filter[1] as string) in Object.prototype)) {
      problems.push({ field: name, in: 'query', message: `${key} is not a parameter of this operation` });
    }
    seen.add(key);
  }
  for (const [key, value] of new URLSearchParams(search)) {
    if (req.matched?.numericQuery.has(key) && Math.abs(Number(value)) === Infinity) {
      problems.push({ field: key, in: 'query', message: 'must be a number within range' });
    }
  }
  if (problems.length > 0) return next(schemaViolation('Request validation failed', uniqueByField(problems)));
  next();
};

function uniqueByField(problems: FieldProblem[]): FieldProblem[] {
  return [...new Map(problems.map((problem) => [`${problem.field}|${problem.message}`, problem])).values()];
}
